/**
 * What each item of the table is for: a sentence on what it holds, how its derived key parts are
 * formed, and the access patterns that read or claim it, each naming the key it uses (the table
 * key or one of the indexes the item's declaration writes, checked by the compiler). With the
 * key declarations (`table-keys.ts`) it gives `docs/data-model.md` (`scripts/data-model-doc.ts`).
 * Read by that script and its test only: no function bundles it.
 */
import type { EntityKeys, IndexTemplates, KeyTemplates, PartsOf } from './entity-keys.js';
import * as keys from './table-keys.js';

/** A way items are read (or claimed), and which key it uses. */
interface AccessPattern<N extends string = string> {
  readonly name: string;
  /** `table` for the table's own key. */
  readonly index: 'table' | N;
  readonly description: string;
}

type TemplatesOf<I> = {
  [N in keyof I]: I[N] extends KeyTemplates ? I[N]['pk'] | I[N]['sk'] : never;
}[keyof I];

/** One item of the data model: its keys and what they serve. */
export interface ItemModel {
  readonly keys: EntityKeys<KeyTemplates, IndexTemplates>;
  readonly description: string;
  /** How a key part that is not an attribute as stored is formed. */
  readonly parts: Readonly<Record<string, string>>;
  readonly patterns: readonly AccessPattern[];
}

function item<T extends KeyTemplates, I extends IndexTemplates>(
  itemKeys: EntityKeys<T, I>,
  model: {
    description: string;
    parts?: { readonly [P in PartsOf<T['pk'] | T['sk'] | TemplatesOf<I>>]?: string };
    patterns: readonly AccessPattern<keyof I & string>[];
  },
): ItemModel {
  return {
    keys: itemKeys as unknown as EntityKeys<KeyTemplates, IndexTemplates>,
    description: model.description,
    parts: (model.parts ?? {}) as Record<string, string>,
    patterns: model.patterns,
  };
}

const COMPARABLE = 'NFC, lower case';
const SEQUENCE = 'the event’s sequence number, 10 digits';

