/**
 * SQS on the local AWS endpoint, for the calls the functions make on the webhook delivery queue
 * (the JSON protocol): `SendMessageBatch` appends to local mode's FIFO queue kept in the table
 * (`lambdas/repositories/local-delivery-queue.ts`: a lane per message group, kept across a
 * restart), and `ChangeMessageVisibility` holds a received message back. The queue's consumer is
 * local mode's event source mapping (`local/webhook-delivery-worker.ts`), which receives and
 * deletes as Lambda's poller does. SQS's five-minute de-duplication window is not emulated.
 */
import type { QueueMessage } from '../../lambdas/repositories/delivery-message.js';
import type { EmulatedRequest, ServiceEmulator } from '../iam/local-aws-endpoint.js';

type LocalQueue = typeof import('../../lambdas/repositories/local-delivery-queue.js');

interface SendEntry {
  Id: string;
  MessageBody: string;
  MessageGroupId: string;
  MessageDeduplicationId: string;
}

const response = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: Buffer.from(JSON.stringify(body)),
});

/** The emulator; the queue module is loaded on first use (its table client reads the environment). */
export function sqsEmulator(): ServiceEmulator {
  let queue: Promise<LocalQueue> | undefined;
  return async (request: EmulatedRequest) => {
    queue ??= import('../../lambdas/repositories/local-delivery-queue.js');
    const { sendLocalMessages, delayLocalMessage } = await queue;
    const operation = String(request.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
    const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
    if (operation === 'SendMessageBatch') {
      const entries = (body.Entries ?? []) as SendEntry[];
      await sendLocalMessages(
        entries.map((entry) => ({
          message: JSON.parse(entry.MessageBody) as QueueMessage,
          lane: entry.MessageGroupId,
          deduplicationId: entry.MessageDeduplicationId,
        })),
      );
      return response(200, {
        Successful: entries.map((entry, index) => ({
          Id: entry.Id,
          MessageId: `local-${Date.now()}-${index}`,
        })),
        Failed: [],
      });
    }
    if (operation === 'ChangeMessageVisibility') {
      await delayLocalMessage(String(body.ReceiptHandle), Number(body.VisibilityTimeout));
      return response(200, {});
    }
    return response(400, {
      __type: 'com.amazonaws.sqs#UnsupportedOperation',
      message: `Local SQS does not emulate ${operation}`,
    });
  };
}
