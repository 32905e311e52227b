/**
 * Where the ledger lives in DynamoDB (keys: `ledgerEventKeys`, `ledgerHeadKeys`). Event items
 * sit in a partition of their chain, one per sequence number, written only with
 * `attribute_not_exists` (append-only; the functions' roles may not update or delete them).
 * Each chain also has a head item in one of a few shared partitions, which the ledger tools
 * read (audit, export): the one place the ledger crosses tenants, and it holds only ids,
 * counts and hashes.
 */

import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { batchGetItems } from './batch-get.js';
import { LEDGER_EVENT_ENTITY, type LedgerEvent, ledgerEventEntity } from './ledger-event-entity.js';
import { type ChainHead, type ChainRef, chainIdOf, chainRefOf } from './ledger-store.js';
import { outboxItem } from './log-outbox.js';
import { queryAllPages } from './query-pages.js';
import { ledgerEventKeys, ledgerHeadKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

/** Shards of the heads index; enough to spread writes, few enough to read in one go. */
const HEAD_SHARD_COUNT = 16;

// `cli/ledger.ts` reads chains with these.
export { chainRefOf };

/** The start of every ledger partition of a tenant; `lib/ledger-protection.ts` guards `ledgerPartitionPrefix('*')*`. */
export const ledgerPartitionPrefix = (tenantId: string): string =>
  ledgerEventKeys.partitionPrefix({ tenantId });

const chainPartition = (chain: ChainRef) => ledgerEventKeys.partition(chain);
/** Sequence numbers are written with 10 digits. */
const MAX_SEQUENCE = 9_999_999_999;
const sequenceText = (sequence: number) => String(sequence).padStart(10, '0');
const eventSortKey = (sequence: number) => ledgerEventKeys.sortKey({ sequence: sequenceText(sequence) });

function headKey(chainId: string) {
  const shard = createHash('sha256').update(chainId).digest().readUInt16BE(0) % HEAD_SHARD_COUNT;
  return ledgerHeadKeys.key({ shard: String(shard), chainId });
}

export { LEDGER_EVENT_ENTITY };

const toEventItem = (chain: ChainRef, event: LedgerEvent): Record<string, unknown> => ({
  ...ledgerEventKeys.key({ ...chain, sequence: sequenceText(event.sequence) }),
  ...ledgerEventKeys.indexKeys({
    ...chain,
    timestamp: event.timestamp,
    sequence: sequenceText(event.sequence),
    action: event.action,
  }),
  ...ledgerEventEntity.toItem(event),
});

/** Reads an event item back into the exact body that was hashed (plus the stored hash). */
export const fromEventItem = (item: Record<string, unknown>): LedgerEvent => ledgerEventEntity.fromItem(item);

/**
 * The transaction items that append `event` to its chain: the event itself (never
 * overwriting) and the chain head, conditioned on the head still being where the event's
 * `prevHash` says it is, and the event's outbox item for the log's sequencer. Goes into the
 * same transaction as the entity's own write.
 */
export function appendEventItems(chain: ChainRef, event: LedgerEvent): TransactItem[] {
  const table = tableName();
  const chainId = chainIdOf(chain);
  return [
    {
      Put: {
        TableName: table,
        Item: toEventItem(chain, event),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: table,
        Item: {
          ...headKey(chainId),
          entity: ledgerHeadKeys.entity,
          chainId,
          eventCount: event.sequence,
          lastHash: event.hash,
        },
        ConditionExpression: event.sequence === 1 ? 'attribute_not_exists(pk)' : 'lastHash = :prevHash',
        ExpressionAttributeValues: event.sequence === 1 ? undefined : { ':prevHash': event.prevHash },
      },
    },
    outboxItem(event),
  ];
}

/** A window of a chain's events, oldest first. */
export async function listChainEvents(
  chain: ChainRef,
  offset: number,
  limit: number,
): Promise<LedgerEvent[]> {
  // Sequence numbers are dense from 1, so the window starts at a known sort key: no skipping.
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': chainPartition(chain),
      ':from': eventSortKey(offset + 1),
      ':to': eventSortKey(Math.min(offset + limit, MAX_SEQUENCE)),
    },
    ConsistentRead: true,
  });
  return items.map(fromEventItem);
}

/** Events read per Query while replaying a chain up to an instant (one page past it at most). */
const REPLAY_PAGE_SIZE = 100;

