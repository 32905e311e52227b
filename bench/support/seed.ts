/**
 * Large companies, fast: objects written with BatchWriteItem from the repository's own item
 * builder (`insertObjectItems`), with the tenant counter the lists read their totals from;
 * categories through the category service (a transaction each, several at a time).
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createCategory } from '../../lambdas/domain/categories/category-service';
import { insertObjectItems, type ObjectRecord } from '../../lambdas/repositories/object-repository';
import { adjustCountersItem } from '../../lambdas/repositories/tenant-counters';
import { plainItem } from '../../lambdas/repositories/transactions';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';

const PARALLEL_BATCHES = 8;

async function writeBatch(items: Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }));
  while (pending.length > 0) {
    const { UnprocessedItems } = await dynamoDb.send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
    );
    pending = (UnprocessedItems?.[tableName()] ?? []) as typeof pending;
  }
}

/** Objects built and written this many at a time, so that a million never sit in memory at once. */
const OBJECTS_PER_CHUNK = 5_000;

/** `count` active objects in one (made-up) category and subcategory of the company. */
export async function seedObjects(companyId: string, count: number): Promise<void> {
  const categoryId = randomUUID();
  const subcategoryId = randomUUID();
  const started = Date.parse('2026-01-01T00:00:00.000Z');
  for (let chunkStart = 0; chunkStart < count; chunkStart += OBJECTS_PER_CHUNK) {
    const items: Record<string, unknown>[] = [];
    for (let index = chunkStart; index < Math.min(count, chunkStart + OBJECTS_PER_CHUNK); index++) {
      const createdAt = new Date(started + index * 1000).toISOString();
      const record: ObjectRecord = {
        id: randomUUID(),
        companyId,
        externalId: `EXT-${index}`,
        name: `Object ${String(index).padStart(7, '0')}`,
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
      // The object and its externalId marker (the counter is moved once, below).
      const [objectPut, markerPut] = insertObjectItems(record).map(plainItem);
      items.push(
        objectPut?.Put?.Item as Record<string, unknown>,
        markerPut?.Put?.Item as Record<string, unknown>,
      );
    }
    const batches: Record<string, unknown>[][] = [];
    for (let index = 0; index < items.length; index += 25) batches.push(items.slice(index, index + 25));
    for (let index = 0; index < batches.length; index += PARALLEL_BATCHES) {
      await Promise.all(batches.slice(index, index + PARALLEL_BATCHES).map(writeBatch));
    }
    if (count >= 100_000 && (chunkStart / OBJECTS_PER_CHUNK) % 20 === 19) {
      process.stdout.write(`    ${chunkStart + OBJECTS_PER_CHUNK} of ${count} objects written\n`);
    }
  }
  const counters = adjustCountersItem(companyId, { objectCount_active: count }).Update;
  await dynamoDb.send(new UpdateCommand(counters as ConstructorParameters<typeof UpdateCommand>[0]));
}

/** `count` active categories of the company, without subcategories. */
export async function seedCategories(companyId: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await createCategory(companyId, {
        name: `Category ${String(index).padStart(5, '0')}`,
        description: 'A category of the benchmark',
      });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
}
