/**
 * The messages of the webhook delivery queue (deliveries, and the fan-out of events), in a module of their own so that both queues, SQS
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

/**
 * What a queue message asks for instead: one company's committed events (in commit order) to be
 * fanned out to its subscriptions. The publisher hands each company's events to a lane of that
 * company's own, so that one company's backlog never holds back another's fan-out.
 */
export interface FanOutMessage {
  kind: 'fan-out';
  companyId: string;
  events: Array<{ chainId: string; sequence: number }>;
}

export type QueueMessage = DeliveryMessage | FanOutMessage;

export const isFanOut = (message: QueueMessage): message is FanOutMessage =>
  (message as FanOutMessage).kind === 'fan-out';

export interface QueuedDelivery {
  message: QueueMessage;
  /** The lane (FIFO message group): `<webhookId>#<n>`, n from the object's id; `fan-out#<companyId>`. */
  lane: string;
  /** Equal ids sent within 5 minutes are one message (SQS FIFO de-duplication). */
  deduplicationId: string;
}
