/**
 * Request shapes of the webhook operations (extension, documented in the README) and the one
 * declaration of a subscription's public fields, from which its view and its response schema
 * are derived.
 */
import { ALL_EVENT_TYPES } from '#domain/ledger/event-types.js';
import type { FieldIssue } from '#shared/errors.js';
import { pageQueryFields } from '#shared/pagination.js';
import {
  defaulted,
  type JsonSchema,
  object,
  oneOf,
  optional,
  required,
  type Schema,
  string,
} from '#shared/schema.js';
import { checkedUrl, WebhookAddressError } from './webhook-address.js';

/** Statuses a caller may set; `failing` is set by the service after 24 h of failed deliveries. */
export const SETTABLE_WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export const WEBHOOK_STATUSES = [...SETTABLE_WEBHOOK_STATUSES, 'failing'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The `events` value that subscribes to every type, now and later. */
export const ALL_EVENTS = '*';
const URL_MAX_LENGTH = 2048;
const DESCRIPTION_MAX_LENGTH = 500;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A URL a webhook may use: shape checked here (`FORMAT_INVALID`); where it leads is checked by
 * the service, which resolves it (`ADDRESS_NOT_ALLOWED`).
 */
function webhookUrl(): Schema<string> {
  const bounded = string({ min: 1, max: URL_MAX_LENGTH });
  return {
    read(input: unknown, field: string, issues: FieldIssue[]) {
      const value = bounded.read(input, field, issues);
      if (value === undefined) return undefined;
      try {
        return checkedUrl(value).href;
      } catch (error) {
        if (!(error instanceof WebhookAddressError)) throw error;
        issues.push({ field, code: error.code, message: error.message });
        return undefined;
      }
    },
    jsonSchema: { ...bounded.jsonSchema, format: 'uri' },
  };
}

/** A non-empty list of event types (`ENUM_INVALID` for an unknown one), or `["*"]` for all. */
function eventTypeList(): Schema<string[]> {
  const allowed = [ALL_EVENTS, ...ALL_EVENT_TYPES];
  return {
    read(input: unknown, field: string, issues: FieldIssue[]) {
      if (!Array.isArray(input) || input.length === 0) {
        issues.push({
          field,
          code: 'TYPE_INVALID',
          message: `${field} must be a non-empty array of event types`,
        });
        return undefined;
      }
      const unknown = input.filter((value) => typeof value !== 'string' || !allowed.includes(value));
      if (unknown.length > 0) {
        issues.push({
          field,
          code: 'ENUM_INVALID',
          message: `${field} may hold only "*" or these types: ${ALL_EVENT_TYPES.join(', ')}`,
        });
        return undefined;
      }
      const types = [...new Set(input as string[])];
      return types.includes(ALL_EVENTS) ? [ALL_EVENTS] : types;
    },
    jsonSchema: { type: 'array', minItems: 1, items: { type: 'string', enum: allowed } },
  };
}

export const webhookIdPath = object({ webhookId: required(string({ format: 'uuid' })) });

export const webhookDeliveryPath = object({
  webhookId: required(string({ format: 'uuid' })),
  deliveryId: required(string({ format: 'uuid' })),
});

export const listWebhooksQuery = object({ ...pageQueryFields() });
export const listDeliveriesQuery = object({ ...pageQueryFields() });

export const createWebhookBody = object({
  url: required(
    webhookUrl(),
    'https URL (local mode: also http to loopback); every address it resolves to must be public',
  ),
  events: defaulted(eventTypeList(), [ALL_EVENTS], 'event types to receive; ["*"] (default) for all'),
  description: defaulted(string({ max: DESCRIPTION_MAX_LENGTH }), ''),
  status: defaulted(oneOf(SETTABLE_WEBHOOK_STATUSES), 'active'),
});

export const updateWebhookBody = object({
  url: optional(webhookUrl()),
  events: optional(eventTypeList()),
  description: optional(string({ max: DESCRIPTION_MAX_LENGTH })),
  status: optional(oneOf(SETTABLE_WEBHOOK_STATUSES), '`active` also ends a `failing` state'),
});

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

/** A subscription's public fields, as responses show them (never the secret). */
export const WEBHOOK_VIEW_FIELDS = {
  id: { type: 'string', format: 'uuid' },
  url: { type: 'string', format: 'uri' },
  events: { type: 'array', items: { type: 'string' } },
  description: { type: 'string' },
  status: { type: 'string', enum: [...WEBHOOK_STATUSES] },
  failingSince: { type: ['string', 'null'], format: 'date-time', description: 'when it was marked failing' },
  createdAt: dateTime,
  updatedAt: dateTime,
} as const satisfies Record<string, JsonSchema>;

/** One delivery attempt, as the deliveries list shows it. */
export const DELIVERY_ATTEMPT_FIELDS = {
  attemptedAt: dateTime,
  statusCode: { type: ['integer', 'null'], description: 'null when no answer came (timeout, refused)' },
  latencyMs: { type: 'integer', minimum: 0 },
  response: { type: 'string', description: 'the first 1 KB of the answer body' },
  error: { type: ['string', 'null'], description: 'why no answer came' },
  manual: { type: 'boolean', description: 'sent by POST .../retry' },
} as const satisfies Record<string, JsonSchema>;

/** A delivery (one event to one subscription), as the deliveries and dead-letter lists show it. */
export const DELIVERY_VIEW_FIELDS = {
  id: { type: 'string', format: 'uuid', description: 'also the `webhook-id` header' },
  webhookId: { type: 'string', format: 'uuid' },
  eventType: { type: 'string' },
  entityId: { type: 'string' },
  sequence: { type: 'integer', minimum: 1 },
  status: { type: 'string', enum: [...DELIVERY_STATUSES] },
  createdAt: dateTime,
  nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
  attempts: { type: 'array', items: { $ref: '#/components/schemas/WebhookDeliveryAttempt' } },
} as const satisfies Record<string, JsonSchema>;
