import { listWebhooks } from '#domain/webhooks/webhook-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listWebhooks, async ({ principal, query }) => ({
  body: await listWebhooks(principal.tenantId, query),
}));
