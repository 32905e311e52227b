/**
 * The tenant's counters item: exact list totals (`categoryCount_active`, `objectCount_inactive`,
 * ...), moved in the same transaction as the write they count, so a page's `total` is one
 * GetItem instead of a count over the whole list.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { countersKey } from './tenant-keys.js';
import type { TransactItem } from './transactions.js';

/** Transaction item that adds each delta to its counter (counters start at 0). */
export function adjustCountersItem(tenantId: string, deltas: Record<string, number>): TransactItem {
  const entries = Object.entries(deltas);
  return {
    Update: {
      TableName: tableName(),
      Key: countersKey(tenantId),
      UpdateExpression: `ADD ${entries.map((_, index) => `#counter${index} :delta${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(
        entries.map(([name], index) => [`#counter${index}`, name]),
      ),
      ExpressionAttributeValues: Object.fromEntries(
        entries.map(([, delta], index) => [`:delta${index}`, delta]),
      ),
    },
  };
}

/** The tenant's counters (strongly consistent); a counter never written reads as absent. */
export async function readCounters(tenantId: string): Promise<Record<string, number>> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: countersKey(tenantId), ConsistentRead: true }),
  );
  return (Item ?? {}) as Record<string, number>;
}

/** The sum of the named counters. */
export const sumCounters = (counters: Record<string, number>, names: string[]): number =>
  names.reduce((sum, name) => sum + (typeof counters[name] === 'number' ? counters[name] : 0), 0);
