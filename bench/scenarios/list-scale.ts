/**
 * Scale: page 1 of a company's object list (100 and 10,000 objects) and of its category list
 * (100 and 1,000 categories), through the list handlers in process, with latency and the read
 * capacity DynamoDB reports; then the ratio large / small. Also a deep page (offset 5,000 of
 * the objects, 500 of the categories), which reads every item it skips: reported as it is.
 */
import { operations } from '../../lambdas/operations';
import { type DynamoDbMeter, describeCommands } from '../support/dynamodb-meter';
import { newCompany } from '../support/fixtures';
import { invokeExpecting } from '../support/handler-calls';
import { seedCategories, seedObjects } from '../support/seed';
import { median, percentile, round, timeRuns } from '../support/statistics';

export interface ListScaleRow {
  list: string;
  size: number;
  offset: number;
  medianMs: number;
  p95Ms: number;
  readUnitsPerCall: number;
  dynamoDbCallsPerCall: number;
  commands: string;
}

export interface ListScaleRatio {
  list: string;
  sizes: string;
  offset: number;
  latencyRatio: number;
  readUnitsRatio: number;
}

const lists = {
  objects: { id: 'listObjects', ...operations.listObjects },
  categories: { id: 'listCategories', ...operations.listCategories },
} as const;

export async function runListScale(options: {
  meter: DynamoDbMeter;
  objectSizes: [number, number];
  categorySizes: [number, number];
  deepOffsets: { objects: number; categories: number };
  runs: number;
}): Promise<{ rows: ListScaleRow[]; ratios: ListScaleRatio[] }> {
  const rows: ListScaleRow[] = [];
  const plan = [
    ...options.objectSizes.map((size) => ({ list: 'objects' as const, size })),
    ...options.categorySizes.map((size) => ({ list: 'categories' as const, size })),
  ];
  for (const { list, size } of plan) {
    const company = await newCompany(`Bench ${list} ${size}`);
    const seedStarted = Date.now();
    if (list === 'objects') await seedObjects(company.tenantId, size);
    else await seedCategories(company.tenantId, size);
    process.stdout.write(`  seeded ${size} ${list} in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);
    const largest = size === Math.max(...(list === 'objects' ? options.objectSizes : options.categorySizes));
    const offsets = largest ? [0, options.deepOffsets[list]] : [0];
    for (const offset of offsets) {
      const request = {
        principal: company.principal,
        query: { limit: '20', offset: String(offset) },
      };
      // A deep page reads thousands of entries per call: fewer runs keep the bench short.
      const runs = offset > 0 ? Math.min(options.runs, 10) : options.runs;
      const samples = await timeRuns(runs, () => invokeExpecting(lists[list], request), 3);
      options.meter.reset();
      const answer = await invokeExpecting(lists[list], request);
      const reading = options.meter.read();
      const total = answer.body.pagination?.total;
      if (total !== size) throw new Error(`${list}: total ${total}, expected ${size}`);
      rows.push({
        list: `${list} (GET ${lists[list].path})`,
        size,
        offset,
        medianMs: round(median(samples), 1),
        p95Ms: round(percentile(samples, 0.95), 1),
        readUnitsPerCall: round(reading.readCapacityUnits, 1),
        dynamoDbCallsPerCall: reading.calls,
        commands: describeCommands(reading.callsByCommand),
      });
    }
  }
  const ratios: ListScaleRatio[] = [];
  for (const list of ['objects', 'categories'] as const) {
    const ofList = rows.filter((row) => row.list.startsWith(list));
    const [small, large] = list === 'objects' ? options.objectSizes : options.categorySizes;
    const first = (size: number, offset: number) =>
      ofList.find((row) => row.size === size && row.offset === offset);
    const pairs = [
      { from: first(small, 0), to: first(large, 0), sizes: `${small} → ${large}`, offset: 0 },
      {
        from: first(large, 0),
        to: first(large, options.deepOffsets[list]),
        sizes: `${large}: offset 0 → ${options.deepOffsets[list]}`,
        offset: options.deepOffsets[list],
      },
    ];
    for (const pair of pairs) {
      if (!pair.from || !pair.to) continue;
      ratios.push({
        list,
        sizes: pair.sizes,
        offset: pair.offset,
        latencyRatio: round(pair.to.medianMs / pair.from.medianMs, 2),
        readUnitsRatio: round(pair.to.readUnitsPerCall / pair.from.readUnitsPerCall, 2),
      });
    }
  }
  return { rows, ratios };
}
