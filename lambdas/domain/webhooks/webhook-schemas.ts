/**
 * Request shapes of the webhook operations (extension, documented in docs/events.md). A field a
 * subscription stores takes its schema from the entity (`#repositories/webhook-entity.js`).
 */
import { ALL_EVENT_TYPES } from '#domain/ledger/event-types.js';
import { SETTABLE_WEBHOOK_STATUSES, webhookEntity } from '#repositories/webhook-entity.js';
import type { FieldIssue } from '#shared/errors.js';
import { pageQueryFields } from '#shared/pagination.js';
import { defaulted, object, oneOf, optional, required, type Schema, string } from '#shared/schema.js';
import { checkedUrl, WebhookAddressError } from './webhook-address.js';

/** The `events` value that subscribes to every type, now and later. */
export const ALL_EVENTS = '*';
const { url: storedUrl, description: storedDescription } = webhookEntity.attributes;

/**
 * A URL a webhook may use: shape checked here (`FORMAT_INVALID`); where it leads is checked by
 * the service, which resolves it (`ADDRESS_NOT_ALLOWED`).
 */
function webhookUrl(): Schema<string> {
  const bounded = storedUrl.schema;
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
    jsonSchema: bounded.jsonSchema,
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
  description: defaulted(storedDescription.schema, ''),
  status: defaulted(oneOf(SETTABLE_WEBHOOK_STATUSES), 'active'),
});

export const updateWebhookBody = object({
  url: optional(webhookUrl()),
  events: optional(eventTypeList()),
  description: optional(storedDescription.schema),
  status: optional(oneOf(SETTABLE_WEBHOOK_STATUSES), '`active` also ends a `failing` state'),
});
