import { listWebhooks } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.listWebhooks, async ({ principal, query }) => ({
  body: await listWebhooks(principal.tenantId, query),
}));
