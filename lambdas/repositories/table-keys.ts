/**
 * Every item of the single table and its keys: the table key and the global secondary indexes
 * each entity writes (`entity-keys.ts`). The only place a key format is written; repositories
 * build their keys from these declarations, and `data-model.ts` says which access pattern reads
 * which (`docs/data-model.md`, generated from both).
 *
 * Kept apart from the attribute declarations (`*-entity.ts`) so that a function that only needs
 * a key (the authorizer's wallet key) bundles no attribute schema, and each declaration is
 * `@__PURE__`, so that a bundle keeps only the declarations it uses.
 */
import { defineKeys } from './entity-keys.js';

// ---------------------------------------------------------------------------------------------
// Tenants and what belongs to a tenant as a whole

/** A tenant's own partition; every partition of a tenant's data starts with `T#<tenantId>`. */
const TENANT_PARTITION = 'T#{tenantId}';

export const tenantKeys = /* @__PURE__ */ defineKeys({
  entity: 'company / app',
  table: { pk: TENANT_PARTITION, sk: '{kind}' },
});

export const tenantCountersKeys = /* @__PURE__ */ defineKeys({
  entity: 'counters',
  table: { pk: TENANT_PARTITION, sk: 'COUNTERS' },
});

/** The company's running background jobs: one set of job ids per kind (the per-company cap). */
export const jobSlotsKeys = /* @__PURE__ */ defineKeys({
  entity: 'jobSlots',
  table: { pk: TENANT_PARTITION, sk: 'JOB_SLOTS' },
});

export const apiKeyKeys = /* @__PURE__ */ defineKeys({
  entity: 'apiKey',
  table: { pk: 'APIKEY#{keyId}', sk: 'APIKEY' },
});

/**
 * A company's identity provider, by issuer: one partition holds every provider, so that the
 * authorizer finds a token's issuer with one GetItem and the admin CLI lists them with one Query.
 */
export const identityProviderKeys = /* @__PURE__ */ defineKeys({
  entity: 'identityProvider',
  table: { pk: 'IDENTITY_PROVIDERS', sk: '{issuer}' },
});

/** A key's label, under its tenant, so that the tenant's labels are one Query (`GET /v2/me`). */
export const keyLabelKeys = /* @__PURE__ */ defineKeys({
  entity: 'keyLabel',
  table: { pk: 'T#{tenantId}#KEY_LABELS', sk: '{keyId}' },
});

export const idempotencyKeys = /* @__PURE__ */ defineKeys({
  entity: 'idempotency',
  table: { pk: 'T#{tenantId}#IDEMPOTENCY', sk: '{operationId}#{key}' },
});

// ---------------------------------------------------------------------------------------------
// Categories and subcategories

/** A category's partition, which its subcategories, their name markers and their files share. */
const CATEGORY_PARTITION = 'T#{companyId}#CATEGORY#{categoryId}';

export const categoryKeys = /* @__PURE__ */ defineKeys({
  entity: 'category',
  table: { pk: CATEGORY_PARTITION, sk: 'CATEGORY' },
  indexes: {
    gsi1: { pk: 'T#{companyId}#CATEGORIES#{status}', sk: '{createdAt}#{id}' },
    gsi2: { pk: 'T#{companyId}#CATEGORIES#{status}', sk: '{nameKey}' },
    gsi3: { pk: 'T#{companyId}#CATEGORIES', sk: '{createdAt}#{id}' },
    gsi4: { pk: 'T#{companyId}#CATEGORIES', sk: '{nameKey}' },
  },
});

export const categoryNameMarkerKeys = /* @__PURE__ */ defineKeys({
  entity: 'categoryNameMarker',
  table: { pk: 'T#{companyId}#CATEGORY_NAME#{nameKey}', sk: 'MARKER' },
});

export const subcategoryKeys = /* @__PURE__ */ defineKeys({
  entity: 'subcategory',
  table: { pk: CATEGORY_PARTITION, sk: 'SUBCATEGORY#{id}' },
});

// Names and files are not under `SUBCATEGORY#`, so that listing a category's subcategories reads neither.
export const subcategoryNameMarkerKeys = /* @__PURE__ */ defineKeys({
  entity: 'subcategoryNameMarker',
  table: { pk: CATEGORY_PARTITION, sk: 'SUBCATEGORY_NAME#{nameKey}' },
});

