/**
 * The standalone offline verifier: `node verify-bundle.mjs <bundle.json> [<verifier key>]
 * [--policy <policy file>]` (or `npm run verify-bundle -- ...` in this repository). Built into
 * one file with no dependency but Node by `npm run build:verifier` (`dist/verify-bundle.mjs`).
 * With `--policy` (c2sp.org/tlog-policy), the checkpoint must also carry cosignatures that meet
 * the policy's quorum, and the policy's `log` lines are trusted log keys (the key argument may
 * then be left out). Prints one line per event and exits 1 when anything fails, 2 on a usage
 * error or an unreadable input; it never contacts the service.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type LedgerBundle, parseWitnessPolicy, verifyBundle } from '../verifier/index.js';

const USAGE =
  'Usage: verify-bundle <bundle.json> [<verifier key line, or a file holding it>] [--policy <tlog-policy file>]\n' +
  '       (the key may be left out when the policy has a "log" line)\n';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { policy: { type: 'string' } },
  });
  const [bundleFile, keyArgument, ...extra] = positionals;
  const policy = values.policy ? await parseWitnessPolicy(readFileSync(values.policy, 'utf8')) : undefined;
  if (!bundleFile || extra.length > 0 || (!keyArgument && !policy?.logs.length)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const verifierKey =
    keyArgument === undefined || keyArgument.includes('+')
      ? keyArgument
      : readFileSync(keyArgument, 'utf8').trim();
  const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as LedgerBundle;
  const verdict = await verifyBundle(bundle, { verifierKey, policy });
  const { checkpoint, witnesses } = verdict;
  console.log(
    checkpoint.ok
      ? `checkpoint: ok (${checkpoint.origin}, tree size ${checkpoint.treeSize}, key ${checkpoint.keyId})`
      : `checkpoint: FAILED: ${checkpoint.reason}`,
  );
  if (witnesses) {
    const cosigned = witnesses.cosigned.join(', ') || 'none';
    console.log(
      witnesses.ok
        ? `witnesses: ok (quorum ${policy?.quorum}; cosigned by ${cosigned})`
        : `witnesses: FAILED: ${witnesses.reason} (cosigned by ${cosigned})`,
    );
  }
  for (const event of verdict.events) {
    console.log(`event ${event.sequence} ${event.hash}: ${event.ok ? 'ok' : `FAILED: ${event.reason}`}`);
  }
  console.log(verdict.ok ? 'VALID' : 'INVALID');
  return verdict.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
