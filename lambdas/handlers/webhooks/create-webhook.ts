import { createWebhook } from '#domain/webhooks/webhook-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(webhookOperations.createWebhook, async ({ principal, body, event }) => {
  const webhook = await createWebhook(principal.tenantId, body);
  return { body: webhook, headers: { Location: resourceLocation(event, `/v2/webhooks/${webhook.id}`) } };
});
