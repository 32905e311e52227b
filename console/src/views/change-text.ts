/**
 * Readable words for the ledger's `changes` (`{ field: { from, to } }`): one line per change,
 * with names beside ids (`category: — → Vehicles (ff14…)`), a file's name for its upload
 * (`file uploaded: service-log.txt`), one line per metadata key; and the differences between two
 * states of an object (field, before, after).
 */
import { TRACKED_OBJECT_FIELDS } from '../../../verifier/object-fields';

/**
 * Names of categories and subcategories by id (`useCatalogue()`'s). Declared here, not imported,
 * so that this module needs no DOM or API types (its unit test runs in Node).
 */
export interface Names {
  categoryName: (id: string | null | undefined) => string | undefined;
  subcategoryName: (id: string | null | undefined) => string | undefined;
}

type Change = { from?: unknown; to?: unknown } | undefined;

/** A value as one line: text as it is, nothing as `—`, anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An id with its name in front when the catalogue knows it: `Vehicles (ff14b2…)`. */
function named(id: unknown, name: (id: string) => string | undefined): string {
  if (typeof id !== 'string') return valueText(id);
  const known = name(id);
  return known ? `${known} (${id.slice(0, 8)}…)` : id;
}

const FIELD_WORDS: Record<string, string> = {
  categoryId: 'category',
  subcategoryId: 'subcategory',
  externalId: 'external id',
};

const fileName = (file: unknown): string =>
  typeof file === 'object' && file !== null && 'originalFileName' in file
    ? String((file as { originalFileName: unknown }).originalFileName)
    : valueText(file);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value of a field as shown: ids named, the rest as one line. */
function fieldValueText(field: string, value: unknown, catalogue?: Names): string {
  if (field === 'categoryId' && catalogue) return named(value, catalogue.categoryName);
  if (field === 'subcategoryId' && catalogue) return named(value, catalogue.subcategoryName);
  return valueText(value);
}

/**
 * The lines of one event's changes.
 *
 * @example
 * changeLines({ owner: { from: 'Alice', to: 'Bob' } }); // ['owner: Alice → Bob']
 */
export function changeLines(changes: Record<string, Change> | undefined, catalogue?: Names): string[] {
  return Object.entries(changes ?? {}).flatMap(([field, change]) => {
    const from = change?.from;
    const to = change?.to;
    if (field === 'file') {
      if (to && !from) return [`file uploaded: ${fileName(to)}`];
      if (from && !to) return [`file deleted: ${fileName(from)}`];
    }
    if (field === 'metadata' && (isRecord(from) || isRecord(to))) {
      const before = isRecord(from) ? from : {};
      const after = isRecord(to) ? to : {};
      const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
      return keys
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => `metadata ${key}: ${valueText(before[key])} → ${valueText(after[key])}`);
    }
    const words = FIELD_WORDS[field] ?? field;
    const before = fieldValueText(field, from, catalogue);
    const after = fieldValueText(field, to, catalogue);
    // A field created empty (`description: null → ""`) reads as no change.
    return before === after ? [] : [`${words}: ${before} → ${after}`];
  });
}

/** One row of a diff between two states of an object. */
export interface FieldDifference {
  field: string;
  before: string;
  after: string;
}

/** The tracked fields a diff compares one to one; metadata is compared key by key below. */
const TRACKED_FIELDS = TRACKED_OBJECT_FIELDS.filter(
  (field): field is Exclude<(typeof TRACKED_OBJECT_FIELDS)[number], 'metadata'> => field !== 'metadata',
);

type TrackedState = { [Field in (typeof TRACKED_FIELDS)[number]]?: unknown } & { metadata?: unknown };

/** The fields that differ between two states, metadata key by key. */
export function stateDifferences(
  before: TrackedState,
  after: TrackedState,
  catalogue?: Names,
): FieldDifference[] {
  const rows: FieldDifference[] = [];
  for (const field of TRACKED_FIELDS) {
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    rows.push({
      field: FIELD_WORDS[field] ?? field,
      before: fieldValueText(field, before[field], catalogue),
      after: fieldValueText(field, after[field], catalogue),
    });
  }
  const metadataBefore = isRecord(before.metadata) ? before.metadata : {};
  const metadataAfter = isRecord(after.metadata) ? after.metadata : {};
  for (const key of [...new Set([...Object.keys(metadataBefore), ...Object.keys(metadataAfter)])].sort()) {
    if (JSON.stringify(metadataBefore[key]) === JSON.stringify(metadataAfter[key])) continue;
    rows.push({
      field: `metadata ${key}`,
      before: valueText(metadataBefore[key]),
      after: valueText(metadataAfter[key]),
    });
  }
  return rows;
}
