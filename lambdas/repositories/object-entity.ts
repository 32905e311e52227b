/**
 * The object entity (spec 2.2): its attributes, written once, and their item codec. Its keys and
 * indexes: `objectKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { nameText } from '#shared/name-text.js';
import { dateTime, integer, metadata, nullable, oneOf, string } from '#shared/schema.js';

/** An object's statuses; `object-lifecycle.ts` says which action leads to which. */
const OBJECT_STATUSES = ['active', 'stolen'] as const;
export type ObjectStatus = (typeof OBJECT_STATUSES)[number];

const uuid = () => string({ format: 'uuid' });
const sha256Hex = () => string({ pattern: /^[0-9a-f]{64}$/ });

export const objectEntity = defineEntity('object', {
  id: attribute(uuid()),
  companyId: attribute(uuid(), { hidden: true }),
  externalId: attribute(string({ min: 1, max: 100 }), {
    description: '1-100 characters, unique within the company',
  }),
  name: attribute(nameText(string({ min: 2, max: 200 }))),
  description: attribute(string({ max: 1000 })),
  summary: attribute(nullable(string({ max: 500 })), { missing: null, description: 'null when not given' }),
  owner: attribute(nameText(string({ max: 100 })), { description: 'a name: no control characters' }),
  status: attribute(oneOf(OBJECT_STATUSES), {
    description: 'extension: `report_stolen` leads to `stolen`, `repair` back to `active`',
  }),
  categoryId: attribute(uuid()),
  subcategoryId: attribute(uuid()),
  metadata: attribute(metadata(), { storedAs: 'json', description: 'free key-value pairs, as stored' }),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  /** Hash of the first ledger event. */
  txId: attribute(sha256Hex(), { description: "the first event's hash" }),
  /** Hash of the latest ledger event. */
  lastTxId: attribute(sha256Hex(), { description: "the latest event's hash" }),
  /** Number of ledger events; the condition of the next write (optimistic concurrency). */
  eventCount: attribute(integer({ min: 1 })),
  /** Number of files attached (items written before files existed lack it). */
  fileCount: attribute(integer({ min: 0 }), { hidden: true, missing: 0 }),
});

export type ObjectRecord = RecordOf<typeof objectEntity>;
