/**
 * Subscriptions and deliveries as the API shows them. Views show only the attributes the entity
 * does not hide, so a secret can never reach a response by accident.
 */
import {
  type DeliveryRecord,
  deliveryAttemptEntity,
  deliveryEntity,
  type WebhookRecord,
  webhookEntity,
} from '#repositories/webhook-entity.js';
import { computed, defineView, shownAs, type ViewOf, viewRef } from '#shared/entity.js';
import { arrayOf, dateTime, string } from '#shared/schema.js';

export const webhookView = defineView(webhookEntity, {
  name: 'Webhook',
  description: 'Extension: a webhook subscription (never its secret)',
  omit: ['previousSecretExpiresAt'],
});
export type WebhookView = ViewOf<typeof webhookView>;

/** A Standard Webhooks signing secret, `whsec_<base64>`. */
const signingSecret = computed(string({ pattern: /^whsec_[A-Za-z0-9+/]+={0,2}$/ }), {
  description: 'the Standard Webhooks signing secret; shown only in this response',
});

/** The creation response: the only time the secret is shown. */
export const createdWebhookView = defineView(webhookEntity, {
  name: 'WebhookCreated',
  description: 'Extension: the new subscription with its signing secret, shown this once',
  omit: ['previousSecretExpiresAt'],
  fields: { secret: signingSecret },
});
export type CreatedWebhookView = ViewOf<typeof createdWebhookView>;

/** The rotation's response: the new secret, and until when the previous one signs. */
export const rotatedSecretView = defineView(webhookEntity, {
  name: 'WebhookSecretRotated',
  description: 'Extension: the new signing secret, shown this once',
  omit: ['url', 'events', 'description', 'status', 'failingSince', 'createdAt', 'updatedAt'],
  fields: {
    secret: computed(signingSecret.schema, { description: signingSecret.description, after: 'id' }),
    // A rotation has just set it.
    previousSecretExpiresAt: shownAs('previousSecretExpiresAt', {
      schema: dateTime(),
      description: 'the old secret signs until then',
    }),
  },
});
export type RotatedSecretView = ViewOf<typeof rotatedSecretView>;

/** One delivery attempt, as the deliveries list shows it. */
export const deliveryAttemptView = defineView(deliveryAttemptEntity, {
  name: 'WebhookDeliveryAttempt',
  description: 'Extension: one attempt of a delivery',
});

/** A delivery (one event to one subscription), as the deliveries and dead-letter lists show it. */
export const deliveryView = defineView(deliveryEntity, {
  name: 'WebhookDelivery',
  description: 'Extension: one event to one webhook, with its attempts',
  fields: { attempts: computed(arrayOf(viewRef(deliveryAttemptView))) },
});
export type DeliveryView = ViewOf<typeof deliveryView>;

export const toWebhookView = (record: WebhookRecord): WebhookView => webhookView.toView(record);

export const toDeliveryView = (record: DeliveryRecord): DeliveryView =>
  deliveryView.toView(record, {
    attempts: record.attempts.map((attempt) => deliveryAttemptView.toView(attempt)),
  });
