/**
 * The tenant's counters item: exact list totals (`categoryCount_active`, `objectCount_inactive`,
 * ...), moved in the same transaction as the write they count, so a page's `total` is one
 * GetItem instead of a count over the whole list. It also holds the set of subcategories whose
 * data is being removed in the background, which every object read must hide.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { countersKey } from './tenant-keys.js';
import type { TransactItem } from './transactions.js';

const REMOVING_SUBCATEGORIES = 'removingSubcategories';

/**
 * Transaction item that adds each delta to its counter (counters start at 0), and optionally
 * marks a subcategory as being removed (an item may appear only once per transaction, so both
 * travel in one update).
 */
export function adjustCountersItem(
  tenantId: string,
  deltas: Record<string, number>,
  options: { markRemovingSubcategory?: string } = {},
): TransactItem {
  const entries = Object.entries(deltas);
  const additions = entries.map((_, index) => `#counter${index} :delta${index}`);
  const names: Record<string, string> = Object.fromEntries(
    entries.map(([name], index) => [`#counter${index}`, name]),
  );
  const values: Record<string, unknown> = Object.fromEntries(
    entries.map(([, delta], index) => [`:delta${index}`, delta]),
  );
  if (options.markRemovingSubcategory) {
    additions.push('#removing :removing');
    names['#removing'] = REMOVING_SUBCATEGORIES;
    values[':removing'] = new Set([options.markRemovingSubcategory]);
  }
  return {
    Update: {
      TableName: tableName(),
      Key: countersKey(tenantId),
      UpdateExpression: `ADD ${additions.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Ends the removal mark of a subcategory once its data is gone. */
export async function clearRemovingSubcategory(tenantId: string, subcategoryId: string): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: countersKey(tenantId),
      UpdateExpression: 'DELETE #removing :removing',
      ExpressionAttributeNames: { '#removing': REMOVING_SUBCATEGORIES },
      ExpressionAttributeValues: { ':removing': new Set([subcategoryId]) },
    }),
  );
}

/** The tenant's counters (strongly consistent); a counter never written reads as absent. */
export async function readCounters(tenantId: string): Promise<Record<string, unknown>> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: countersKey(tenantId), ConsistentRead: true }),
  );
  return Item ?? {};
}

/** Subcategories whose data is being removed (hidden from every read meanwhile). */
export const removingSubcategoriesOf = (counters: Record<string, unknown>): ReadonlySet<string> =>
  (counters[REMOVING_SUBCATEGORIES] as Set<string> | undefined) ?? new Set<string>();

/** The sum of the named counters. */
export const sumCounters = (counters: Record<string, unknown>, names: string[]): number =>
  names.reduce((sum, name) => {
    const value = counters[name];
    return sum + (typeof value === 'number' ? value : 0);
  }, 0);
