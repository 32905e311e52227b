import { deleteWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.deleteWebhook, async ({ principal, path }) => {
  await deleteWebhook(principal.tenantId, path.webhookId);
  return {};
});
