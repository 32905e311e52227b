import { listWebhookDeliveries } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listWebhookDeadLetters, async ({ principal, path, query }) => ({
  body: await listWebhookDeliveries(principal.tenantId, path.webhookId, query, true),
}));
