/**
 * A company's activity: every event of its chains in a time range, newest first, read from the
 * company's time index (`gsi2`, or `gsi3` for one action: `ledgerEventKeys`). A page is one
 * Query of the page's size (plus one item, to know whether more follow), whatever the number
 * of objects or events; the range is the index's sort key condition, not a filter.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { ItemKey } from '#shared/page-cursor.js';
import { indexKeyOf } from './index-query.js';
import type { LedgerEvent } from './ledger-event-entity.js';
import { fromEventItem } from './ledger-repository.js';
import { type ChainRef, chainRefOf } from './ledger-store.js';
import { ledgerEventKeys } from './table-keys.js';

export interface ActivityWindowRequest {
  companyId: string;
  /** Stored instants (ISO 8601 UTC with milliseconds): `since` inclusive, `until` exclusive. */
  since?: string;
  until?: string;
  action?: string;
  /** Events before the window, read and skipped unless `startAfter` is given. */
  offset: number;
  limit: number;
  startAfter?: ItemKey;
}

export interface ActivityWindow {
  events: Array<{ chain: ChainRef; event: LedgerEvent }>;
  /** Whether events follow the window. */
  more: boolean;
  /** The index key of the window's last event: where the next window's read starts. */
  lastKey?: ItemKey;
}

/** DynamoDB reads at most 1 MB per call; a deep offset is read in calls of this many items. */
const MAX_ITEMS_PER_CALL = 1000;

export async function readActivityWindow(request: ActivityWindowRequest): Promise<ActivityWindow> {
  const { companyId, since, until, action, limit, startAfter } = request;
  const index = action === undefined ? 'gsi2' : 'gsi3';
  const partition =
    action === undefined
      ? ledgerEventKeys.indexPartition('gsi2', { tenantId: companyId })
      : ledgerEventKeys.indexPartition('gsi3', { tenantId: companyId, action });
  // Every sort key is `<timestamp>#...`: `>= since` keeps that instant, and `< until` (or the
  // inclusive BETWEEN up to the bare `until`, which no key equals) leaves it out.
  const range =
    since !== undefined && until !== undefined
      ? ' AND #sk BETWEEN :since AND :until'
      : since !== undefined
        ? ' AND #sk >= :since'
        : until !== undefined
          ? ' AND #sk < :until'
          : '';
  const skip = startAfter ? 0 : request.offset;
  const wanted = skip + limit + 1;
  const items: Record<string, unknown>[] = [];
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'] = startAfter;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: `#pk = :pk${range}`,
        ExpressionAttributeNames: { '#pk': `${index}pk`, ...(range ? { '#sk': `${index}sk` } : {}) },
        ExpressionAttributeValues: {
          ':pk': partition,
          ...(since !== undefined ? { ':since': since } : {}),
          ...(until !== undefined ? { ':until': until } : {}),
        },
        ScanIndexForward: false,
        ExclusiveStartKey: exclusiveStartKey,
        Limit: Math.min(wanted - items.length, MAX_ITEMS_PER_CALL),
      }),
    );
    items.push(...(page.Items ?? []));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey && items.length < wanted);
  const window = items.slice(skip, skip + limit);
  const last = window.at(-1);
  return {
    events: window.map((item) => {
      const event = fromEventItem(item);
      return { chain: chainRefOf(event.chainId), event };
    }),
    more: items.length > skip + limit,
    lastKey: last ? indexKeyOf(index, last) : undefined,
  };
}
