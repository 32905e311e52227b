import { replayDeadLetters } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.replayWebhookDeadLetters, async ({ principal, path }) => ({
  body: await replayDeadLetters(principal.tenantId, path.webhookId),
}));
