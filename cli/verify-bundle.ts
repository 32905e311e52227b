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
import { type LedgerBundle, verifyBundle } from '../verifier/index.js';
import { offlineCheckArguments, printCheckpointVerdicts, runOfflineCheck } from './offline-check.js';

async function main(argv: string[]): Promise<number> {
  const given = await offlineCheckArguments(argv, 'verify-bundle', 'bundle.json');
  if (!given) return 2;
  const bundle = JSON.parse(readFileSync(given.file, 'utf8')) as LedgerBundle;
  const verdict = await verifyBundle(bundle, { verifierKey: given.verifierKey, policy: given.policy });
  printCheckpointVerdicts(verdict.checkpoint, verdict.witnesses, given.policy);
  for (const event of verdict.events) {
    console.log(`event ${event.sequence} ${event.hash}: ${event.ok ? 'ok' : `FAILED: ${event.reason}`}`);
  }
  console.log(verdict.ok ? 'VALID' : 'INVALID');
  return verdict.ok ? 0 : 1;
}

runOfflineCheck('verify-bundle', main);
