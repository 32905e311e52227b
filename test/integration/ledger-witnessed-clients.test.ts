/**
 * The auditor's command-line tools with a witness policy (c2sp.org/tlog-policy), run as the
 * auditor runs them (child processes): `verify-bundle --policy`, `ledger monitor --policy`
 * (the policy pinned in its state file), `ledger verify --policy` and `ledger export
 * --policy`. A forked checkpoint that the log's own key signed, at the same size or a smaller
 * one, and that only a colluding witness cosigned, is refused by the verifier and the
 * monitor. The local log does not call witnesses yet, so the test cosigns checkpoints itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import {
  formatCheckpointBody,
  formatSignatureLine,
  type LedgerBundle,
  parseCheckpointBody,
  splitNote,
} from '../../verifier/index';
import { invoke } from '../support/api-events';
import { runRepositoryCli } from '../support/cli-child';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { requestBundle, requestCheckpoint, requestConsistency, requestKey } from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';
import { cosigned, newSigner, policyText } from '../support/witnessing';

jest.setTimeout(120_000);

const folder = mkdtempSync(join(tmpdir(), 'witnessed-clients-'));
const fileOf = (name: string, content: string) => {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
};

const auditor = newSigner('auditor.example');
const insurer = newSigner('insurer.example');
const BOTH = 'group both all auditor.example insurer.example\nquorum both';

let ledger: IsolatedLedger;
let logKey: string;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

const reader = companyPrincipal();
const integrate = () => runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });

async function givenLoggedObject(updates: number) {
  const principal = companyPrincipal();
  const object = await givenObject(principal, await givenSubcategoryPath(principal), { owner: 'Alice' });
  for (let u = 0; u < updates; u++) {
    await invoke(updateObject, {
      method: 'PUT',
      path: `/v2/objects/${object.id}`,
      principal,
      pathParameters: { objectId: object.id },
      body: { action: 'transfer', owner: `Owner ${u}` },
    });
  }
  await integrate();
  logKey = (await requestKey(reader)).text().trim();
  return { object, principal };
}

/** A checkpoint the log's own key signs but the log never published (a fork). */
async function forkedCheckpoint(treeSize: number): Promise<string> {
  const origin = parseCheckpointBody(splitNote((await requestCheckpoint(reader)).text()).text).origin;
  const text = formatCheckpointBody(origin, treeSize, new Uint8Array(32).fill(9));
  return `${text}\n${await formatSignatureLine(
    origin,
    await ledger.signer.publicKey(),
    await ledger.signer.sign(Buffer.from(text)),
  )}`;
}

const publishedSize = async () =>
  parseCheckpointBody(splitNote((await requestCheckpoint(reader)).text()).text).treeSize;