/**
 * A chain's events from its first up to `lastSequence`, oldest first, stopping before the first
 * event stamped after `until` (when given): Query pages of {@link REPLAY_PAGE_SIZE}.
 */
export async function readChainUpTo(
  chain: ChainRef,
  lastSequence: number,
  until?: string,
): Promise<LedgerEvent[]> {
  return (await readChainUntil(chain, lastSequence, until)).events;
}

/**
 * As {@link readChainUpTo}, and the first event stamped after `until` (`next`), when the pages
 * read hold it: the event that ended the state at `until` (an as-of export's proof that nothing
 * happened in between). Reads one page more only when `until` falls on a page's last event.
 */
export async function readChainUntil(
  chain: ChainRef,
  lastSequence: number,
  until?: string,
): Promise<{ events: LedgerEvent[]; next?: LedgerEvent }> {
  const events: LedgerEvent[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': chainPartition(chain),
          ':from': eventSortKey(1),
          ':to': eventSortKey(Math.min(Math.max(lastSequence, 1), MAX_SEQUENCE)),
        },
        ExclusiveStartKey: exclusiveStartKey,
        Limit: REPLAY_PAGE_SIZE,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      const event = fromEventItem(item);
      if (until !== undefined && event.timestamp > until) return { events, next: event };
      events.push(event);
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return { events };
}

/**
 * The sequence of a chain's first event stamped at or after `since` (`direction: 'from'`), or
 * of its last event stamped before `until` (`'before'`); undefined when there is none. One
 * Query of one item on the chain's time index (`gsi1`), whatever the chain's length.
 */
export async function chainSequenceAt(
  chain: ChainRef,
  instant: string,
  direction: 'from' | 'before',
): Promise<number | undefined> {
  // `#` sorts before every digit: `<instant>#` is below every sort key of that instant.
  const bound = ledgerEventKeys.indexKeys({ ...chain, timestamp: instant, sequence: '', action: '' }, [
    'gsi1',
  ]).gsi1sk;
  const { Items } = await dynamoDb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression:
        direction === 'from' ? 'gsi1pk = :pk AND gsi1sk >= :bound' : 'gsi1pk = :pk AND gsi1sk < :bound',
      ExpressionAttributeValues: { ':pk': ledgerEventKeys.indexPartition('gsi1', chain), ':bound': bound },
      ScanIndexForward: direction === 'from',
      ProjectionExpression: '#sequence',
      ExpressionAttributeNames: { '#sequence': 'sequence' },
      Limit: 1,
    }),
  );
  const item = Items?.[0];
  return item ? Number(item.sequence) : undefined;
}

/** Every event of a chain, oldest first, read straight from the table (for verification). */
export async function readWholeChain(chain: ChainRef): Promise<LedgerEvent[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :event)',
    ExpressionAttributeValues: { ':pk': chainPartition(chain), ':event': ledgerEventKeys.sortKeyPrefix() },
    ConsistentRead: true,
  });
  return items.map(fromEventItem);
}

/** One event by its sequence number. */
export async function findChainEvent(chain: ChainRef, sequence: number): Promise<LedgerEvent | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: ledgerEventKeys.key({ ...chain, sequence: sequenceText(sequence) }),
      ConsistentRead: true,
    }),
  );
  return Item ? fromEventItem(Item) : undefined;
}

/** Events by chain and sequence (undefined where there is none), in BatchGetItem calls of 100. */
export async function findChainEvents(
  events: readonly { chain: ChainRef; sequence: number }[],
): Promise<(LedgerEvent | undefined)[]> {
  const items = await batchGetItems(
    events.map(({ chain, sequence }) => ledgerEventKeys.key({ ...chain, sequence: sequenceText(sequence) })),
  );
  return items.map((item) => (item ? fromEventItem(item) : undefined));
}

/** Every chain head of the ledger, sorted by chain id (the digest's leaf order). */
export async function listAllChainHeads(): Promise<ChainHead[]> {
  const shards = await Promise.all(
    Array.from({ length: HEAD_SHARD_COUNT }, (_, shard) =>
      queryAllPages({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': ledgerHeadKeys.partition({ shard: String(shard) }) },
        ConsistentRead: true,
      }),
    ),
  );
  return shards
    .flat()
    .map((item) => ({
      chainId: item.chainId as string,
      eventCount: item.eventCount as number,
      lastHash: item.lastHash as string,
    }))
    .sort((a, b) => (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : 0));
}
