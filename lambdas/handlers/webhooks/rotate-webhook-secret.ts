import { rotateWebhookSecret } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.rotateWebhookSecret, async ({ principal, path }) => ({
  body: await rotateWebhookSecret(principal.tenantId, path.webhookId),
}));