/** Every item of the table, in the order the doc lists them. */
export const DATA_MODEL: readonly ItemModel[] = [
  item(keys.tenantKeys, {
    description: 'A tenant: a company (objects, categories, files, webhooks) or an App (wallets).',
    parts: { kind: '`COMPANY` or `APP`' },
    patterns: [{ name: 'get a tenant', index: 'table', description: 'One GetItem by type and id.' }],
  }),
  item(keys.tenantCountersKeys, {
    description:
      'A tenant’s list totals (`objectCount_active`, `categoryCount_inactive`, ...), moved in the transaction of each write they count, and the subcategories whose data is being removed.',
    patterns: [
      {
        name: 'read list totals',
        index: 'table',
        description:
          'One GetItem gives the `total` of an unfiltered list page, and the subcategories to hide.',
      },
    ],
  }),
  item(keys.jobSlotsKeys, {
    description:
      'The ids of a company’s running imports and exports, one string set per kind: a job takes its slot in the transaction that starts it (refused past the cap) and gives it back in the write that ends it.',
    patterns: [
      {
        name: 'take or give back a job slot',
        index: 'table',
        description: 'One conditional UpdateItem (`size(set) < cap`) in the job’s own transaction.',
      },
    ],
  }),
  item(keys.apiKeyKeys, {
    description: 'An API key’s record, looked up before any tenant is known (the key decides the tenant).',
    patterns: [
      { name: 'check an API key', index: 'table', description: 'The authorizer’s GetItem by key id.' },
    ],
  }),
  item(keys.identityProviderKeys, {
    description:
      'A company’s OpenID Connect provider (`add-identity-provider`): issuer, audience, roles claim and role mapping; an issuer belongs to one company.',
    patterns: [
      { name: 'find a token’s issuer', index: 'table', description: 'The authorizer’s GetItem by issuer.' },
      {
        name: 'list identity providers',
        index: 'table',
        description: 'One Query of the partition (`list-identity-providers`).',
      },
    ],
  }),
  item(keys.keyLabelKeys, {
    description:
      'The label of a tenant’s API key (`create-key --label`), written with the key; kept when the key is revoked, since its events still name it.',
    patterns: [
      {
        name: 'list a tenant’s key labels',
        index: 'table',
        description: 'One Query of the tenant’s label partition (`GET /v2/me`), one page.',
      },
    ],
  }),
  item(keys.idempotencyKeys, {
    description: 'An `Idempotency-Key` record of a tenant and operation, removed by the TTL once expired.',
    parts: { key: 'the client’s `Idempotency-Key`' },
    patterns: [
      {
        name: 'claim an idempotency key',
        index: 'table',
        description: 'A conditional Put before the request runs; then the response is kept on it.',
      },
    ],
  }),
  item(keys.categoryKeys, {
    description: 'A category, in the partition it shares with its subcategories.',
    parts: {
      categoryId: 'the category’s id',
      nameKey: `the name, ${COMPARABLE} (unique in the company: no ties)`,
    },
    patterns: [
      { name: 'get a category', index: 'table', description: 'One GetItem by company and id.' },
      {
        name: 'get a category with its subcategories',
        index: 'table',
        description:
          'One consistent Query of the partition, from `CATEGORY` to the last `SUBCATEGORY#` item.',
      },
      {
        name: 'list categories of a status by creation',
        index: 'gsi1',
        description: 'A page of a company’s categories in one status, by creation time.',
      },
      {
        name: 'list categories of a status by name',
        index: 'gsi2',
        description: 'A page of a company’s categories in one status, by name.',
      },
      {
        name: 'list categories by creation',
        index: 'gsi3',
        description: 'A page of all a company’s categories, by creation time.',
      },
      {
        name: 'list categories by name',
        index: 'gsi4',
        description: 'A page of all a company’s categories, by name.',
      },
    ],
  }),
  item(keys.categoryNameMarkerKeys, {
    description: 'Claims a category name in a company.',
    parts: { nameKey: `the name, ${COMPARABLE}` },
    patterns: [
      {
        name: 'claim a category name',
        index: 'table',
        description: 'A conditional Put in the category’s transaction fails when the name is taken.',
      },
    ],
  }),
  item(keys.subcategoryKeys, {
    description: 'A subcategory, in its category’s partition.',
    parts: { categoryId: 'its category’s id' },
    patterns: [
      { name: 'get a subcategory', index: 'table', description: 'One GetItem by company, category and id.' },
      {
        name: 'list a category’s subcategories',
        index: 'table',
        description: 'A Query of the category’s partition, sort keys beginning with `SUBCATEGORY#`.',
      },
    ],
  }),
  item(keys.subcategoryNameMarkerKeys, {
    description: 'Claims a subcategory name in its category.',
    parts: { categoryId: 'the category’s id', nameKey: `the name, ${COMPARABLE}` },
    patterns: [
      {
        name: 'claim a subcategory name',
        index: 'table',
        description: 'A conditional Put in the subcategory’s transaction fails when the name is taken.',
      },
    ],
  }),
  item(keys.subcategoryFileKeys, {
    description: 'An image (or other file) of a subcategory; its bytes are in the files bucket.',
    parts: { categoryId: 'the subcategory’s category id' },
    patterns: [
      {
        name: 'list a subcategory’s files',
        index: 'table',
        description:
          'A Query of the category’s partition, sort keys beginning with `SUBCATEGORY_FILE#<subcategoryId>#`.',
      },
    ],
  }),
  item(keys.objectKeys, {
    description: 'An object, in a partition of its own.',
    parts: {
      statusBucket: '`active`, or `inactive` for every other status',
      nameKey: `the name, ${COMPARABLE}, then U+0000 and the id (names repeat)`,
    },
    patterns: [
      { name: 'get an object', index: 'table', description: 'One GetItem by company and id.' },
      {
        name: 'list objects of a status by creation',
        index: 'gsi1',
        description: 'A page of a company’s active (or inactive) objects, by creation time.',
      },
      {
        name: 'list objects of a status by name',
        index: 'gsi2',
        description: 'A page of a company’s active (or inactive) objects, by name.',
      },
      {
        name: 'list objects by creation',
        index: 'gsi3',
        description: 'A page of all a company’s objects, by creation time.',
      },
      {
        name: 'list objects by name',
        index: 'gsi4',
        description: 'A page of all a company’s objects, by name.',
      },
      {
        name: 'list a subcategory’s objects',
        index: 'gsi5',
        description:
          'A subcategory’s objects by creation time (its objects page, lists filtered by subcategory).',
      },
      {
        name: 'list a category’s objects',
        index: 'gsi6',
        description: 'A category’s objects by creation time (lists filtered by category).',
      },
    ],
  }),
  item(keys.externalIdMarkerKeys, {
    description: 'Claims an externalId in a company and names the object that holds it.',
    patterns: [
      {
        name: 'claim an externalId',
        index: 'table',
        description: 'A conditional Put in the object’s transaction fails when the externalId is taken.',
      },
      {
        name: 'find an object by externalId',
        index: 'table',
        description: 'One GetItem of the marker, then one of the object it names.',
      },
    ],
  }),
  item(keys.fileKeys, {
    description: 'The record of a file attached to an object; its bytes are in the files bucket.',
    patterns: [
      { name: 'get a file', index: 'table', description: 'One GetItem by company and id.' },
      {
        name: 'list an object’s files',
        index: 'gsi1',
        description: 'A page of an object’s files, by upload time.',
      },
    ],
  }),
  item(keys.uploadSessionKeys, {
    description: 'A presigned upload that was handed out and is not completed yet.',
    patterns: [
      { name: 'get an upload session', index: 'table', description: 'Completing an upload reads it by id.' },
    ],
  }),
  item(keys.importJobKeys, {
    description:
      'An import job, in its company’s imports partition (UUIDv7 ids: the partition sorts by creation).',
    patterns: [
      { name: 'get an import job', index: 'table', description: 'One GetItem by company and id.' },
      {
        name: 'list import jobs',
        index: 'table',
        description:
          'A page of a company’s jobs, newest first, and a COUNT Query of the partition for the total.',
      },
    ],
  }),
  item(keys.importRowKeys, {
    description:
      'A row an import wrote (its outcome), put in the same transaction as its object; expires after 30 days.',
    parts: { importId: 'the job’s id', rowIndex: 'the row’s index in the file, 9 digits' },
    patterns: [
      {
        name: 'resume an import',
        index: 'table',
        description: 'A run that resumes reads which rows of a range are written (and reported) already.',
      },
    ],
  }),
  item(keys.importErrorKeys, {
    description: 'One error entry of a row an import reported.',
    parts: {
      importId: 'the job’s id',
      rowIndex: 'the row’s index in the file, 9 digits',
      issue: 'the entry’s number within its row, 2 digits',
    },
    patterns: [
      {
        name: 'list an import’s errors',
        index: 'table',
        description: 'A page of a job’s error entries in row order.',
      },
    ],
  }),
  item(keys.exportJobKeys, {
    description: 'An export job, in its company’s exports partition.',
    patterns: [{ name: 'get an export job', index: 'table', description: 'One GetItem by company and id.' }],
  }),
  item(keys.walletKeys, {
    description:
      'A wallet of an App, in a partition of its own; a deleted wallet keeps its item but loses its index attributes.',
    parts: { usernameKey: `the username, ${COMPARABLE} (unique in the App: no ties)` },
    patterns: [
      {
        name: 'get a wallet',
        index: 'table',
        description: 'One GetItem by App and id (its operations, login, the session check).',
      },
      {
        name: 'list wallets of a status by creation',
        index: 'gsi1',
        description: 'A page of an App’s wallets in one status, by creation time.',
      },
      {
        name: 'list wallets of a status by username',
        index: 'gsi2',
        description: 'A page of an App’s wallets in one status, by username.',
      },
      {
        name: 'list wallets by creation',
        index: 'gsi3',
        description: 'A page of all an App’s wallets, by creation time.',
      },
      {
        name: 'list wallets by username',
        index: 'gsi4',
        description: 'A page of all an App’s wallets, by username.',
      },
    ],
  }),
  item(keys.walletUsernameMarkerKeys, {
    description: 'Claims a username in an App and names the wallet that holds it.',
    parts: { usernameKey: `the username, ${COMPARABLE}` },
    patterns: [
      {
        name: 'claim a username',
        index: 'table',
        description: 'A conditional Put in the wallet’s transaction fails when the username is taken.',
      },
      { name: 'find a wallet by username', index: 'table', description: 'Login: one GetItem of the marker.' },
    ],
  }),
  item(keys.loginThrottleKeys, {
    description:
      'The login attempts made on a username from one source address since the last success, and until when that address may not try again; expires some minutes after its last attempt.',
    parts: { usernameKey: `the username, ${COMPARABLE}`, addressHash: 'SHA-256 of the source address' },
    patterns: [
      {
        name: 'throttle a login',
        index: 'table',
        description:
          'Login reads the item of its username and address, counts each attempt with a conditional update, and clears it after a success.',
      },
    ],
  }),
  item(keys.walletSessionKeys, {
    description: 'A wallet session, found by the hash of its token.',
    parts: { tokenHash: 'SHA-256 of the session token' },
    patterns: [
      { name: 'check a session', index: 'table', description: 'The authorizer’s GetItem by token hash.' },
    ],
  }),
  item(keys.webhookKeys, {
    description: 'A webhook subscription; a company’s subscriptions are one partition.',
    patterns: [
      { name: 'get a subscription', index: 'table', description: 'One GetItem by company and id.' },
      {
        name: 'list a company’s subscriptions',
        index: 'table',
        description:
          'A Query of the partition: the API’s list, and the delivery function’s fan-out of published events.',
      },
    ],
  }),
  item(keys.deliveryKeys, {
    description:
      'One event to one subscription, with its attempts; in the dead letters (gsi2) only while failed; expires 30 days after the event.',
    parts: { sequence: `${SEQUENCE}: ties within a millisecond list in chain order` },
    patterns: [
      { name: 'get a delivery', index: 'table', description: 'One GetItem (a retry, an attempt recorded).' },
      {
        name: 'list a subscription’s deliveries',
        index: 'gsi1',
        description: 'A page of deliveries, newest first, and their count.',
      },
      {
        name: 'list dead letters',
        index: 'gsi2',
        description:
          'A page of a subscription’s failed deliveries and their count; a replay takes the oldest batch.',
      },
    ],
  }),
  item(keys.localQueueMessageKeys, {
    description:
      'A message of the delivery queue (a delivery, or a company’s events to fan out) in local mode (`npm start`), which has no SQS; each company’s messages are a partition of their own, sorted by lane.',
    parts: {
      lane: 'the lane (message group), URI-encoded',
      counter: 'messages sent in the same millisecond, 6 digits',
    },
    patterns: [
      {
        name: 'receive messages',
        index: 'table',
        description:
          'The oldest message of each lane: a Query of one item after the previous lane’s messages, lane after lane.',
      },
    ],
  }),
  item(keys.localQueueCompanyKeys, {
    description:
      'A company with messages in local mode’s delivery queue; a send sets a new `sendId` and counts itself in `sending` while it writes, so that a worker takes the company off only if no send was under way when it looked and none came since.',
    patterns: [
      {
        name: 'list queued companies',
        index: 'table',
        description: 'A Query of the registry, at each look.',
      },
    ],
  }),
  item(keys.ledgerEventKeys, {
    description:
      'A ledger event, in its chain’s partition; put only with `attribute_not_exists` (no function may update or delete it).',
    parts: {
      kind: '`object` or `subcategory`',
      entityId: 'the object’s or subcategory’s id',
      sequence: SEQUENCE,
      action: 'the event’s action (`create`, `transfer`, `REMOVE`, ...)',
    },
    patterns: [
      { name: 'get an event', index: 'table', description: 'One GetItem by chain and sequence.' },
      {
        name: 'list a chain’s events',
        index: 'table',
        description:
          'A window of sequences (a `BETWEEN` of sort keys: sequences are dense from 1), or the whole chain.',
      },
      {
        name: 'find a time range’s sequences',
        index: 'gsi1',
        description:
          'One single-item Query per bound: the first event at or after an instant, or the last before one.',
      },
      {
        name: 'list the company’s activity',
        index: 'gsi2',
        description:
          'One Query of a page, newest first, the time range as a sort key condition (`GET /v2/events`).',
      },
      {
        name: 'list the company’s activity of one action',
        index: 'gsi3',
        description: 'As above, in the partition of the action.',
      },
    ],
  }),
  item(keys.ledgerHeadKeys, {
    description: 'The head of a ledger chain (event count, last hash), in one of 16 shared partitions.',
    parts: {
      shard: 'the first two bytes of SHA-256 of the chain id, modulo 16',
      chainId: '`<kind>:<tenantId>:<entityId>`',
    },
    patterns: [
      {
        name: 'append to a chain',
        index: 'table',
        description: 'A Put conditioned on the head’s last hash, in the transaction of each event.',
      },
      {
        name: 'list every chain head',
        index: 'table',
        description: 'A Query of each shard (the ledger audit and export).',
      },
    ],
  }),
  item(keys.logOutboxKeys, {
    description:
      'An event waiting for the log, put in the event’s own transaction; the sequencer deletes it once integrated.',
    parts: {
      shard: 'the first two bytes of SHA-256 of the chain id, modulo 4',
      chainId: '`<kind>:<tenantId>:<entityId>`',
      sequence: SEQUENCE,
    },
    patterns: [
      {
        name: 'read the outbox',
        index: 'table',
        description:
          'The sequencer Queries each shard, oldest first; an insert starts the sequencer (stream filter).',
      },
    ],
  }),
  item(keys.logStateKeys, {
    description:
      'The sequencer’s state: tree size, root, checkpoint, its lease and the batch being integrated.',
    patterns: [
      {
        name: 'read the log state',
        index: 'table',
        description: 'One GetItem: the checkpoint the API serves; the sequencer’s lease and pending batch.',
      },
    ],
  }),
  item(keys.logPositionKeys, {
    description: 'Where an integrated event sits in the log (`logIndex`).',
    parts: { chainId: '`<kind>:<tenantId>:<entityId>`', sequence: SEQUENCE },
    patterns: [
      { name: 'get an event’s log index', index: 'table', description: 'One GetItem (an inclusion proof).' },
      {
        name: 'list a chain’s log indexes',
        index: 'table',
        description: 'A Query of the chain’s positions.',
      },
    ],
  }),
];
