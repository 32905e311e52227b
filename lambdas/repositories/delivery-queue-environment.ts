/**
 * The environment variables of the webhook delivery queue (`delivery-queue.ts`), in a module of
 * their own: `lib/` and local mode name them before the table's client may be created, and
 * importing the queue itself would create it (through local mode's table queue) too early.
 */
export const WEBHOOK_QUEUE_URL_ENVIRONMENT = 'WEBHOOK_QUEUE_URL';
export const LOCAL_DELIVERY_QUEUE_ENVIRONMENT = 'LOCAL_DELIVERY_QUEUE';
