/**
 * Scale: page 1 of a company's object list (100 and 10,000 objects; 1,000,000 with
 * BENCH_MILLION=1) and of its category list (100 and 1,000 categories), through the list
 * handlers in process, with latency and the read capacity DynamoDB reports; then the ratio
 * large / small. Also a deep page (offset 5,000 of the objects, 500 of the categories), which
 * reads every item it skips, and the same deep page reached by cursor, which reads only its page.
 */
import { operations } from '../../lambdas/operations';
import { type DynamoDbMeter, describeCommands } from '../support/dynamodb-meter';
import { newCompany } from '../support/fixtures';
import { invokeExpecting, type OperationRequest } from '../support/handler-calls';
import { seedCategories, seedObjects } from '../support/seed';
import { median, percentile, round, timeRuns } from '../support/statistics';

export interface ListScaleRow {
  list: string;
  size: number;
  offset: number;
  /** How the page was reached: `offset` (the spec's way) or `cursor` (nextCursor of the page before). */
  by: 'offset' | 'cursor';
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
  by: 'offset' | 'cursor';
  latencyRatio: number;
  readUnitsRatio: number;
}

const lists = {
  objects: operations.listObjects,
  categories: operations.listCategories,
} as const;

export async function runListScale(options: {
  meter: DynamoDbMeter;
  objectSizes: number[];
  categorySizes: [number, number];
  deepOffsets: { objects: number; categories: number };
  /** Objects-list depths read by cursor only (offset reads of a million items would take minutes each). */
  cursorOnlyDepths?: Record<number, number>;
  runs: number;
}): Promise<{ rows: ListScaleRow[]; ratios: ListScaleRatio[]; seedSeconds: Record<string, number> }> {
  const rows: ListScaleRow[] = [];
  const seedSeconds: Record<string, number> = {};
  const plan = [
    ...options.objectSizes.map((size) => ({ list: 'objects' as const, size })),
    ...options.categorySizes.map((size) => ({ list: 'categories' as const, size })),
  ];
  for (const { list, size } of plan) {
    const company = await newCompany(`Bench ${list} ${size}`);
    const seedStarted = Date.now();
    if (list === 'objects') await seedObjects(company.tenantId, size);
    else await seedCategories(company.tenantId, size);
    seedSeconds[`${size} ${list}`] = round((Date.now() - seedStarted) / 1000, 1);
    process.stdout.write(`  seeded ${size} ${list} in ${seedSeconds[`${size} ${list}`]} s\n`);
    const sizes = list === 'objects' ? options.objectSizes : options.categorySizes;
    const cursorOnlyDepth = list === 'objects' ? options.cursorOnlyDepths?.[size] : undefined;
    const pages: { offset: number; by: 'offset' | 'cursor' }[] = [{ offset: 0, by: 'offset' }];
    if (cursorOnlyDepth !== undefined) pages.push({ offset: cursorOnlyDepth, by: 'cursor' });
    else if (size === sizes[1]) {
      pages.push({ offset: options.deepOffsets[list], by: 'offset' });
      pages.push({ offset: options.deepOffsets[list], by: 'cursor' });
    }
    for (const { offset, by } of pages) {
      const query: Record<string, string> =
        by === 'offset'
          ? { limit: '20', offset: String(offset) }
          : { limit: '20', cursor: await cursorAt(lists[list], company.principal, offset) };
      const request = { principal: company.principal, query };
      // A deep page by offset reads thousands of entries per call: fewer runs keep the bench short.
      const runs = offset > 0 && by === 'offset' ? Math.min(options.runs, 10) : options.runs;
      const samples = await timeRuns(runs, () => invokeExpecting(lists[list], request), 3);
      options.meter.reset();
      const response = await invokeExpecting(lists[list], request);
      const reading = options.meter.read();
      const { total, offset: respondedOffset } = response.body.pagination ?? {};
      if (total !== size) throw new Error(`${list}: total ${total}, expected ${size}`);
      if (respondedOffset !== offset)
        throw new Error(`${list}: offset ${respondedOffset}, expected ${offset}`);
      rows.push({
        list: `${list} (GET ${lists[list].path})`,
        size,
        offset,
        by,
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
    const sizes = list === 'objects' ? options.objectSizes : options.categorySizes;
    const [small = 0, large = 0] = sizes;
    const row = (size: number, offset: number, by: 'offset' | 'cursor' = 'offset') =>
      ofList.find((each) => each.size === size && each.offset === offset && each.by === by);
    const deep = options.deepOffsets[list];
    const pairs = [
      {
        from: row(small, 0),
        to: row(large, 0),
        sizes: `${small} → ${large}`,
        offset: 0,
        by: 'offset' as const,
      },
      {
        from: row(large, 0),
        to: row(large, deep),
        sizes: `${large}: page 1 → offset ${deep}`,
        offset: deep,
        by: 'offset' as const,
      },
      {
        from: row(large, 0),
        to: row(large, deep, 'cursor'),
        sizes: `${large}: page 1 → cursor at ${deep}`,
        offset: deep,
        by: 'cursor' as const,
      },
      ...sizes.slice(2).flatMap((size) => {
        const depth = options.cursorOnlyDepths?.[size] ?? 0;
        return [
          {
            from: row(large, 0),
            to: row(size, 0),
            sizes: `${large} → ${size}`,
            offset: 0,
            by: 'offset' as const,
          },
          {
            from: row(size, 0),
            to: row(size, depth, 'cursor'),
            sizes: `${size}: page 1 → cursor at ${depth}`,
            offset: depth,
            by: 'cursor' as const,
          },
        ];
      }),
    ];
    for (const pair of pairs) {
      if (!pair.from || !pair.to) continue;
      ratios.push({
        list,
        sizes: pair.sizes,
        offset: pair.offset,
        by: pair.by,
        latencyRatio: round(pair.to.medianMs / pair.from.medianMs, 2),
        readUnitsRatio: round(pair.to.readUnitsPerCall / pair.from.readUnitsPerCall, 2),
      });
    }
  }
  return { rows, ratios, seedSeconds };
}

/**
 * The cursor of the page that starts at `depth`: the nextCursor of a one-item page just before
 * it (reached by offset once, untimed; that read skips `depth - 1` items).
 */
async function cursorAt(
  list: (typeof lists)[keyof typeof lists],
  principal: OperationRequest['principal'],
  depth: number,
): Promise<string> {
  const before = await invokeExpecting(list, { principal, query: { limit: '1', offset: String(depth - 1) } });
  const cursor = before.body.pagination?.nextCursor;
  if (typeof cursor !== 'string') throw new Error(`no cursor after position ${depth}`);
  return cursor;
}
