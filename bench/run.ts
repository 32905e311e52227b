/**
 * `npm run bench`: measurements on the local embedded stack (DynamoDB Local + s3rver, no AWS).
 * Prints a table per scenario and writes `bench/results.json`. Not part of `npm test`;
 * `BENCH_SMALL=1` runs tiny sizes as a smoke check.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStack } from '../local/embedded-stack';

async function main(): Promise<void> {
  const small = process.env.BENCH_SMALL === '1';
  const stack = await startEmbeddedStack({
    s3Directory: mkdtempSync(join(tmpdir(), 'asset-registry-bench-s3-')),
  });
  Object.assign(process.env, stack.environment);
  try {
    // Imported after the environment points at the embedded stack.
    const { dynamoDbClient } = await import('../lambdas/shared/clients.js');
    const { installDynamoDbMeter } = await import('./support/dynamodb-meter.js');
    const { runListScale } = await import('./scenarios/list-scale.js');
    const meter = installDynamoDbMeter(dynamoDbClient);

    const results: Record<string, unknown> = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      small,
    };
    console.log('== Scale: page 1 of the object list as the company grows');
    const listScale = await runListScale(meter, small ? [10, 200] : [100, 10_000], small ? 5 : 30);
    console.table(listScale);
    results.listScale = listScale;

    writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log('Results written to bench/results.json');
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