export const subcategoryFileKeys = /* @__PURE__ */ defineKeys({
  entity: 'subcategoryFile',
  table: { pk: CATEGORY_PARTITION, sk: 'SUBCATEGORY_FILE#{subcategoryId}#{id}' },
});

// ---------------------------------------------------------------------------------------------
// Objects and their files

export const objectKeys = /* @__PURE__ */ defineKeys({
  entity: 'object',
  table: { pk: 'T#{companyId}#OBJECT#{id}', sk: 'OBJECT' },
  indexes: {
    gsi1: { pk: 'T#{companyId}#OBJECTS#{statusBucket}', sk: '{createdAt}#{id}' },
    gsi2: { pk: 'T#{companyId}#OBJECTS#{statusBucket}', sk: '{nameKey}' },
    gsi3: { pk: 'T#{companyId}#OBJECTS', sk: '{createdAt}#{id}' },
    gsi4: { pk: 'T#{companyId}#OBJECTS', sk: '{nameKey}' },
    gsi5: { pk: 'T#{companyId}#SUBCATEGORY#{subcategoryId}#OBJECTS', sk: '{createdAt}#{id}' },
    gsi6: { pk: 'T#{companyId}#CATEGORY#{categoryId}#OBJECTS', sk: '{createdAt}#{id}' },
  },
});

export const externalIdMarkerKeys = /* @__PURE__ */ defineKeys({
  entity: 'externalIdMarker',
  table: { pk: 'T#{companyId}#EXTERNAL_ID#{externalId}', sk: 'MARKER' },
});

export const fileKeys = /* @__PURE__ */ defineKeys({
  entity: 'file',
  table: { pk: 'T#{companyId}#FILE#{id}', sk: 'FILE' },
  indexes: { gsi1: { pk: 'T#{companyId}#OBJECT#{objectId}#FILES', sk: '{uploadedAt}#{id}' } },
});

export const uploadSessionKeys = /* @__PURE__ */ defineKeys({
  entity: 'uploadSession',
  table: { pk: 'T#{companyId}#UPLOAD#{id}', sk: 'UPLOAD' },
});

// ---------------------------------------------------------------------------------------------
// Imports and exports

export const importJobKeys = /* @__PURE__ */ defineKeys({
  entity: 'import',
  table: { pk: 'T#{companyId}#IMPORTS', sk: 'IMPORT#{id}' },
});

/** A job's own partition: the trace each of its rows leaves. */
const IMPORT_ROWS_PARTITION = 'T#{companyId}#IMPORT#{importId}';

export const importRowKeys = /* @__PURE__ */ defineKeys({
  entity: 'importRow',
  table: { pk: IMPORT_ROWS_PARTITION, sk: 'DONE#{rowIndex}' },
});

export const importErrorKeys = /* @__PURE__ */ defineKeys({
  entity: 'importError',
  table: { pk: IMPORT_ROWS_PARTITION, sk: 'ERROR#{rowIndex}#{issue}' },
});

export const exportJobKeys = /* @__PURE__ */ defineKeys({
  entity: 'export',
  table: { pk: 'T#{companyId}#EXPORTS', sk: 'EXPORT#{id}' },
});

// ---------------------------------------------------------------------------------------------
// Wallets

export const walletKeys = /* @__PURE__ */ defineKeys({
  entity: 'wallet',
  // The authorizer's IAM grant covers `T#*#WALLET#*` (lib/api-key-authorizer.ts).
  table: { pk: 'T#{appId}#WALLET#{id}', sk: 'WALLET' },
  // A deleted wallet keeps its item but loses these attributes: it is in no list.
  indexes: {
    gsi1: { pk: 'T#{appId}#WALLETS#{status}', sk: '{createdAt}#{id}' },
    gsi2: { pk: 'T#{appId}#WALLETS#{status}', sk: '{usernameKey}' },
    gsi3: { pk: 'T#{appId}#WALLETS', sk: '{createdAt}#{id}' },
    gsi4: { pk: 'T#{appId}#WALLETS', sk: '{usernameKey}' },
  },
});

export const walletUsernameMarkerKeys = /* @__PURE__ */ defineKeys({
  entity: 'walletUsernameMarker',
  table: { pk: 'T#{appId}#WALLET_USERNAME#{usernameKey}', sk: 'MARKER' },
});

