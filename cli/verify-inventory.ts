/**
 * Offline check of an inventory (`GET /v2/objects/export?asOf=…&format=jsonl&proofs=true`):
 * `npm run verify-inventory -- <inventory.jsonl> [<verifier key line, or a file holding it>]
 * [--policy <tlog-policy file>]`. Prints the checkpoint's verdict, one line per row, and a
 * total; exits 1 when any row (or the checkpoint) fails, 2 on a usage error or an unreadable
 * input. It never contacts the service: the logic is `verifier/inventory.ts`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseWitnessPolicy, verifyInventory } from '../verifier/index.js';

const USAGE =
  'Usage: verify-inventory <inventory.jsonl> [<verifier key line, or a file holding it>] [--policy <tlog-policy file>]\n' +
  '       (the key may be left out when the policy has a "log" line)\n';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { policy: { type: 'string' } },
  });
  const [inventoryFile, keyArgument, ...extra] = positionals;
  const policy = values.policy ? await parseWitnessPolicy(readFileSync(values.policy, 'utf8')) : undefined;
  if (!inventoryFile || extra.length > 0 || (!keyArgument && !policy?.logs.length)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const verifierKey =
    keyArgument === undefined || keyArgument.includes('+')
      ? keyArgument
      : readFileSync(keyArgument, 'utf8').trim();
  const verdict = await verifyInventory(readFileSync(inventoryFile, 'utf8'), { verifierKey, policy });
  if (verdict.reason) console.log(`file: FAILED: ${verdict.reason}`);
  const { checkpoint, witnesses } = verdict;
  console.log(
    checkpoint.ok
      ? `checkpoint: ok (${checkpoint.origin}, tree size ${checkpoint.treeSize}, key ${checkpoint.keyId}); as of ${verdict.asOf}`
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify-inventory: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
