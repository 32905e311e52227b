/**
 * The ledger tools (what the QLDB console gave): verification, an object's history as a
 * readable table, an object's offline-verifiable bundle, and the log monitor.
 *   npm run ledger -- verify [--object <id>] [--policy <file>]   check every chain (or one object's) and the log against them
 *   npm run ledger -- history <objectId>       print the object's events with hashes and the verdict
 *   npm run ledger -- export --object <id> [--as-of <instant> | --at-sequence <n>] [--out <file>] [--policy <file>] [--url <api>] [--api-key <key>]
 *                                             write the object's bundle (JSON), as GET /v2/objects/{id}/bundle answers it
 *   npm run ledger -- monitor --state <file> [--url <api>] [--api-key <key>] [--verifier-key <line>] [--policy <file>]
 * `--policy` names a witness policy (c2sp.org/tlog-policy): the checkpoint the command trusts
 * must carry cosignatures that meet its quorum. Exit code 1 when verification finds a problem
 * (or the checkpoint is not witnessed as the policy asks); 2 for a usage error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dataDirectoryFromEnvironment, readStackState } from '../local/stack-state.js';
import {
  type LedgerBundle,
  type PolicyVerdict,
  parseWitnessPolicy,
  verifyWitnessedCheckpoint,
} from '../verifier/index.js';
import { apiLogSource, type MonitorState, monitorLog } from './ledger-monitor.js';
import { connectToStack } from './stack-connection.js';

const USAGE =
  'Usage: npm run ledger -- verify [--object <objectId>] [--json] [--policy <file>] | history <objectId> [--json]\n' +
  '       | export --object <objectId> [--as-of <instant> | --at-sequence <n>] [--out <file>] [--policy <file>] [--url <api base url>] [--api-key <key>]\n' +
  '       | monitor --state <file> [--url <api base url>] [--api-key <key>] [--verifier-key <key line>] [--policy <file>]';

class UsageError extends Error {}

const shortHash = (hash: string) => `${hash.slice(0, 12)}…`;

/** A policy file's text; a malformed policy is a usage error naming its line. */
async function readPolicy(file: string): Promise<string> {
  const text = readFileSync(file, 'utf8');
  await parseWitnessPolicy(text).catch((error: Error) => {
    throw new UsageError(`${file}: ${error.message}`);
  });
  return text;
}

/**
 * The published checkpoint against a witness policy: signed by one of the policy's logs (or,
 * for a policy that names none, by the key the log publishes) and cosigned to its quorum.
 */
async function witnessCheck(checkpoint: string, policyText: string, publishedKey: string) {
  const policy = await parseWitnessPolicy(policyText);
  return verifyWitnessedCheckpoint(checkpoint, policy, policy.logs.length > 0 ? undefined : publishedKey);
}

const witnessLine = (verdict: PolicyVerdict) =>
  verdict.ok
    ? `witnesses: ok, cosigned by ${verdict.cosigned.join(', ') || 'no witness'}`
    : `witnesses: FAILED: ${verdict.reason}`;

