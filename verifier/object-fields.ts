/**
 * The fields of an object that its ledger events record in `changes` (and that a replay of the
 * events sets): the service's replay, the inventory verifier and the console's diff read this
 * one list.
 */
export const TRACKED_OBJECT_FIELDS = [
  'externalId',
  'name',
  'description',
  'summary',
  'owner',
  'status',
  'categoryId',
  'subcategoryId',
  'metadata',
] as const;
