import { rotateWebhookSecret } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.rotateWebhookSecret, async ({ principal, path }) => ({
  body: await rotateWebhookSecret(principal.tenantId, path.webhookId),
}));