describe('verify-bundle --policy', () => {
  it('refuses a bundle whose checkpoint misses the quorum, naming the missing witness, and accepts it once met', async () => {
    // Prepare: the bundle's checkpoint carries the auditor's cosignature only
    const { object, principal } = await givenLoggedObject(2);
    const exported = (await requestBundle(principal, object.id)).body as LedgerBundle;
    const bundleFile = fileOf(
      'bundle.json',
      JSON.stringify({ ...exported, checkpoint: cosigned(exported.checkpoint, auditor) }),
    );
    const bothPolicy = fileOf('both.policy', await policyText(undefined, [auditor, insurer], BOTH));
    const auditorWithLog = fileOf(
      'auditor.policy',
      `log ${logKey}\n${await policyText(undefined, [auditor, insurer], 'quorum auditor.example')}`,
    );
    // Act
    const refused = await runRepositoryCli('verify-bundle.ts', [bundleFile, logKey, '--policy', bothPolicy]);
    const accepted = await runRepositoryCli('verify-bundle.ts', [bundleFile, '--policy', auditorWithLog]);
    const noKey = await runRepositoryCli('verify-bundle.ts', [bundleFile, '--policy', bothPolicy]);
    const malformed = await runRepositoryCli('verify-bundle.ts', [
      bundleFile,
      logKey,
      '--policy',
      fileOf('bad.policy', `witness auditor.example ${logKey}\nquorum auditor.example\n`),
    ]);
    const keyOnly = await runRepositoryCli('verify-bundle.ts', [bundleFile, logKey]);
    // Assess
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(/^checkpoint: ok /m);
    expect(refused.stdout).toMatch(
      /^witnesses: FAILED: .*quorum both: missing insurer\.example \(cosigned by auditor\.example\)$/m,
    );
    expect(refused.stdout).not.toMatch(/^event .*FAILED/m);
    expect(refused.stdout.trim().split('\n').at(-1)).toBe('INVALID');
    expect(accepted).toMatchObject({ exitCode: 0 });
    expect(accepted.stdout).toMatch(
      /^witnesses: ok \(quorum auditor\.example; cosigned by auditor\.example\)$/m,
    );
    expect(accepted.stdout.trim().split('\n').at(-1)).toBe('VALID');
    expect(noKey).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('Usage: verify-bundle') });
    expect(malformed).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/policy line 1: .*0x04/) });
    expect(keyOnly.exitCode).toBe(0);
    expect(keyOnly.stdout).not.toContain('witnesses:');
  });

  it.each([
    ['another root at the same size', 0],
    ['a smaller tree', -1],
  ])('refuses a fork (%s) the log signed and only a colluding witness cosigned', async (_case, change) => {
    // Prepare
    const { object, principal } = await givenLoggedObject(1);
    const exported = (await requestBundle(principal, object.id)).body as LedgerBundle;
    const fork = cosigned(await forkedCheckpoint((await publishedSize()) + change), insurer);
    const bundleFile = fileOf('fork.json', JSON.stringify({ ...exported, checkpoint: fork }));
    const policy = fileOf(
      'fork.policy',
      `log ${logKey}\n${await policyText(undefined, [auditor, insurer], BOTH)}`,
    );
    // Act
    const result = await runRepositoryCli('verify-bundle.ts', [bundleFile, '--policy', policy]);
    // Assess: the log's signature holds, the honest auditor's cosignature is missing
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^checkpoint: ok /m);
    expect(result.stdout).toMatch(/^witnesses: FAILED: .*missing auditor\.example/m);
  });
});

describe('ledger monitor --policy', () => {
  let server: Server;
  let url: string;
  /** What the test's log server does to the published checkpoint before serving it. */
  let serve: (published: string) => Promise<string> = async (published) => published;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const address = new URL(request.url ?? '/', 'http://localhost');
      const reply = async () => {
        if (address.pathname === '/v2/ledger/checkpoint')
          return serve((await requestCheckpoint(reader)).text());
        const from = Number(address.searchParams.get('from'));
        const to = Number(address.searchParams.get('to'));
        return JSON.stringify((await requestConsistency(reader, from, to)).body);
      };
      reply().then(
        (body) => response.end(body),
        (error: Error) => {
          response.statusCode = 500;
          response.end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const monitor = (state: string, ...args: string[]) =>
    runRepositoryCli('ledger.ts', ['monitor', '--state', state, '--url', url, '--api-key', 'any', ...args]);

  it('pins the policy, refuses a fork the honest witness did not cosign, and follows a witnessed log', async () => {
    // Prepare: both witnesses cosign what the log publishes
    await givenLoggedObject(1);
    serve = async (published) => cosigned(cosigned(published, auditor), insurer);
    const policyBody = `log ${logKey}\n${await policyText(undefined, [auditor, insurer], BOTH)}`;
    const policy = fileOf('monitor.policy', policyBody);
    const state = join(folder, 'monitor-state.json');
    // Act: the first run, with the policy and no --verifier-key (the policy's log line)
    const first = await monitor(state, '--policy', policy);
    // Assess
    expect(first).toMatchObject({ exitCode: 0 });
    expect(first.stdout).toMatch(/^first checkpoint: .*cosigned by auditor\.example, insurer\.example$/m);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ witnessPolicy: policyBody });

    // Act: a fork at the same size, cosigned by the insurer only; the pinned policy applies without --policy
    const size = await publishedSize();
    serve = async () => cosigned(await forkedCheckpoint(size), insurer);
    const sameSize = await monitor(state);
    serve = async () => cosigned(await forkedCheckpoint(size - 1), insurer);
    const smaller = await monitor(state);
    // Assess
    expect(sameSize.exitCode).toBe(1);
    expect(sameSize.stderr).toMatch(/^NOT WITNESSED: .*missing auditor\.example$/m);
    expect(smaller.exitCode).toBe(1);
    expect(smaller.stderr).toMatch(/^NOT WITNESSED: .*missing auditor\.example$/m);

    // Act: another policy than the pinned one
    const other = fileOf(
      'other.policy',
      `log ${logKey}\n${await policyText(undefined, [insurer], 'quorum insurer.example')}`,
    );
    const changed = await monitor(state, '--policy', other);
    const keyAdded = await monitor(state, '--verifier-key', logKey);
    // Assess: the state trusts the pinned policy's log key, and no key added later
    expect(changed).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^POLICY CHANGED/m) });
    expect(keyAdded).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^KEY CHANGED/m) });

    // Act: the log grows, and only the auditor cosigns; then both do
    await givenLoggedObject(1);
    serve = async (published) => cosigned(published, auditor);
    const halfWitnessed = await monitor(state);
    serve = async (published) => cosigned(cosigned(published, auditor), insurer);
    const grown = await monitor(state);
    // Assess
    expect(halfWitnessed).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/missing insurer\.example$/m),
    });
    expect(grown).toMatchObject({ exitCode: 0 });
    expect(grown.stdout).toMatch(
      /^consistent: tree size \d+ -> \d+, .*cosigned by auditor\.example, insurer\.example$/m,
    );
  });
});

