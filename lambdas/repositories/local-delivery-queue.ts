/**
 * Local mode's stand-in for the SQS FIFO queue: messages are items of one partition of the
 * table (`localQueueMessageKeys`), so they survive a restart of `npm start` with the rest of the
 * data. Same semantics as a FIFO queue where it matters: messages of a lane (message group) are
 * handed out one at a time in the order sent, a delayed message holds back its lane, and a
 * message stays until it is deleted. `local/webhook-delivery-worker.ts` receives from it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { QueuedDelivery } from './delivery-message.js';
import { queryAllPages } from './query-pages.js';
import { localQueueMessageKeys } from './table-keys.js';

const QUEUE_PARTITION = localQueueMessageKeys.partition({});

export interface LocalQueueMessage {
  /** The receipt handle: the item's sort key. */
  receiptHandle: string;
  lane: string;
  body: string;
  /** Epoch milliseconds from which it may be received. */
  visibleAt: number;
  receiveCount: number;
}

let sentCounter = 0;

/** Appends messages, in order: their sort keys keep that order, so they are written side by side. */
export async function sendLocalMessages(deliveries: readonly QueuedDelivery[]): Promise<void> {
  const sentAt = new Date().toISOString();
  const writes = deliveries.map((delivery) => {
    sentCounter = (sentCounter + 1) % 1_000_000;
    const receiptHandle = localQueueMessageKeys.sortKey({
      sentAt,
      counter: String(sentCounter).padStart(6, '0'),
      deduplicationId: delivery.deduplicationId,
    });
    return dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: QUEUE_PARTITION,
          sk: receiptHandle,
          entity: localQueueMessageKeys.entity,
          lane: delivery.lane,
          body: JSON.stringify(delivery.message),
          visibleAt: 0,
          receiveCount: 0,
        },
      }),
    );
  });
  await Promise.all(writes);
}

/** Every message, oldest first. */
export async function listLocalMessages(): Promise<LocalQueueMessage[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': QUEUE_PARTITION },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    receiptHandle: item.sk as string,
    lane: item.lane as string,
    body: item.body as string,
    visibleAt: item.visibleAt as number,
    receiveCount: item.receiveCount as number,
  }));
}

/** Hides a message for `delaySeconds` (a retry's backoff, or a crashed attempt's timeout). */
export async function delayLocalMessage(receiptHandle: string, delaySeconds: number): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: QUEUE_PARTITION, sk: receiptHandle },
      UpdateExpression: 'SET visibleAt = :at, receiveCount = receiveCount + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': Date.now() + delaySeconds * 1000, ':one': 1 },
    }),
  );
}

/** Removes a message that was handled. */
export async function deleteLocalMessage(receiptHandle: string): Promise<void> {
  await dynamoDb.send(
    new DeleteCommand({ TableName: tableName(), Key: { pk: QUEUE_PARTITION, sk: receiptHandle } }),
  );
}
