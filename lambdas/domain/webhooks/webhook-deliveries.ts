/**
 * Deliveries: one committed ledger event to one subscription. The publisher hands each
 * company's events to the queue in a fan-out lane of that company (`queueFanOut`); the delivery
 * function fans them out (`processFanOut`): it records a delivery per matching subscription and
 * queues it in the lane of its object. The delivery function
 * attempts it, retries it on the schedule (`retry-schedule.ts`) and, 24 h after the first
 * attempt, dead-letters it and marks the subscription failing. A failing or disabled
 * subscription's queued deliveries go to the dead-letter store at once, to be replayed in order.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { LedgerEvent } from '#domain/ledger/ledger-event.js';
import { publishedEventOf } from '#domain/ledger/published-event.js';
import type { DeliveryMessage, FanOutMessage, QueuedDelivery } from '#repositories/delivery-message.js';
import { enqueueDeliveries, laneOf } from '#repositories/delivery-queue.js';
import { chainRefOf } from '#repositories/ledger-store.js';
import { storedJournal } from '#repositories/stored-ledger.js';
import {
  type DeliveryRecord,
  findDelivery,
  findWebhook,
  insertDelivery,
  listCompanyWebhooks,
  listDeliveries as listDeliveryRecords,
  markWebhookFailing,
  replaceWebhook,
  StaleWebhookError,
  saveDelivery,
  type WebhookRecord,
} from '#repositories/webhook-repository.js';
import { nextTimestamp, nowIso } from '#shared/clock.js';
import { NotFoundError } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import { type CursorPage, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import type { PageRequest } from '#shared/pagination.js';
import { openSecret } from '#shared/secret-box.js';
import { isSuccess, postWebhook } from './delivery-transport.js';
import { retryDelayMs, retrySchedule } from './retry-schedule.js';
import { checkedUrl } from './webhook-address.js';
import { ALL_EVENTS } from './webhook-schemas.js';
import { findCompanyWebhook, secretContextOf } from './webhook-service.js';
import { signatureHeaders } from './webhook-signing.js';
import { type DeliveryView, toDeliveryView } from './webhook-view.js';

/** Dead letters replayed per call; the response says how many remain. */
const REPLAY_BATCH_SIZE = 500;

