/**
 * Scale: page 1 of a company's object list at 100 and at 10,000 objects (and a deep page,
 * offset 5,000), with latency and the read capacity DynamoDB reports. Objects are seeded with
 * BatchWriteItem using the repository's own item shape, so seeding 10,000 takes seconds.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listObjects } from '../../lambdas/domain/objects/object-service';
import { insertObjectItems, type ObjectRecord } from '../../lambdas/repositories/object-repository';
import { adjustCountersItem } from '../../lambdas/repositories/tenant-counters';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { DynamoDbMeter } from '../support/dynamodb-meter';
import { median, percentile, round, timeRuns } from '../support/statistics';

export interface ListScaleRow {
  scenario: string;
  objects: number;
  offset: number;
  medianMs: number;
  p95Ms: number;
  readCapacityUnitsPerCall: number;
  dynamoDbCallsPerCall: number;
}

async function seedObjects(companyId: string, count: number): Promise<void> {
  const categoryId = randomUUID();
  const subcategoryId = randomUUID();
  const started = Date.parse('2026-01-01T00:00:00.000Z');
  const items: Record<string, unknown>[] = [];
  for (let index = 0; index < count; index++) {
    const createdAt = new Date(started + index * 1000).toISOString();
    const record: ObjectRecord = {
      id: randomUUID(),
      companyId,
      externalId: `EXT-${index}`,
      name: `Object ${String(index).padStart(6, '0')}`,
      description: 'A benchmark object with a description of ordinary length for an asset register.',
      summary: null,
      owner: `Owner ${index % 50}`,
      status: 'active',
      categoryId,
      subcategoryId,
      metadata: { serial: `SN-${index}`, location: 'Warehouse 7' },
      createdAt,
      updatedAt: createdAt,
      txId: 'a'.repeat(64),
      lastTxId: 'a'.repeat(64),
      eventCount: 1,
      fileCount: 0,
    };
    const [objectPut, markerPut] = insertObjectItems(record);
    items.push(
      objectPut?.Put?.Item as Record<string, unknown>,
      markerPut?.Put?.Item as Record<string, unknown>,
    );
  }
  const batches: Record<string, unknown>[][] = [];
  for (let index = 0; index < items.length; index += 25) batches.push(items.slice(index, index + 25));
  const writeBatch = async (batch: Record<string, unknown>[]) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await dynamoDb.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      );
      pending = (UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  };
  for (let index = 0; index < batches.length; index += 8) {
    await Promise.all(batches.slice(index, index + 8).map(writeBatch));
  }
  const counters = adjustCountersItem(companyId, { objectCount_active: count }).Update;
  await dynamoDb.send(new UpdateCommand(counters as ConstructorParameters<typeof UpdateCommand>[0]));
}

export async function runListScale(
  meter: DynamoDbMeter,
  sizes: number[],
  runs: number,
): Promise<ListScaleRow[]> {
  const rows: ListScaleRow[] = [];
  for (const size of sizes) {
    const companyId = randomUUID();
    await seedObjects(companyId, size);
    const offsets = size > 5000 ? [0, 5000] : [0];
    for (const offset of offsets) {
      const query = { limit: 20, offset, status: 'active' as const, sort: 'createdAt:desc' as const };
      const samples = await timeRuns(runs, () => listObjects(companyId, query));
      meter.reset();
      await listObjects(companyId, query);
      const reading = meter.read();
      rows.push({
        scenario: 'list objects, default filters',
        objects: size,
        offset,
        medianMs: round(median(samples)),
        p95Ms: round(percentile(samples, 0.95)),
        readCapacityUnitsPerCall: round(reading.readCapacityUnits, 1),
        dynamoDbCallsPerCall: reading.calls,
      });
    }
  }
  return rows;
}
