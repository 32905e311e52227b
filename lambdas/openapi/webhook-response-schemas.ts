/**
 * Response schemas of the webhook operations, derived from the field declarations in
 * `lambdas/domain/webhooks/webhook-schemas.ts` that the views are built from.
 */
import {
  DELIVERY_ATTEMPT_FIELDS,
  DELIVERY_VIEW_FIELDS,
  WEBHOOK_VIEW_FIELDS,
} from '#domain/webhooks/webhook-schemas.js';
import type { JsonSchema } from '#shared/schema.js';
import { closed, pageOf } from './schema-shapes.js';

const secret: JsonSchema = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  description: 'the Standard Webhooks signing secret; shown only in this answer',
};

export const webhookResponseSchemas = {
  Webhook: closed(WEBHOOK_VIEW_FIELDS, 'Extension: a webhook subscription (never its secret)'),
  WebhookCreated: closed(
    { ...WEBHOOK_VIEW_FIELDS, secret },
    'Extension: the new subscription with its signing secret, shown this once',
  ),
  WebhookPage: pageOf('Webhook', "Extension: a page of the company's webhooks, newest first"),
  WebhookSecretRotated: closed(
    {
      id: { type: 'string', format: 'uuid' },
      secret,
      previousSecretExpiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'the old secret signs until then',
      },
    },
    'Extension: the new signing secret, shown this once',
  ),
  WebhookDeliveryAttempt: closed(DELIVERY_ATTEMPT_FIELDS, 'Extension: one attempt of a delivery'),
  WebhookDelivery: closed(DELIVERY_VIEW_FIELDS, 'Extension: one event to one webhook, with its attempts'),
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
