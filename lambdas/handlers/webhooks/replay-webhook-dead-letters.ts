import { replayDeadLetters } from '#domain/webhooks/webhook-deliveries.js';
import { httpHandler } from '#shared/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.replayWebhookDeadLetters, async ({ principal, path }) => ({
  body: await replayDeadLetters(principal.tenantId, path.webhookId),
}));
