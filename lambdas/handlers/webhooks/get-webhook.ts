import { getWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getWebhook, async ({ principal, path }) => ({
  body: await getWebhook(principal.tenantId, path.webhookId),
}));
