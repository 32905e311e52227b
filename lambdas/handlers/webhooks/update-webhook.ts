import { updateWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.updateWebhook, async ({ principal, path, body }) => ({
  body: await updateWebhook(principal.tenantId, path.webhookId, body),
}));
