/**
 * Reading one window (`offset`, `limit`) of a sorted index partition with `Query`, never `Scan`.
 * Without a filter only `offset + limit` items are read, so page 1 costs the same whatever the
 * partition's size; the caller takes the total from a counter. With a filter DynamoDB still
 * reads every item of the partition, so the whole partition is read to count the matches
 * exactly; that cost grows with the partition (docs/api-decisions.md).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { ItemKey } from '#shared/page-cursor.js';
import type { IndexName } from './table-definition.js';

export interface ItemFilter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface IndexWindowRequest {
  indexName: IndexName;
  partitionKeyValue: string;
  ascending: boolean;
  /** Matching items before the window; skipped by reading them, unless `startAfter` is given. */
  offset: number;
  limit: number;
  /** Where a previous window's read stopped (a cursor's position): read on from there, skip nothing. */
  startAfter?: ItemKey;
  filter?: ItemFilter;
}

export interface IndexWindow {
  items: Record<string, unknown>[];
  /** Number of matching items in the whole partition; only known when a filter was given. */
  matchedTotal?: number;
  /** The index key of the window's last item, where the next window's read starts. */
  lastKey?: ItemKey;
}

/** The attributes of an item that locate it in an index: the table's key and the index's. */
export function indexKeyOf(indexName: IndexName, item: Record<string, unknown>): ItemKey {
  const names = ['pk', 'sk', `${indexName}pk`, `${indexName}sk`];
  return Object.fromEntries(names.map((name) => [name, item[name]]));
}

/** DynamoDB reads at most 1 MB per call anyway; this bounds a call's item count as well. */
const MAX_ITEMS_PER_CALL = 1000;

export async function readIndexWindow(request: IndexWindowRequest): Promise<IndexWindow> {
  const { indexName, partitionKeyValue, ascending, limit, filter, startAfter } = request;
  // From a cursor's position the read starts after the items before the window: nothing to skip.
  const offset = startAfter ? 0 : request.offset;
  const itemsBefore = startAfter ? request.offset : 0;
  const windowEnd = offset + limit;
  const items: Record<string, unknown>[] = [];
  let matched = 0;
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'] = startAfter;
  do {
    const remaining = windowEnd - matched;
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: filter?.expression,
        ExpressionAttributeNames: { '#pk': `${indexName}pk`, ...filter?.names },
        ExpressionAttributeValues: { ':pk': partitionKeyValue, ...filter?.values },
        ScanIndexForward: ascending,
        ExclusiveStartKey: exclusiveStartKey,
        // With a filter, Limit counts items read before filtering, so it cannot bound the window.
        Limit: filter ? MAX_ITEMS_PER_CALL : Math.min(Math.max(remaining, 1), MAX_ITEMS_PER_CALL),
      }),
    );
    for (const item of page.Items ?? []) {
      if (matched >= offset && matched < windowEnd) items.push(item);
      matched++;
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey && (filter !== undefined || matched < windowEnd));
  const last = items.at(-1);
  const lastKey = last ? indexKeyOf(indexName, last) : undefined;
  return filter ? { items, matchedTotal: itemsBefore + matched, lastKey } : { items, lastKey };
}