/** The same event to the same subscription always gets the same delivery id (a UUID). */
export function deliveryIdOf(webhookId: string, chainId: string, sequence: number): string {
  const hex = createHash('sha256').update(`${webhookId}\n${chainId}\n${sequence}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Whether a subscription takes an event: one of its types, committed since it was created (the
 * publisher may handle an older event after a new subscription exists; that one is not sent).
 */
const wants = (webhook: WebhookRecord, eventType: string, committedAt: string) =>
  committedAt >= webhook.createdAt &&
  (webhook.events.includes(ALL_EVENTS) || webhook.events.includes(eventType));

/**
 * Records and queues the deliveries of committed events, in their order, to every subscription
 * of their company that wants them and is not disabled. Safe to repeat (at least once): a
 * delivery recorded before keeps its state, and a queued duplicate finds it done.
 */
async function fanOutEvents(events: readonly LedgerEvent[]): Promise<number> {
  const webhooksByCompany = new Map<string, Promise<WebhookRecord[]>>();
  const queued: QueuedDelivery[] = [];
  const recorded: Promise<boolean>[] = [];
  for (const event of events) {
    const published = publishedEventOf(event);
    const { companyId, entityId } = published.data;
    let webhooks = webhooksByCompany.get(companyId);
    if (!webhooks) {
      webhooks = listCompanyWebhooks(companyId);
      webhooksByCompany.set(companyId, webhooks);
    }
    for (const webhook of await webhooks) {
      if (webhook.status === 'disabled' || !wants(webhook, published.type, event.timestamp)) continue;
      const record: DeliveryRecord = {
        id: deliveryIdOf(webhook.id, event.chainId, event.sequence),
        companyId,
        webhookId: webhook.id,
        eventType: published.type,
        entityId,
        sequence: event.sequence,
        chainId: event.chainId,
        status: 'pending',
        createdAt: nowIso(),
        firstAttemptAt: null,
        nextAttemptAt: null,
        attempts: [],
      };
      // Records go side by side; the queue below keeps the events' order.
      recorded.push(insertDelivery(record));
      queued.push({
        message: { companyId, webhookId: webhook.id, deliveryId: record.id },
        lane: laneOf(webhook.id, entityId),
        deduplicationId: record.id,
      });
    }
  }
  await Promise.all(recorded);
  await enqueueDeliveries(queued);
  return queued.length;
}

/** The lane of a company's fan-out: its events in commit order, apart from every other company's. */
const fanOutLaneOf = (companyId: string) => `fan-out#${companyId}`;

/**
 * The queue messages that hand committed events (in commit order) to the fan-out: one per
 * company, in that company's fan-out lane, so that the publisher's share of events out is one
 * queue call per batch whatever the subscriptions, and one company's events wait only behind
 * its own.
 */
export function fanOutMessages(events: readonly LedgerEvent[]): QueuedDelivery[] {
  const byCompany = new Map<string, FanOutMessage>();
  for (const event of events) {
    // The chain's tenant, as the published event's companyId is: no need to build that event here.
    const companyId = chainRefOf(event.chainId).tenantId;
    const message = byCompany.get(companyId) ?? { kind: 'fan-out', companyId, events: [] };
    message.events.push({ chainId: event.chainId, sequence: event.sequence });
    byCompany.set(companyId, message);
  }
  return [...byCompany.values()].map((message) => ({
    message,
    lane: fanOutLaneOf(message.companyId),
    // The same events again (a batch that comes again) are the same message.
    deduplicationId: createHash('sha256')
      .update(message.events.map((event) => `${event.chainId}#${event.sequence}`).join('\n'))
      .digest('hex'),
  }));
}

/** Queues the fan-out of committed events (`fanOutMessages`). */
export const queueFanOut = (events: readonly LedgerEvent[]): Promise<void> =>
  enqueueDeliveries(fanOutMessages(events));

/** Fans one company's events out to its subscriptions (a queued `queueFanOut` message). */
export async function processFanOut(message: FanOutMessage): Promise<void> {
  const events = await Promise.all(
    message.events.map(async ({ chainId, sequence }) => {
      const event = await storedJournal.findEvent(chainRefOf(chainId), sequence);
      if (!event) throw new Error(`Ledger event ${chainId}#${sequence} not found`);
      return event;
    }),
  );
  await fanOutEvents(events);
}

/** Opened secrets by sealed value: KMS is asked once per secret and container. */
const openedSecrets = new Map<string, Promise<string>>();

function opened(webhook: WebhookRecord, sealed: string): Promise<string> {
  let secret = openedSecrets.get(sealed);
  if (!secret) {
    secret = openSecret(sealed, secretContextOf(webhook));
    secret.catch(() => openedSecrets.delete(sealed));
    openedSecrets.set(sealed, secret);
  }
  return secret;
}

/** The secrets that sign now: the current one, and the previous one during its 24 h. */
async function signingSecrets(webhook: WebhookRecord, now: Date): Promise<string[]> {
  const secrets = [await opened(webhook, webhook.sealedSecret)];
  if (
    webhook.sealedPreviousSecret &&
    webhook.previousSecretExpiresAt &&
    Date.parse(webhook.previousSecretExpiresAt) > now.getTime()
  ) {
    secrets.push(await opened(webhook, webhook.sealedPreviousSecret));
  }
  return secrets;
}

/** The Standard Webhooks body of a delivery: `{ type, timestamp, data }`, read from the ledger. */
async function deliveryBody(delivery: DeliveryRecord): Promise<string> {
  const event = await storedJournal.findEvent(chainRefOf(delivery.chainId), delivery.sequence);
  if (!event) throw new Error(`Ledger event ${delivery.chainId}#${delivery.sequence} not found`);
  return JSON.stringify(publishedEventOf(event));
}

/** What became of a queued delivery. */
export type DeliveryOutcome = { outcome: 'done' } | { outcome: 'retry'; delayMs: number };

/** One attempt, recorded on the delivery. */
async function attempt(webhook: WebhookRecord, delivery: DeliveryRecord, manual: boolean) {
  const sentAt = new Date();
  const body = await deliveryBody(delivery);
  const headers = signatureHeaders(await signingSecrets(webhook, sentAt), delivery.id, sentAt, body);
  const result = await postWebhook(checkedUrl(webhook.url), { ...headers }, body);
  delivery.attempts.push({ attemptedAt: sentAt.toISOString(), ...result, manual });
  return isSuccess(result);
}

/**
 * Handles one queue message: attempts the delivery unless it is settled already, and says
 * whether (and after how long) the queue should offer it again.
 */
export async function processDelivery(message: DeliveryMessage): Promise<DeliveryOutcome> {
  const [delivery, webhook] = await Promise.all([
    findDelivery(message.companyId, message.webhookId, message.deliveryId),
    findWebhook(message.companyId, message.webhookId),
  ]);
  if (!delivery || !webhook) return { outcome: 'done' };
  if (message.manual) {
    if (await attempt(webhook, delivery, true)) {
      delivery.status = 'succeeded';
      delivery.nextAttemptAt = null;
    }
    await saveDelivery(delivery);
    return { outcome: 'done' };
  }
  if (delivery.status !== 'pending') return { outcome: 'done' };
  if (webhook.status !== 'active') {
    await saveDelivery({ ...delivery, status: 'failed', nextAttemptAt: null });
    return { outcome: 'done' };
  }
  const now = new Date();
  delivery.firstAttemptAt ??= now.toISOString();
  if (await attempt(webhook, delivery, false)) {
    await saveDelivery({ ...delivery, status: 'succeeded', nextAttemptAt: null });
    return { outcome: 'done' };
  }
  const schedule = retrySchedule();
  const failures = delivery.attempts.filter((entry) => !entry.manual).length;
  const delayMs = retryDelayMs(failures, schedule);
  if (Date.now() + delayMs - Date.parse(delivery.firstAttemptAt) > schedule.windowMs) {
    await saveDelivery({ ...delivery, status: 'failed', nextAttemptAt: null });
    await markWebhookFailing(webhook.companyId, webhook.id, nowIso());
    return { outcome: 'done' };
  }
  await saveDelivery({ ...delivery, nextAttemptAt: new Date(Date.now() + delayMs).toISOString() });
  return { outcome: 'retry', delayMs };
}

/** A window of a subscription's deliveries, newest first, each with its attempts; by offset or by cursor. */
export async function listWebhookDeliveries(
  companyId: string,
  webhookId: string,
  page: PageRequest & { cursor?: string },
  deadLettersOnly = false,
): Promise<CursorPage<DeliveryView>> {
  const webhook = await findCompanyWebhook(companyId, webhookId);
  const pageScope = {
    tenantId: companyId,
    list: `${deadLettersOnly ? 'dead-letters' : 'deliveries'}:${webhook.id}`,
  };
  const position = await pagePositionOf(page, pageScope);
  const { records, total } = await listDeliveryRecords(companyId, webhook.id, {
    limit: position.limit,
    offset: position.offset,
    deadLettersOnly,
  });
  return toCursorPage(records.map(toDeliveryView), position, total, pageScope);
}

/** Queues one more attempt of a delivery, whatever its state (202); the lane keeps its order. */
export async function retryDelivery(
  companyId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const webhook = await findCompanyWebhook(companyId, webhookId);
  const delivery = await findDelivery(companyId, webhook.id, deliveryId.toLowerCase());
  if (!delivery) throw new NotFoundError('DELIVERY_NOT_FOUND', `No delivery ${deliveryId} of this webhook`);
  await enqueueDeliveries([
    {
      message: { companyId, webhookId: webhook.id, deliveryId: delivery.id, manual: true },
      lane: laneOf(webhook.id, delivery.entityId),
      deduplicationId: `${delivery.id}-${randomUUID()}`,
    },
  ]);
  return toDeliveryView(delivery);
}

/**
 * Replays the dead-letter store: the subscription becomes active again, and its dead-lettered
 * deliveries (up to {@link REPLAY_BATCH_SIZE}, oldest first, so each object's stay in order) are
 * queued afresh with a new 24 h of retries.
 */
export async function replayDeadLetters(
  companyId: string,
  webhookId: string,
): Promise<{ replayed: number; remaining: number }> {
  const webhook = await retryLostRaces(
    'webhook',
    (error) => error instanceof StaleWebhookError,
    async () => {
      const before = await findCompanyWebhook(companyId, webhookId);
      if (before.status !== 'failing') return before;
      const after: WebhookRecord = {
        ...before,
        status: 'active',
        failingSince: null,
        updatedAt: nextTimestamp(before.updatedAt),
        version: before.version + 1,
      };
      await replaceWebhook(before, after);
      return after;
    },
  );
  const { records, total } = await listDeliveryRecords(companyId, webhook.id, {
    offset: 0,
    limit: REPLAY_BATCH_SIZE,
    deadLettersOnly: true,
    oldestFirst: true,
  });
  const queued: QueuedDelivery[] = [];
  for (const record of records) {
    await saveDelivery({ ...record, status: 'pending', firstAttemptAt: null, nextAttemptAt: null });
    queued.push({
      message: { companyId, webhookId: webhook.id, deliveryId: record.id },
      lane: laneOf(webhook.id, record.entityId),
      deduplicationId: `${record.id}-${randomUUID()}`,
    });
  }
  await enqueueDeliveries(queued);
  return { replayed: records.length, remaining: total - records.length };
}
