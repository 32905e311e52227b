/**
 * The log's transactional outbox: every ledger event's own transaction also writes an outbox
 * item (one more item in the same TransactWriteItems, not one more call), so an event is
 * committed if and only if it waits in the outbox. The sequencer reads the outbox in commit
 * order (timestamp first), integrates the events into the log, then deletes their items.
 * Four partitions spread the writes; the sequencer reads all four.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { OutboxEntry } from './ledger-store.js';
import { logOutboxKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

const OUTBOX_SHARD_COUNT = 4;

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

/** The outbox item of an event, for the event's own transaction. */
export function outboxItem(event: {
  chainId: string;
  sequence: number;
  hash: string;
  timestamp: string;
}): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...logOutboxKeys.key({
          shard: String(shardOf(event.chainId)),
          timestamp: event.timestamp,
          chainId: event.chainId,
          sequence: String(event.sequence).padStart(10, '0'),
        }),
        entity: logOutboxKeys.entity,
        chainId: event.chainId,
        sequence: event.sequence,
        hash: event.hash,
      },
    },
  };
}

/** Up to `limit` waiting events, oldest first (by timestamp, then chain and sequence). */
export async function readOutbox(limit: number): Promise<OutboxEntry[]> {
  const shards = await Promise.all(
    Array.from({ length: OUTBOX_SHARD_COUNT }, async (_, shard) => {
      const { Items = [] } = await dynamoDb.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': outboxPartition(shard) },
          ConsistentRead: true,
          Limit: limit,
        }),
      );
      return Items;
    }),
  );
  return shards
    .flat()
    .map((item) => ({
      pk: item.pk as string,
      sk: item.sk as string,
      chainId: item.chainId as string,
      sequence: item.sequence as number,
      hash: item.hash as string,
    }))
    .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : a.pk < b.pk ? -1 : 1))
    .slice(0, limit);
}