/** An API that answers GET /v2/objects/{objectId}/bundle as `principal`'s key would be answered. */
async function bundleServer(principal: ReturnType<typeof companyPrincipal>) {
  const server = createServer((request, response) => {
    const address = new URL(request.url ?? '/', 'http://localhost');
    const objectId = /^\/v2\/objects\/([^/]+)\/bundle$/.exec(address.pathname)?.[1] ?? '';
    requestBundle(principal, objectId, Object.fromEntries(address.searchParams)).then(
      (answer) => {
        response.statusCode = answer.statusCode;
        response.end(JSON.stringify(answer.body));
      },
      (error: Error) => {
        response.statusCode = 500;
        response.end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('ledger verify and export --policy', () => {
  it('refuse the published checkpoint when it misses the quorum, and accept it under quorum none', async () => {
    // Prepare: the local log publishes checkpoints with no cosignature yet
    const { object, principal } = await givenLoggedObject(1);
    const api = await bundleServer(principal);
    const auditorOnly = fileOf(
      'verify-auditor.policy',
      await policyText(undefined, [auditor], 'quorum auditor.example'),
    );
    const none = fileOf(
      'verify-none.policy',
      `log ${logKey}\n${await policyText(undefined, [auditor], 'quorum none')}`,
    );
    const out = join(folder, 'exported.json');
    // Act
    const verifyRefused = await runRepositoryCli('ledger.ts', [
      'verify',
      '--object',
      object.id,
      '--policy',
      auditorOnly,
    ]);
    const verifyAccepted = await runRepositoryCli('ledger.ts', [
      'verify',
      '--object',
      object.id,
      '--policy',
      none,
    ]);
    const exportRefused = await runRepositoryCli('ledger.ts', [
      'export',
      '--object',
      object.id,
      '--out',
      out,
      '--policy',
      auditorOnly,
      '--url',
      api.url,
      '--api-key',
      'any',
    ]);
    const written = (() => {
      try {
        return readFileSync(out, 'utf8');
      } catch {
        return undefined;
      }
    })();
    const exportAccepted = await runRepositoryCli('ledger.ts', [
      'export',
      '--object',
      object.id,
      '--out',
      out,
      '--policy',
      none,
      '--url',
      api.url,
      '--api-key',
      'any',
    ]);
    await api.close();
    const fromApi = readFileSync(out, 'utf8');
    // Without a key, an operator with table access gets the same bundle from the table.
    const fromTable = await runRepositoryCli('ledger.ts', [
      'export',
      '--object',
      object.id,
      '--policy',
      none,
    ]);
    // Assess
    expect(verifyRefused.exitCode).toBe(1);
    expect(verifyRefused.stdout).toMatch(/^INVALID: /);
    expect(verifyRefused.stdout).toMatch(/witnesses: FAILED: .*missing auditor\.example$/m);
    expect(verifyAccepted.exitCode).toBe(0);
    expect(verifyAccepted.stdout).toMatch(/^VALID: .*\n {2}witnesses: ok, cosigned by no witness$/m);
    expect(exportRefused.exitCode).toBe(1);
    expect(exportRefused.stderr).toMatch(/^Not exported: witnesses: FAILED: .*missing auditor\.example$/m);
    expect(written).toBeUndefined();
    expect(exportAccepted.exitCode).toBe(0);
    expect((JSON.parse(fromApi) as LedgerBundle).format).toBe('asset-registry-ledger-bundle@v1');
    expect(fromTable.exitCode).toBe(0);
    expect(JSON.parse(fromTable.stdout)).toEqual(JSON.parse(fromApi));
  });
});