function table(rows: string[][]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      object: { type: 'string' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      state: { type: 'string' },
      url: { type: 'string' },
      'api-key': { type: 'string' },
      'verifier-key': { type: 'string' },
      policy: { type: 'string' },
      'as-of': { type: 'string' },
      'at-sequence': { type: 'string' },
    },
  });
  const [command, argument] = positionals;
  if (!command) throw new UsageError('No command given');
  const policyText = values.policy ? await readPolicy(values.policy) : undefined;
  if (command === 'monitor') return monitor(values, policyText);
  if (command === 'export') return exportBundle(values, policyText);
  connectToStack();
  // Imported after connecting: the SDK clients read the endpoints when their module loads.
  const { verifyLedger } = await import('../lambdas/domain/ledger/ledger-audit.js');
  const { listAllChainHeads, readWholeChain, chainRefOf } = await import(
    '../lambdas/repositories/ledger-repository.js'
  );
  const { verifyChain } = await import('../lambdas/domain/ledger/chain-verification.js');
  const { latestCheckpoint, logVerifierKey } = await import('../lambdas/domain/ledger/log-service.js');

  switch (command) {
    case 'verify': {
      const ledgerReport = await verifyLedger({ objectId: values.object });
      const witnesses = policyText
        ? await witnessCheck(await latestCheckpoint(), policyText, await logVerifierKey())
        : undefined;
      const report = {
        ...ledgerReport,
        valid: ledgerReport.valid && witnesses?.ok !== false,
        ...(witnesses ? { witnesses } : {}),
      };
      if (values.json) console.log(JSON.stringify(report));
      else {
        console.log(
          `${report.valid ? 'VALID' : 'INVALID'}: ${report.chainsChecked} chain(s), ${report.eventsChecked} event(s) checked; log of ${report.log.treeSize} entries, ${report.log.integratedEvents} of the checked events in it`,
        );
        if (witnesses) console.log(`  ${witnessLine(witnesses)}`);
        for (const chain of report.invalidChains) {
          for (const problem of chain.problems)
            console.log(`  ${chain.chainId} event ${problem.sequence ?? '-'}: ${problem.reason}`);
        }
        for (const problem of report.logProblems) {
          console.log(`  log: ${problem.chainId ?? ''} event ${problem.sequence ?? '-'}: ${problem.reason}`);
        }
      }
      if (values.object && report.chainsChecked === 0) {
        console.error(`No ledger chain for object ${values.object}`);
        return 1;
      }
      return report.valid ? 0 : 1;
    }
    case 'history': {
      if (!argument) throw new UsageError('history needs an object id');
      const head = (await listAllChainHeads()).find(
        (each) => each.chainId.startsWith('object:') && each.chainId.endsWith(`:${argument}`),
      );
      if (!head) {
        console.error(`No ledger chain for object ${argument}`);
        return 1;
      }
      const events = await readWholeChain(chainRefOf(head.chainId));
      const verification = verifyChain(events, { eventCount: head.eventCount, lastTxId: head.lastHash });
      if (values.json) {
        console.log(JSON.stringify({ chainId: head.chainId, events, verification }));
        return verification.valid ? 0 : 1;
      }
      const broken = new Set(verification.problems.map((problem) => problem.sequence));
      const rows = [
        ['#', 'timestamp', 'action', 'principal', 'performedBy', 'changed', 'prevHash', 'hash', 'ok'],
      ];
      for (const event of events) {
        rows.push([
          String(event.sequence),
          event.timestamp,
          event.action,
          event.principal,
          event.performedBy ?? '',
          Object.keys(event.changes).join(',') || '-',
          shortHash(event.prevHash),
          shortHash(event.hash),
          broken.has(event.sequence) ? 'BROKEN' : 'ok',
        ]);
      }
      console.log(`Ledger history of object ${argument} (${head.chainId})`);
      console.log(table(rows));
      console.log(
        verification.valid
          ? `VALID: ${verification.eventCount} event(s); lastTxId ${verification.lastTxId}`
          : `INVALID:\n${verification.problems.map((problem) => `  event ${problem.sequence ?? '-'}: ${problem.reason}`).join('\n')}`,
      );
      return verification.valid ? 0 : 1;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** The API's address and the key to call it with: the options, the environment, or the running `npm start`. */
function apiOf(command: string, values: Record<string, string | boolean | undefined>, keyNeeded: string) {
  const url =
    (values.url as string | undefined) ??
    process.env.ASSET_REGISTRY_API_URL ??
    readStackState(dataDirectoryFromEnvironment())?.gatewayUrl;
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.ASSET_REGISTRY_API_KEY;
  if (!url)
    throw new UsageError(`${command} needs --url (or ASSET_REGISTRY_API_URL, or a running npm start)`);
  if (!apiKey) throw new UsageError(`${command} needs --api-key (or ASSET_REGISTRY_API_KEY): ${keyNeeded}`);
  return { url: url.replace(/\/$/, ''), apiKey };
}

/** How often the bundle is asked again while an event waits for the next checkpoint. */
const NOT_YET_LOGGED_ATTEMPTS = 15;

/**
 * The object's bundle, checked against the witness policy when one is given, written as JSON.
 * With a key (`--api-key` or `ASSET_REGISTRY_API_KEY`), from the API
 * (`GET /v2/objects/{objectId}/bundle`, one request: no table access). Without one, an operator
 * with table access (the running `npm start`, or `TABLE_NAME` and `DIGEST_BUCKET_NAME`) gets
 * the same bundle from the same domain function.
 */
async function exportBundle(
  values: Record<string, string | boolean | undefined>,
  policyText: string | undefined,
): Promise<number> {
  const objectId = values.object as string | undefined;
  if (!objectId) throw new UsageError('export needs --object <objectId>');
  const atSequence = values['at-sequence'] as string | undefined;
  if (atSequence !== undefined && !/^[1-9][0-9]*$/.test(atSequence))
    throw new UsageError('--at-sequence takes an event sequence number: 1, 2, ...');
  const moment = {
    asOf: values['as-of'] as string | undefined,
    atSequence: atSequence === undefined ? undefined : Number(atSequence),
  };
  const hasKey = values['api-key'] !== undefined || process.env.ASSET_REGISTRY_API_KEY !== undefined;
  const bundle = hasKey ? await bundleFromApi(values, objectId) : await bundleFromTable(objectId, moment);
  if (!bundle) return 1;
  if (policyText) {
    const witnesses = await witnessCheck(bundle.checkpoint, policyText, bundle.verifierKey);
    if (!witnesses.ok) {
      console.error(`Not exported: ${witnessLine(witnesses)}`);
      return 1;
    }
  }
  const json = `${JSON.stringify(bundle, null, 2)}\n`;
  if (values.out) writeFileSync(values.out as string, json);
  else process.stdout.write(json);
  return 0;
}

/** The bundle from the API, asked again while an event waits for the next checkpoint (409). */
async function bundleFromApi(
  values: Record<string, string | boolean | undefined>,
  objectId: string,
): Promise<LedgerBundle | undefined> {
  const { url, apiKey } = apiOf('export', values, "a key of the object's company with objects:read");
  const query = new URLSearchParams();
  if (values['as-of']) query.set('asOf', values['as-of'] as string);
  if (values['at-sequence']) query.set('atSequence', values['at-sequence'] as string);
  const address = `${url}/v2/objects/${encodeURIComponent(objectId)}/bundle${query.size > 0 ? `?${query}` : ''}`;
  let response: Response;
  for (let attempt = 1; ; attempt++) {
    response = await fetch(address, { headers: { 'X-API-Key': apiKey } });
    if (response.status !== 409 || attempt >= NOT_YET_LOGGED_ATTEMPTS) break;
    await response.arrayBuffer();
    await new Promise((resolve) =>
      setTimeout(resolve, 1000 * Number(response.headers.get('Retry-After') ?? 1)),
    );
  }
  const text = await response.text();
  if (!response.ok) {
    console.error(`No bundle of object ${objectId}: GET ${address} responded ${response.status}: ${text}`);
    return undefined;
  }
  return JSON.parse(text) as LedgerBundle;
}

/** The bundle read from the table (no key given), by the domain function the API calls. */
async function bundleFromTable(
  objectId: string,
  moment: { asOf?: string; atSequence?: number },
): Promise<LedgerBundle | undefined> {
  connectToStack();
  const { objectBundleOfAnyCompany } = await import('../lambdas/domain/ledger/object-bundle.js');
  const bundle = await objectBundleOfAnyCompany(objectId, moment);
  if (!bundle) console.error(`No ledger chain for object ${objectId}`);
  return bundle;
}

/**
 * One monitor run against the API; the trusted key is pinned in the state file at the first
 * run, and so is the witness policy at the first run that names one (a later `--policy` must
 * be the same text; to trust other witnesses, start a new state file).
 */
async function monitor(
  values: Record<string, string | boolean | undefined>,
  policyText: string | undefined,
): Promise<number> {
  const stateFile = values.state as string | undefined;
  if (!stateFile) throw new UsageError('monitor needs --state <file>');
  const { url, apiKey } = apiOf('monitor', values, 'any valid key');
  const saved = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as PinnedMonitorState)
    : {};
  const verifierKey = (values['verifier-key'] as string | undefined) ?? saved.verifierKey;
  const witnessPolicy = policyText ?? saved.witnessPolicy;
  const policy = witnessPolicy === undefined ? undefined : await parseWitnessPolicy(witnessPolicy);
  if (!verifierKey && !policy?.logs.length)
    throw new UsageError(
      'monitor needs --verifier-key <key line> (or a --policy with a log line) at its first run',
    );
  // A state that trusted the policy's log keys alone takes no other key later.
  if (saved.checkpoint && saved.verifierKey !== verifierKey) {
    console.error('KEY CHANGED: --verifier-key is not the key this state file trusts');
    return 1;
  }
  if (saved.witnessPolicy !== undefined && saved.witnessPolicy !== witnessPolicy) {
    console.error('POLICY CHANGED: --policy is not the witness policy this state file trusts');
    return 1;
  }
  const verdict = await monitorLog(apiLogSource(url, apiKey), { verifierKey, policy }, saved);
  if (!verdict.ok) {
    console.error(verdict.message);
    return 1;
  }
  const pinned: PinnedMonitorState = { ...verdict.state, verifierKey, witnessPolicy };
  writeFileSync(stateFile, `${JSON.stringify(pinned, null, 2)}\n`);
  console.log(verdict.message);
  return 0;
}

/** The monitor's state file: the last accepted checkpoint, and the trust pinned at the first run. */
interface PinnedMonitorState extends MonitorState {
  verifierKey?: string;
  /** The tlog-policy text, as given to the first run with `--policy`. */
  witnessPolicy?: string;
}

main(process.argv.slice(2)).then(
  (exitCode) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ledger: ${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
