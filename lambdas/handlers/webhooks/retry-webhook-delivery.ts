import { retryDelivery } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.retryWebhookDelivery, async ({ principal, path }) => ({
  body: await retryDelivery(principal.tenantId, path.webhookId, path.deliveryId),
}));
