import { replayDeadLetters } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { webhookOperations } from '../../operations/webhooks.js';

export const handler = httpHandler(
  webhookOperations.replayWebhookDeadLetters,
  async ({ principal, path }) => ({
    body: await replayDeadLetters(principal.tenantId, path.webhookId),
  }),
);
