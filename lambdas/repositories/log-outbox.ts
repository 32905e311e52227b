/**
 * The log's transactional outbox: every ledger event's own transaction also writes an outbox
 * item (one more item in the same TransactWriteItems, not one more call), so an event is
 * committed if and only if it waits in the outbox. The sequencer reads the outbox in commit
 * fairly across companies (`fair-outbox.ts`), integrates the events into the log, then deletes
 * their items. Four partitions spread the writes (by chain); within each, a company's items are
 * one key range, in commit order. Items written before the ranges (their key starts with the
 * timestamp) read as companies of their own, and are integrated all the same.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { fairOutboxReader, type OutboxPage } from './fair-outbox.js';
import { chainRefOf } from './ledger-store.js';
import { logOutboxKeys } from './table-keys.js';
import { type TransactItem, writeInTransactions } from './transactions.js';

export const OUTBOX_SHARD_COUNT = 4;

const shardOf = (chainId: string) =>
  createHash('sha256').update(chainId).digest().readUInt16BE(0) % OUTBOX_SHARD_COUNT;

/** An outbox shard's partition; `lib/ledger-log.ts` grants the sequencer `outboxPartition('*')`. */
export const outboxPartition = (shard: number | string): string =>
  logOutboxKeys.partition({ shard: String(shard) });

/**
 * The table stream records that start the sequencer: the insert of an outbox item (a Lambda
 * event filter pattern). `lib/ledger-log.ts` puts it on the event source mapping and local mode's
 * stream reader (`local/table-stream.ts`) applies the same pattern.
 */
export const OUTBOX_INSERT_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { Keys: { pk: { S: [{ prefix: outboxPartition('') }] } } },
} as const;

interface OutboxEvent {
  chainId: string;
  sequence: number;
  hash: string;
  timestamp: string;
}

/** The key of an event's outbox item: its chain's shard, then its company's range in commit order. */
export function outboxKeyOf(event: OutboxEvent): { pk: string; sk: string } {
  return logOutboxKeys.key({
    tenantId: chainRefOf(event.chainId).tenantId,
    shard: String(shardOf(event.chainId)),
    timestamp: event.timestamp,
    chainId: event.chainId,
    sequence: String(event.sequence).padStart(10, '0'),
  });
}

/** The outbox item of an event, for the event's own transaction. */
export function outboxItem(event: OutboxEvent): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...outboxKeyOf(event),
        entity: logOutboxKeys.entity,
        chainId: event.chainId,
        sequence: event.sequence,
        hash: event.hash,
      },
    },
  };
}

/** Up to `limit` items of a shard in key order, after `after`: consistent, as the drain requires. */
async function readOutboxPage(shard: number, after: string | undefined, limit: number): Promise<OutboxPage> {
  const { Items = [], LastEvaluatedKey } = await dynamoDb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: {
        ':pk': outboxPartition(shard),
        ...(after === undefined ? {} : { ':after': after }),
      },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return {
    entries: Items.map((item) => ({
      pk: item.pk as string,
      sk: item.sk as string,
      chainId: item.chainId as string,
      sequence: item.sequence as number,
      hash: item.hash as string,
    })),
    last: LastEvaluatedKey === undefined,
  };
}

/** The next batch of waiting events, up to `limit`, chosen fairly across companies. */
/** Deletes integrated events' outbox items (again when redone: deleting a deleted item is no error). */
export const removeOutboxItems = (keys: readonly { pk: string; sk: string }[]): Promise<void> =>
  writeInTransactions(keys.map((Key) => ({ Delete: { TableName: tableName(), Key } })));

export const readOutbox = fairOutboxReader({ shardCount: OUTBOX_SHARD_COUNT, readPage: readOutboxPage });
