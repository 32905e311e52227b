/**
 * The ledger tools (what the QLDB console gave): digests, verification, and an object's
 * history as a readable table.
 *   npm run ledger -- digest                 write a digest of the whole ledger now
 *   npm run ledger -- verify [--object <id>] check every chain (or one object's) and every digest
 *   npm run ledger -- history <objectId>     print the object's events with hashes and the verdict
 * Exit code 1 when verification finds a problem; 2 for a usage error.
 */
import { parseArgs } from 'node:util';
import { connectToStack } from './stack-connection.js';

const USAGE =
  'Usage: npm run ledger -- digest | verify [--object <objectId>] [--json] | history <objectId> [--json]';

class UsageError extends Error {}

const shortHash = (hash: string) => `${hash.slice(0, 12)}…`;

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
    options: { object: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [command, argument] = positionals;
  if (!command) throw new UsageError('No command given');
  connectToStack();
  // Imported after connecting: the SDK clients read the endpoints when their module loads.
  const { createDigest } = await import('../lambdas/domain/ledger/ledger-digest.js');
  const { verifyLedger } = await import('../lambdas/domain/ledger/ledger-audit.js');
  const { listAllChainHeads, readWholeChain, chainRefOf } = await import(
    '../lambdas/repositories/ledger-repository.js'
  );
  const { verifyChain } = await import('../lambdas/domain/ledger/chain-verification.js');

  switch (command) {
    case 'digest': {
      const { leaves, ...digest } = await createDigest();
      console.log(JSON.stringify(digest));
      return 0;
    }
    case 'verify': {
      const report = await verifyLedger({ objectId: values.object });
      if (values.json) console.log(JSON.stringify(report));
      else {
        console.log(
          `${report.valid ? 'VALID' : 'INVALID'}: ${report.chainsChecked} chain(s), ${report.eventsChecked} event(s), ${report.digestsChecked} digest(s) checked`,
        );
        for (const chain of report.invalidChains) {
          for (const problem of chain.problems)
            console.log(`  ${chain.chainId} event ${problem.sequence ?? '-'}: ${problem.reason}`);
        }
        for (const problem of report.digestProblems) {
          console.log(
            `  digest ${problem.digestSequence} ${problem.chainId ?? ''} event ${problem.sequence ?? '-'}: ${problem.reason}`,
          );
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
