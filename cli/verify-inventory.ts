/**
 * Offline check of an inventory (`GET /v2/objects/export?asOf=…&format=jsonl&proofs=true`):
 * `npm run verify-inventory -- <inventory.jsonl> [<verifier key line, or a file holding it>]
 * [--policy <tlog-policy file>]`. Prints the checkpoint's verdict, one line per row, and a
 * total; exits 1 when any row (or the checkpoint) fails, 2 on a usage error or an unreadable
 * input. It never contacts the service: the logic is `verifier/inventory.ts`.
 */
import { readFileSync } from 'node:fs';
import { verifyInventory } from '../verifier/index.js';
import { offlineCheckArguments, printCheckpointVerdicts, runOfflineCheck } from './offline-check.js';

async function main(argv: string[]): Promise<number> {
  const given = await offlineCheckArguments(argv, 'verify-inventory', 'inventory.jsonl');
  if (!given) return 2;
  const verdict = await verifyInventory(readFileSync(given.file, 'utf8'), {
    verifierKey: given.verifierKey,
    policy: given.policy,
  });
  if (verdict.reason) console.log(`file: FAILED: ${verdict.reason}`);
  printCheckpointVerdicts(verdict.checkpoint, verdict.witnesses, given.policy, `; as of ${verdict.asOf}`);
  for (const row of verdict.rows) {
    const events =
      row.sequence === undefined
        ? ''
        : ` event ${row.sequence}${row.nextSequence === undefined ? '' : `, next ${row.nextSequence}`}`;
    console.log(
      `row ${row.line} ${row.id ?? '?'} (${row.externalId ?? '?'})${events}: ${row.ok ? 'ok' : `FAILED: ${row.reason}`}`,
    );
  }
  console.log(`total: ${verdict.rows.length} rows, ${verdict.passed} ok, ${verdict.failed} failed`);
  console.log(verdict.ok ? 'VALID' : 'INVALID');
  return verdict.ok ? 0 : 1;
}

runOfflineCheck('verify-inventory', main);
