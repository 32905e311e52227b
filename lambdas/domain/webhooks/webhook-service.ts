/**
 * The rules of webhook subscriptions (extension): one company's subscriptions, created with a
 * signing secret shown once, changed, deleted, and their secret rotated (the previous one keeps
 * signing for 24 h, so receivers can switch without losing a delivery).
 */
import { randomUUID } from 'node:crypto';
import {
  deleteWebhook as deleteWebhookRecord,
  findWebhook,
  insertWebhook,
  listCompanyWebhooks,
  replaceWebhook,
  StaleWebhookError,
  type WebhookRecord,
} from '#repositories/webhook-repository.js';
import { nextTimestamp, nowIso } from '#shared/clock.js';
import { NotFoundError, ValidationError } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import { type CursorPage, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import type { Infer } from '#shared/schema.js';
import { sealSecret } from '#shared/secret-box.js';
import { allowedAddresses, checkedUrl, WebhookAddressError } from './webhook-address.js';
import type { createWebhookBody, listWebhooksQuery, updateWebhookBody } from './webhook-schemas.js';
import { generateSigningSecret } from './webhook-signing.js';
import {
  type CreatedWebhookView,
  createdWebhookView,
  type RotatedSecretView,
  rotatedSecretView,
  toWebhookView,
  type WebhookView,
} from './webhook-view.js';

type CreateWebhookInput = Infer<typeof createWebhookBody.shape>;
type UpdateWebhookInput = Infer<typeof updateWebhookBody.shape>;
type PageInput = Infer<typeof listWebhooksQuery.shape>;

/** How long a rotated-out secret keeps signing. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** What a sealed secret is bound to: it opens only for its own subscription. */
export const secretContextOf = (record: Pick<WebhookRecord, 'companyId' | 'id'>) => ({
  companyId: record.companyId,
  webhookId: record.id,
});

const webhookNotFound = (webhookId: string) =>
  new NotFoundError('WEBHOOK_NOT_FOUND', `No webhook ${webhookId} in this company`);

/** Refuses a URL whose host leads to an address that is not public (400 `ADDRESS_NOT_ALLOWED`). */
async function assertReachable(url: string): Promise<void> {
  try {
    await allowedAddresses(checkedUrl(url));
  } catch (error) {
    if (!(error instanceof WebhookAddressError)) throw error;
    throw new ValidationError([{ field: 'url', code: error.code, message: error.message }]);
  }
}

/** A subscription of the company, or 404 `WEBHOOK_NOT_FOUND`. */
export async function findCompanyWebhook(companyId: string, webhookId: string): Promise<WebhookRecord> {
  const record = await findWebhook(companyId, webhookId.toLowerCase());
  if (!record) throw webhookNotFound(webhookId);
  return record;
}

/**
 * Subscribes a URL to the company's events, with a new signing secret.
 *
 * @example
 * const { secret } = await createWebhook(companyId, { url: 'https://hooks.example.com/in', events: ['*'], description: '', status: 'active' });
 */
export async function createWebhook(
  companyId: string,
  input: CreateWebhookInput,
): Promise<CreatedWebhookView> {
  await assertReachable(input.url);
  const id = randomUUID();
  const secret = generateSigningSecret();
  const createdAt = nowIso();
  const record: WebhookRecord = {
    id,
    companyId,
    url: input.url,
    events: input.events,
    description: input.description,
    status: input.status,
    failingSince: null,
    createdAt,
    updatedAt: createdAt,
    sealedSecret: await sealSecret(secret, secretContextOf({ companyId, id })),
    sealedPreviousSecret: null,
    previousSecretExpiresAt: null,
    version: 1,
  };
  await insertWebhook(record);
  return createdWebhookView.toView(record, { secret });
}

export async function getWebhook(companyId: string, webhookId: string): Promise<WebhookView> {
  return toWebhookView(await findCompanyWebhook(companyId, webhookId));
}

/** The company's subscriptions, newest first, by offset or by cursor (the position of the next page). */
export async function listWebhooks(companyId: string, query: PageInput): Promise<CursorPage<WebhookView>> {
  const pageScope = { tenantId: companyId, list: 'webhooks' };
  const position = await pagePositionOf(query, pageScope);
  const records = await listCompanyWebhooks(companyId);
  const window = records.slice(position.offset, position.offset + position.limit).map(toWebhookView);
  return toCursorPage(window, position, records.length, pageScope);
}

/** Applies the given fields; `status: active` also ends a `failing` state. */
export async function updateWebhook(
  companyId: string,
  webhookId: string,
  changes: UpdateWebhookInput,
): Promise<WebhookView> {
  if (changes.url !== undefined) await assertReachable(changes.url);
  return retryLostRaces(
    'webhook',
    (error) => error instanceof StaleWebhookError,
    async () => {
      const before = await findCompanyWebhook(companyId, webhookId);
      const status = changes.status ?? before.status;
      const after: WebhookRecord = {
        ...before,
        url: changes.url ?? before.url,
        events: changes.events ?? before.events,
        description: changes.description ?? before.description,
        status,
        failingSince: status === 'failing' ? before.failingSince : null,
        updatedAt: nextTimestamp(before.updatedAt),
        version: before.version + 1,
      };
      await replaceWebhook(before, after);
      return toWebhookView(after);
    },
  );
}

/** Deletes a subscription; deliveries still queued for it are dropped when their turn comes. */
export async function deleteWebhook(companyId: string, webhookId: string): Promise<void> {
  await retryLostRaces(
    'webhook',
    (error) => error instanceof StaleWebhookError,
    async () => deleteWebhookRecord(await findCompanyWebhook(companyId, webhookId)),
  );
}

/** A new signing secret, shown once; the current one keeps signing for 24 h beside it. */
export async function rotateWebhookSecret(companyId: string, webhookId: string): Promise<RotatedSecretView> {
  const secret = generateSigningSecret();
  return retryLostRaces(
    'webhook',
    (error) => error instanceof StaleWebhookError,
    async () => {
      const before = await findCompanyWebhook(companyId, webhookId);
      const rotatedAt = nextTimestamp(before.updatedAt);
      const previousSecretExpiresAt = new Date(
        Date.parse(rotatedAt) + PREVIOUS_SECRET_VALIDITY_MS,
      ).toISOString();
      const after: WebhookRecord = {
        ...before,
        sealedSecret: await sealSecret(secret, secretContextOf(before)),
        sealedPreviousSecret: before.sealedSecret,
        previousSecretExpiresAt,
        updatedAt: rotatedAt,
        version: before.version + 1,
      };
      await replaceWebhook(before, after);
      return rotatedSecretView.toView(after, { secret });
    },
  );
}
