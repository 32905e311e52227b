import { deleteWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.deleteWebhook, async ({ principal, path }) => {
  await deleteWebhook(principal.tenantId, path.webhookId);
  return {};
});