export const loginThrottleKeys = /* @__PURE__ */ defineKeys({
  entity: 'loginThrottle',
  table: { pk: 'T#{appId}#LOGIN_THROTTLE#{usernameKey}', sk: 'ADDRESS#{addressHash}' },
});

export const walletSessionKeys = /* @__PURE__ */ defineKeys({
  entity: 'walletSession',
  table: { pk: 'WALLET_SESSION#{tokenHash}', sk: 'SESSION' },
});

// ---------------------------------------------------------------------------------------------
// Webhooks

export const webhookKeys = /* @__PURE__ */ defineKeys({
  entity: 'webhook',
  table: { pk: 'T#{companyId}#WEBHOOKS', sk: 'WEBHOOK#{id}' },
});

/** A delivery's place in its lists. */
const DELIVERY_LISTED = '{createdAt}#{sequence}#{id}';

export const deliveryKeys = /* @__PURE__ */ defineKeys({
  entity: 'webhookDelivery',
  table: { pk: 'T#{companyId}#WEBHOOK#{webhookId}', sk: 'DELIVERY#{id}' },
  indexes: {
    gsi1: { pk: 'T#{companyId}#WEBHOOK#{webhookId}#DELIVERIES', sk: DELIVERY_LISTED },
    // Written only while the delivery is dead-lettered (status `failed`).
    gsi2: { pk: 'T#{companyId}#WEBHOOK#{webhookId}#DEAD', sk: DELIVERY_LISTED },
  },
});

/**
 * Local mode's delivery queue: a partition of messages per company, sorted by lane (URI-encoded,
 * so that the space after it sorts below any lane that extends it) and then in the order sent;
 * and the companies that have some.
 */
export const localQueueMessageKeys = /* @__PURE__ */ defineKeys({
  entity: 'localQueueMessage',
  table: { pk: 'LOCAL#DELIVERY_QUEUE#{companyId}', sk: '{lane} {sentAt}#{counter}#{deduplicationId}' },
});

export const localQueueCompanyKeys = /* @__PURE__ */ defineKeys({
  entity: 'localQueueCompany',
  table: { pk: 'LOCAL#DELIVERY_QUEUE', sk: 'COMPANY#{companyId}' },
});

// ---------------------------------------------------------------------------------------------
// The ledger and its log

export const ledgerEventKeys = /* @__PURE__ */ defineKeys({
  entity: 'ledgerEvent',
  // `lib/ledger-protection.ts` guards `T#*#LEDGER#*`: no function may update or delete an event.
  table: { pk: 'T#{tenantId}#LEDGER#{kind}#{entityId}', sk: 'EVENT#{sequence}' },
  indexes: {
    // A chain's events by time (a time range's sequence bounds); the timestamp grows with the sequence.
    gsi1: { pk: 'T#{tenantId}#LEDGER#{kind}#{entityId}', sk: '{timestamp}#{sequence}' },
    // The company's activity: every event of its chains by time, and by time for one action.
    gsi2: { pk: 'T#{tenantId}#EVENTS', sk: '{timestamp}#{kind}#{entityId}#{sequence}' },
    gsi3: { pk: 'T#{tenantId}#EVENTS#{action}', sk: '{timestamp}#{kind}#{entityId}#{sequence}' },
  },
});

export const ledgerHeadKeys = /* @__PURE__ */ defineKeys({
  entity: 'ledgerHead',
  table: { pk: 'LEDGER_HEADS#{shard}', sk: '{chainId}' },
});

export const logOutboxKeys = /* @__PURE__ */ defineKeys({
  entity: 'logOutbox',
  // A company's items are one range of a shard, so the sequencer can step past a backlog (`fair-outbox.ts`).
  table: { pk: 'LOG_OUTBOX#{shard}', sk: '{tenantId}#{timestamp}#{chainId}#{sequence}' },
});

export const logStateKeys = /* @__PURE__ */ defineKeys({
  entity: 'logState',
  table: { pk: 'LOG', sk: 'STATE' },
});

export const logPositionKeys = /* @__PURE__ */ defineKeys({
  entity: 'logPosition',
  table: { pk: 'LOG_POSITION#{chainId}', sk: 'EVENT#{sequence}' },
});
