/**
 * The subcategory entity (spec 2.4) and its image files: attributes written once, and their item
 * codecs. Their keys: `subcategoryKeys`, `subcategoryFileKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { nameText } from '#shared/name-text.js';
import { dateTime, integer, metadata, nullable, oneOf, string } from '#shared/schema.js';

export const SUBCATEGORY_STATUSES = ['active', 'delisted', 'removed'] as const;

const uuid = () => string({ format: 'uuid' });

export const subcategoryEntity = defineEntity('subcategory', {
  id: attribute(uuid()),
  companyId: attribute(uuid(), { hidden: true }),
  // The spec sets no bounds on a subcategory name: we use the category name's, 2-100 characters.
  name: attribute(nameText(string({ min: 2, max: 100 }))),
  description: attribute(string({ max: 2048 })),
  status: attribute(oneOf(SUBCATEGORY_STATUSES)),
  categoryId: attribute(uuid()),
  imageId: attribute(nullable(uuid()), { missing: null, description: 'the current image, one of `files`' }),
  metadata: attribute(metadata(), { storedAs: 'json', description: 'free key-value pairs, as stored' }),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  /** Bumped by every write of the subcategory itself (optimistic locking). */
  version: attribute(integer({ min: 1 }), { hidden: true }),
  objectCount: attribute(integer({ min: 0 }), { missing: 0 }),
  /** Objects of the subcategory whose status is `active` (the rest count as inactive). */
  activeObjectCount: attribute(integer({ min: 0 }), { hidden: true, missing: 0 }),
  lastObjectCreated: attribute(nullable(dateTime()), {
    missing: null,
    description: 'null until the first object',
  }),
  /** Length of the subcategory's own ledger chain. */
  eventCount: attribute(integer({ min: 1 }), { hidden: true }),
  lastTxId: attribute(string(), { hidden: true }),
});

export type SubcategoryRecord = RecordOf<typeof subcategoryEntity>;

/** An image (or other file) attached to a subcategory: the `files` of the detail view. */
export const subcategoryFileEntity = defineEntity('subcategoryFile', {
  id: attribute(uuid()),
  subcategoryId: attribute(uuid(), { hidden: true }),
  name: attribute(string(), { description: 'stored name' }),
  title: attribute(string(), { description: 'name as uploaded' }),
  mimeType: attribute(string()),
  size: attribute(integer({ min: 0 }), { hidden: true }),
  uploadDate: attribute(dateTime()),
  storageKey: attribute(string(), { hidden: true }),
});

export type SubcategoryFileRecord = RecordOf<typeof subcategoryFileEntity>;
