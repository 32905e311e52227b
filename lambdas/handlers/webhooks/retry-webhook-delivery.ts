import { retryDelivery } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.retryWebhookDelivery, async ({ principal, path }) => ({
  body: await retryDelivery(principal.tenantId, path.webhookId, path.deliveryId),
}));
