/**
 * Local mode's stand-in for the SQS FIFO queue: messages are items of the table, so they survive
 * a restart of `npm start` with the rest of the data. Same semantics as a FIFO queue where it
 * matters: messages of a lane (message group) are handed out one at a time in the order sent, a
 * delayed message holds back its lane, and a message stays until it is deleted.
 * `local/webhook-delivery-worker.ts` receives from it.
 *
 * Each company's messages are a partition of their own (`localQueueMessageKeys`), listed in the
 * queue's registry of companies (`localQueueCompanyKeys`), so that a look at one company's oldest
 * messages costs the same whether another company has ten messages queued or a hundred thousand.
 */

import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import type { QueuedDelivery } from './delivery-message.js';
import { queryAllPages } from './query-pages.js';
import { localQueueCompanyKeys, localQueueMessageKeys } from './table-keys.js';

export interface LocalQueueMessage {
  /** The receipt handle: names the company's partition and the item's sort key. */
  receiptHandle: string;
  companyId: string;
  lane: string;
  body: string;
  /** Epoch milliseconds from which it may be received. */
  visibleAt: number;
  receiveCount: number;
}

/** A company in the registry, as read: `sendId` tells whether messages were sent since. */
export interface QueuedCompany {
  companyId: string;
  sendId: string;
}

/** Messages a look reads from the table at once. */
const MESSAGES_PER_READ = 100;

const REGISTRY_PARTITION = localQueueCompanyKeys.partition({});

// The handle carries the company, so that the delivery function's `ChangeMessageVisibility`,
// which has only the handle, finds the partition.
const receiptHandleOf = (companyId: string, sortKey: string) => `${encodeURIComponent(companyId)}/${sortKey}`;

function messageKeyOf(receiptHandle: string): { pk: string; sk: string } {
  const slash = receiptHandle.indexOf('/');
  const companyId = decodeURIComponent(receiptHandle.slice(0, slash));
  return { pk: localQueueMessageKeys.partition({ companyId }), sk: receiptHandle.slice(slash + 1) };
}

let sentCounter = 0;

/**
 * Appends messages, in order: their sort keys keep that order, so they are written side by side.
 * Each company's registry entry is written after its messages, with a new `sendId`, so that a
 * worker that found the company's partition empty before they were written cannot take the
 * company off the registry (`forgetCompanyIfIdle`).
 */
export async function sendLocalMessages(deliveries: readonly QueuedDelivery[]): Promise<void> {
  const sentAt = new Date().toISOString();
  const writes = deliveries.map((delivery) => {
    sentCounter = (sentCounter + 1) % 1_000_000;
    const { companyId } = delivery.message;
    const key = localQueueMessageKeys.key({
      companyId,
      sentAt,
      counter: String(sentCounter).padStart(6, '0'),
      deduplicationId: delivery.deduplicationId,
    });
    return dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          entity: localQueueMessageKeys.entity,
          companyId,
          lane: delivery.lane,
          body: JSON.stringify(delivery.message),
          visibleAt: 0,
          receiveCount: 0,
        },
      }),
    );
  });
  await Promise.all(writes);
  const companies = new Set(deliveries.map((delivery) => delivery.message.companyId));
  await Promise.all(
    [...companies].map((companyId) =>
      dynamoDb.send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...localQueueCompanyKeys.key({ companyId }),
            entity: localQueueCompanyKeys.entity,
            companyId,
            sendId: randomUUID(),
          },
        }),
      ),
    ),
  );
}

/** The companies that may have messages queued. */
export async function listQueuedCompanies(): Promise<QueuedCompany[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': REGISTRY_PARTITION },
    ConsistentRead: true,
  });
  return items.map((item) => ({ companyId: item.companyId as string, sendId: item.sendId as string }));
}

/** A company's messages, oldest first, read from the table a page at a time as they are taken. */
export async function* companyMessages(companyId: string): AsyncGenerator<LocalQueueMessage> {
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': localQueueMessageKeys.partition({ companyId }) },
        ConsistentRead: true,
        Limit: MESSAGES_PER_READ,
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      yield {
        receiptHandle: receiptHandleOf(companyId, item.sk as string),
        companyId,
        lane: item.lane as string,
        body: item.body as string,
        visibleAt: item.visibleAt as number,
        receiveCount: item.receiveCount as number,
      };
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
}

/**
 * Takes a company whose partition was found empty off the registry, unless messages were sent
 * since the registry was read (its `sendId` moved on): those stay listed.
 */
export async function forgetCompanyIfIdle(company: QueuedCompany): Promise<void> {
  await conditionHeld(() =>
    dynamoDb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: localQueueCompanyKeys.key({ companyId: company.companyId }),
        ConditionExpression: 'sendId = :seen',
        ExpressionAttributeValues: { ':seen': company.sendId },
      }),
    ),
  );
}

/** Hides a message for `delaySeconds` (a retry's backoff, or a crashed attempt's timeout). */
export async function delayLocalMessage(receiptHandle: string, delaySeconds: number): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: messageKeyOf(receiptHandle),
      UpdateExpression: 'SET visibleAt = :at, receiveCount = receiveCount + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': Date.now() + delaySeconds * 1000, ':one': 1 },
    }),
  );
}

/** Removes a message that was handled. */
export async function deleteLocalMessage(receiptHandle: string): Promise<void> {
  await dynamoDb.send(new DeleteCommand({ TableName: tableName(), Key: messageKeyOf(receiptHandle) }));
}
