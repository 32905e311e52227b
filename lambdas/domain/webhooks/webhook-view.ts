/**
 * Subscriptions and deliveries as the API shows them: exactly the fields declared in
 * `webhook-schemas.ts` (which the response schemas use too), so a secret can never reach a
 * response by accident.
 */
import type { DeliveryRecord, WebhookRecord } from '#repositories/webhook-repository.js';
import { DELIVERY_ATTEMPT_FIELDS, DELIVERY_VIEW_FIELDS, WEBHOOK_VIEW_FIELDS } from './webhook-schemas.js';

type Picked<Fields, Source> = { [K in keyof Fields & keyof Source]: Source[K] };

function pick<Fields extends object, Source extends object>(
  fields: Fields,
  source: Source,
): Picked<Fields, Source> {
  return Object.fromEntries(
    Object.keys(fields).map((name) => [name, (source as Record<string, unknown>)[name] ?? null]),
  ) as Picked<Fields, Source>;
}

export type WebhookView = Picked<typeof WEBHOOK_VIEW_FIELDS, WebhookRecord>;
export type DeliveryView = Picked<typeof DELIVERY_VIEW_FIELDS, DeliveryRecord>;

export const toWebhookView = (record: WebhookRecord): WebhookView => pick(WEBHOOK_VIEW_FIELDS, record);

export const toDeliveryView = (record: DeliveryRecord): DeliveryView => ({
  ...pick(DELIVERY_VIEW_FIELDS, record),
  attempts: record.attempts.map((attempt) => pick(DELIVERY_ATTEMPT_FIELDS, attempt)),
});
