/**
 * The queue between the publisher and the delivery function. In AWS: an SQS FIFO queue
 * (`WEBHOOK_QUEUE_URL`, with a dead-letter queue) whose message groups are delivery lanes, so
 * that a lane holds back its later messages while one is waiting for a retry: events reach a
 * receiver in order per object. Locally (`LOCAL_DELIVERY_QUEUE=table`) the same messages go to a
 * queue kept in the table (`local-delivery-queue.ts`), which survives a restart of `npm start`.
 */
import { createHash } from 'node:crypto';
import { callJson, SQS } from '#shared/aws-json-requests.js';
import type { QueuedDelivery } from './delivery-message.js';
import {
  LOCAL_DELIVERY_QUEUE_ENVIRONMENT,
  WEBHOOK_QUEUE_URL_ENVIRONMENT,
} from './delivery-queue-environment.js';
// Imported at the top although only local mode uses it: it is 1 KB, while a dynamic import made
// esbuild keep the whole DynamoDB client (45 KB) for the document client commands it imports.
import { delayLocalMessage, sendLocalMessages } from './local-delivery-queue.js';

/**
 * Lanes per subscription: events of one object always share a lane (in order), and a receiver
 * that is slow or failing holds at most this many deliveries in flight at once.
 */
export const LANES_PER_WEBHOOK = 8;

/** The lane of an entity's deliveries to a subscription. */
export function laneOf(webhookId: string, entityId: string): string {
  const lane = createHash('sha256').update(entityId).digest().readUInt16BE(0) % LANES_PER_WEBHOOK;
  return `${webhookId}#${lane}`;
}

/** SQS takes at most 10 messages per batch. */
const MESSAGES_PER_BATCH = 10;

const useLocalQueue = () => process.env[LOCAL_DELIVERY_QUEUE_ENVIRONMENT] === 'table';

function queueUrl(): string {
  const url = process.env[WEBHOOK_QUEUE_URL_ENVIRONMENT];
  if (!url) throw new Error(`${WEBHOOK_QUEUE_URL_ENVIRONMENT} is not set`);
  return url;
}

/** Sends the messages in order (a lane's order is the order given). */
export async function enqueueDeliveries(deliveries: readonly QueuedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  if (useLocalQueue()) return sendLocalMessages(deliveries);
  for (let start = 0; start < deliveries.length; start += MESSAGES_PER_BATCH) {
    const batch = deliveries.slice(start, start + MESSAGES_PER_BATCH);
    const result = await callJson<{ Failed?: Array<{ Code?: string }> }>(SQS, 'SendMessageBatch', {
      QueueUrl: queueUrl(),
      Entries: batch.map((delivery, index) => ({
        Id: String(index),
        MessageBody: JSON.stringify(delivery.message),
        MessageDeduplicationId: delivery.deduplicationId,
        MessageGroupId: delivery.lane,
      })),
    });
    if ((result.Failed ?? []).length > 0) {
      throw new Error(`SQS refused ${result.Failed?.length} deliveries: ${result.Failed?.[0]?.Code}`);
    }
  }
}

/**
 * Makes a received message visible again only after `delaySeconds` (the retry's backoff); its
 * lane waits meanwhile. The caller then reports the message as failed.
 */
export async function retryMessageLater(receiptHandle: string, delaySeconds: number): Promise<void> {
  if (useLocalQueue()) return delayLocalMessage(receiptHandle, delaySeconds);
  await callJson(SQS, 'ChangeMessageVisibility', {
    QueueUrl: queueUrl(),
    ReceiptHandle: receiptHandle,
    VisibilityTimeout: Math.ceil(delaySeconds),
  });
}
