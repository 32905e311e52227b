import { updateWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.updateWebhook, async ({ principal, path, body }) => ({
  body: await updateWebhook(principal.tenantId, path.webhookId, body),
}));
