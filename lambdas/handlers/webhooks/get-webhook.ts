import { getWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.getWebhook, async ({ principal, path }) => ({
  body: await getWebhook(principal.tenantId, path.webhookId),
}));
