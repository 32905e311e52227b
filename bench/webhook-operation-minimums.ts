/** The fewest DynamoDB calls of the webhook operations (see `operation-minimums.ts`). */
import type { webhookOperations } from '../lambdas/operations/webhooks';
import type { MeasuredOperationId, StatedMinimum } from './operation-minimums';

/** The webhook operations measured by the bench: each has its minimum here. */
export type WebhookCaseKey = Extract<MeasuredOperationId, keyof typeof webhookOperations>;

export const webhookOperationMinimums: Record<WebhookCaseKey, StatedMinimum> = {
  listWebhooks: {
    calls: 1,
    reason: "one Query of the company's subscriptions partition (page and total from it)",
  },
  createWebhook: {
    calls: 1,
    reason: 'one conditional PutItem (the secret is sealed in memory locally, by KMS in AWS)',
  },
  getWebhook: { calls: 1, reason: 'one GetItem' },
  updateWebhook: { calls: 2, reason: 'GetItem (version) + one conditional PutItem' },
  deleteWebhook: {
    calls: 1,
    reason: 'one conditional DeleteItem',
    excess: 'a GetItem first, so that an unknown id responds 404 and a raced change 409',
  },
  rotateWebhookSecret: {
    calls: 2,
    reason: 'GetItem (the current secret moves to previous) + one conditional PutItem',
  },
  listWebhookDeliveries: {
    calls: 2,
    reason: 'GetItem of the subscription (404) + Query of the window',
    excess: 'a COUNT Query of the partition for the total (no counter kept per subscription)',
  },
  retryWebhookDelivery: {
    calls: 3,
    reason:
      'GetItem of the subscription + GetItem of the delivery, + in local mode the queue message (a PutItem; SQS SendMessage in AWS)',
  },
  listWebhookDeadLetters: {
    calls: 2,
    reason: 'GetItem of the subscription (404) + Query of the window',
    excess: 'a COUNT Query of the partition for the total',
  },
  replayWebhookDeadLetters: {
    calls: 2,
    reason:
      'GetItem of the subscription (active again if failing) + Query of the dead letters; + 2 writes per dead letter',
    excess: 'a COUNT Query for how many remain',
  },
};
