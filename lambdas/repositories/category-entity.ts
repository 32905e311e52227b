/**
 * The category entity (spec 2.3): its attributes, written once, and their item codec. Its keys
 * and indexes: `categoryKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { nameText } from '#shared/name-text.js';
import { dateTime, integer, metadata, oneOf, string } from '#shared/schema.js';

export const CATEGORY_STATUSES = ['active', 'inactive', 'archived'] as const;
export type CategoryStatus = (typeof CATEGORY_STATUSES)[number];

export const categoryEntity = defineEntity('category', {
  id: attribute(string({ format: 'uuid' })),
  companyId: attribute(string({ format: 'uuid' }), { hidden: true }),
  name: attribute(nameText(string({ min: 2, max: 100 })), {
    description: '2-100 characters, unique within the company ignoring case',
  }),
  description: attribute(string({ max: 500 })),
  status: attribute(oneOf(CATEGORY_STATUSES)),
  metadata: attribute(metadata(), { storedAs: 'json', description: 'free key-value pairs, as stored' }),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  /** Bumped by every write; the condition of the next write (optimistic locking). */
  version: attribute(integer({ min: 1 }), { hidden: true }),
  // Items written before the statistics existed lack them.
  subcategoryCount: attribute(integer({ min: 0 }), { missing: 0 }),
  objectCount: attribute(integer({ min: 0 }), { missing: 0 }),
});

export type CategoryRecord = RecordOf<typeof categoryEntity>;
