/**
 * The delivery function: each queue message is one company's events to fan out
 * (`processFanOut`, which queues their deliveries) or one delivery attempt (`processDelivery`). A
 * delivery to retry is hidden for its backoff (`retryMessageLater`) and reported as failed,
 * which keeps it, and its lane behind it, in the queue. In AWS an SQS FIFO event source mapping
 * calls it with one message at a time (a slow receiver then holds up only its own lane); locally
 * `local/webhook-delivery-worker.ts` calls it the same way.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processDelivery, processFanOut } from '#domain/webhooks/webhook-deliveries.js';
import { isFanOut, type QueueMessage } from '#repositories/delivery-message.js';
import { retryMessageLater } from '#repositories/delivery-queue.js';
import { logger, metrics } from '#shared/observability.js';

/** Metric names of the delivery error-rate alarm (`lib/webhook-delivery.ts`). */
export const DELIVERY_METRICS = {
  attempts: 'WebhookDeliveryAttempts',
  failures: 'WebhookDeliveryFailures',
} as const;

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const heldLanes = new Set<string>();
  for (const record of event.Records) {
    const lane = record.attributes?.MessageGroupId ?? record.messageId;
    // A lane keeps its order: after a failure, its later messages wait for the next round.
    if (heldLanes.has(lane)) {
      failures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      const message = JSON.parse(record.body) as QueueMessage;
      if (isFanOut(message)) {
        await processFanOut(message);
        continue;
      }
      const result = await processDelivery(message);
      metrics.addMetric(DELIVERY_METRICS.attempts, 'Count', 1);
      if (result.outcome === 'retry') {
        metrics.addMetric(DELIVERY_METRICS.failures, 'Count', 1);
        await retryMessageLater(record.receiptHandle, result.delayMs / 1000);
        failures.push({ itemIdentifier: record.messageId });
        heldLanes.add(lane);
      }
    } catch (error) {
      logger.error('A webhook delivery could not be processed; the queue offers it again', {
        messageId: record.messageId,
        error,
      });
      failures.push({ itemIdentifier: record.messageId });
      heldLanes.add(lane);
    }
  }
  metrics.publishStoredMetrics();
  return { batchItemFailures: failures };
};
