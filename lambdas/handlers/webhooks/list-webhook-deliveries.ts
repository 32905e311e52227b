import { listWebhookDeliveries } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(
  webhookOperations.listWebhookDeliveries,
  async ({ principal, path, query }) => ({
    body: await listWebhookDeliveries(principal.tenantId, path.webhookId, query),
  }),
);
