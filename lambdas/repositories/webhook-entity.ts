/**
 * Webhook subscriptions and their deliveries (extension): their attributes, written once, and
 * their item codecs. Their keys and indexes: `webhookKeys`, `deliveryKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { nameText } from '#shared/name-text.js';
import {
  arrayOf,
  boolean,
  dateTime,
  documented,
  integer,
  nullable,
  oneOf,
  string,
  writtenByService,
} from '#shared/schema.js';

/** Statuses a caller may set; `failing` is set by the service after 24 h of failed deliveries. */
export const SETTABLE_WEBHOOK_STATUSES = ['active', 'disabled'] as const;
const WEBHOOK_STATUSES = [...SETTABLE_WEBHOOK_STATUSES, 'failing'] as const;

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const URL_MAX_LENGTH = 2048;
const DESCRIPTION_MAX_LENGTH = 500;
const uuid = () => string({ format: 'uuid' });

export const webhookEntity = defineEntity('webhook', {
  id: attribute(uuid()),
  companyId: attribute(uuid(), { hidden: true }),
  /** Its shape only: where it leads is checked by the service, which resolves it. */
  url: attribute(documented(string({ min: 1, max: URL_MAX_LENGTH }), { format: 'uri' })),
  events: attribute(arrayOf(string())),
  description: attribute(nameText(string({ max: DESCRIPTION_MAX_LENGTH }))),
  status: attribute(oneOf(WEBHOOK_STATUSES)),
  failingSince: attribute(nullable(dateTime()), { missing: null, description: 'when it was marked failing' }),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  /** The signing secret, sealed (`lambdas/shared/secret-box.ts`). */
  sealedSecret: attribute(string(), { hidden: true }),
  /** The secret before the last rotation, sealed, while it still signs. */
  sealedPreviousSecret: attribute(nullable(string()), { hidden: true, missing: null }),
  // Shown only by the rotation's response.
  previousSecretExpiresAt: attribute(nullable(dateTime()), { missing: null }),
  version: attribute(integer({ min: 1 }), { hidden: true }),
});

export type WebhookRecord = RecordOf<typeof webhookEntity>;

/**
 * One attempt of a delivery. Kept in its delivery's `attempts` list, never as an item of its
 * own: only its attributes and their views are used.
 */
export const deliveryAttemptEntity = defineEntity('webhookDeliveryAttempt', {
  attemptedAt: attribute(dateTime()),
  statusCode: attribute(nullable(integer({})), {
    description: 'null when no response came (timeout, refused)',
  }),
  latencyMs: attribute(integer({ min: 0 })),
  response: attribute(string(), { description: 'the first 1 KB of the response body' }),
  error: attribute(nullable(string()), { description: 'why no response came' }),
  manual: attribute(boolean(), { description: 'sent by POST .../retry' }),
});

export type DeliveryAttempt = RecordOf<typeof deliveryAttemptEntity>;

/** One event to one subscription, with its attempts. */
export const deliveryEntity = defineEntity('webhookDelivery', {
  id: attribute(uuid(), { description: 'also the `webhook-id` header' }),
  companyId: attribute(uuid(), { hidden: true }),
  webhookId: attribute(uuid()),
  eventType: attribute(string()),
  entityId: attribute(string()),
  sequence: attribute(integer({ min: 1 })),
  /** The ledger event's chain id, which names the event with `sequence`. */
  chainId: attribute(string(), { hidden: true }),
  status: attribute(oneOf(DELIVERY_STATUSES)),
  createdAt: attribute(dateTime()),
  /** When the first automatic attempt was made; retries stop 24 h after it. */
  firstAttemptAt: attribute(nullable(dateTime()), { hidden: true }),
  nextAttemptAt: attribute(nullable(dateTime())),
  // Written by the service only; views show each attempt through its own view.
  attempts: attribute(writtenByService<DeliveryAttempt[]>({ type: 'array', items: { type: 'object' } })),
});

export type DeliveryRecord = RecordOf<typeof deliveryEntity>;
