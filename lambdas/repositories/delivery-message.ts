/**
 * The messages of the webhook delivery queue, in a module of their own so that both queues, SQS
 * (`delivery-queue.ts`) and local mode's table queue (`local-delivery-queue.ts`), read them
 * without importing each other.
 */

/** What a queue message asks for: one delivery to be attempted. */
export interface DeliveryMessage {
  companyId: string;
  webhookId: string;
  deliveryId: string;
  /** A retry asked for through the API: one attempt, sent even if an earlier one succeeded. */
  manual?: boolean;
}

export interface QueuedDelivery {
  message: DeliveryMessage;
  /** The lane (FIFO message group): `<webhookId>#<n>`, n from the object's id. */
  lane: string;
  /** Equal ids sent within 5 minutes are one message (SQS FIFO de-duplication). */
  deduplicationId: string;
}
