/**
 * Response schemas of the webhook operations: the views' (`lambdas/domain/webhooks/webhook-view.ts`,
 * declared from the entities), their pages and the replay's response.
 */
import {
  createdWebhookView,
  deliveryAttemptView,
  deliveryView,
  rotatedSecretView,
  webhookView,
} from '#domain/webhooks/webhook-view.js';
import type { JsonSchema } from '#shared/schema.js';
import { closed, pageOf } from './schema-shapes.js';

export const webhookResponseSchemas = {
  Webhook: webhookView.jsonSchema,
  WebhookCreated: createdWebhookView.jsonSchema,
  WebhookPage: pageOf('Webhook', "Extension: a page of the company's webhooks, newest first"),
  WebhookSecretRotated: rotatedSecretView.jsonSchema,
  WebhookDeliveryAttempt: deliveryAttemptView.jsonSchema,
  WebhookDelivery: deliveryView.jsonSchema,
  WebhookDeliveryPage: pageOf('WebhookDelivery', 'Extension: a page of deliveries, newest first'),
  WebhookReplay: closed(
    {
      replayed: {
        type: 'integer',
        minimum: 0,
        description: 'dead letters queued again (at most 500 a call)',
      },
      remaining: { type: 'integer', minimum: 0, description: 'dead letters left for a next call' },
    },
    'Extension: the dead letters queued again',
  ),
} satisfies Record<string, JsonSchema>;

export type WebhookResponseSchemaName = keyof typeof webhookResponseSchemas;
