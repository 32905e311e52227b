/**
 * One import record as the fields of spec 4.3 and its target subcategory, validated with the
 * very schema the create operation uses (`createObjectBody`), so a row meets the same limits
 * as a POST. Columns: `externalId`, `name`, `description`, `summary`, `owner`; the target by
 * `subcategoryId` (and `categoryId`), or by the names `category` and `subcategory`; metadata
 * as a `metadata` column of JSON and as `metadata.<key>` columns of text. An export's other
 * columns (`id`, `status`, times, ledger ids) are read-only and ignored, so an export imports back.
 */
import type { FieldIssue } from '#shared/errors.js';
import type { Infer, Metadata } from '#shared/schema.js';
import { UUID_PATTERN } from '#shared/schema.js';
import { withoutFormulaGuard } from '../exports/formula-guard.js';
import { createObjectBody } from '../objects/object-schemas.js';
import type { ImportFormat } from './import-job.js';

export type ObjectInput = Infer<typeof createObjectBody.shape>;

/** Where a row's object goes: ids, names, or both (ids first, names where the ids are not this company's). */
export interface RowTarget {
  categoryId?: string;
  subcategoryId?: string;
  category?: string;
  subcategory?: string;
}

export interface ImportRow {
  input?: ObjectInput;
  target: RowTarget;
  issues: FieldIssue[];
}

const METADATA_COLUMN_PREFIX = 'metadata.';
const TARGET_COLUMNS = ['categoryId', 'subcategoryId', 'category', 'subcategory'] as const;
/** Columns an export writes that an import does not take (the service sets them). */
const READ_ONLY_COLUMNS = [
  'id',
  'status',
  'createdAt',
  'updatedAt',
  'txId',
  'lastTxId',
  'eventCount',
  'blockchain',
] as const;
const OBJECT_COLUMNS = Object.keys(createObjectBody.shape);

/** The columns an import reads; any other is reported as ignored. */
export const isKnownColumn = (column: string): boolean =>
  OBJECT_COLUMNS.includes(column) ||
  (TARGET_COLUMNS as readonly string[]).includes(column) ||
  (READ_ONLY_COLUMNS as readonly string[]).includes(column) ||
  (column.startsWith(METADATA_COLUMN_PREFIX) && column.length > METADATA_COLUMN_PREFIX.length);

/** A CSV cell's text as a value: empty is "not given", as an absent JSON field is. */
function cellValue(value: unknown, format: ImportFormat): unknown {
  if (format === 'jsonl') return value === null ? undefined : value;
  if (typeof value !== 'string' || value === '') return undefined;
  return withoutFormulaGuard(value);
}

/** The row's externalId as its object would get it (a CSV cell without its formula guard). */
export function externalIdOf(values: Record<string, unknown>, format: ImportFormat): string | undefined {
  const value = cellValue(values.externalId, format);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readMetadata(
  values: Record<string, unknown>,
  format: ImportFormat,
  issues: FieldIssue[],
): Metadata | undefined {
  let metadata: unknown = cellValue(values.metadata, format);
  if (format === 'csv' && typeof metadata === 'string') {
    try {
      metadata = JSON.parse(metadata);
    } catch {
      issues.push({ field: 'metadata', code: 'TYPE_INVALID', message: 'metadata must be a JSON object' });
      return undefined;
    }
  }
  const columns = Object.keys(values).filter(
    (column) => column.startsWith(METADATA_COLUMN_PREFIX) && cellValue(values[column], format) !== undefined,
  );
  if (columns.length === 0) return metadata as Metadata | undefined;
  if (
    metadata !== undefined &&
    (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
  ) {
    return metadata as Metadata; // the schema reports it
  }
  const merged: Metadata = { ...((metadata as Metadata | undefined) ?? {}) };
  for (const column of columns) {
    Object.defineProperty(merged, column.slice(METADATA_COLUMN_PREFIX.length), {
      value: cellValue(values[column], format),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

function readTarget(values: Record<string, unknown>, format: ImportFormat, issues: FieldIssue[]): RowTarget {
  const target: RowTarget = {};
  for (const column of TARGET_COLUMNS) {
    const value = cellValue(values[column], format);
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      issues.push({ field: column, code: 'TYPE_INVALID', message: `${column} must be a string` });
      continue;
    }
    if ((column === 'categoryId' || column === 'subcategoryId') && !UUID_PATTERN.test(value)) {
      issues.push({ field: column, code: 'FORMAT_INVALID', message: `${column} must be a UUID` });
      continue;
    }
    target[column] = value;
  }
  return target;
}

/** Reads a record's values into an object's fields and target, with every issue found. */
export function toImportRow(values: Record<string, unknown>, format: ImportFormat): ImportRow {
  const issues: FieldIssue[] = [];
  const fields: Record<string, unknown> = {};
  for (const column of OBJECT_COLUMNS) {
    if (column === 'metadata') continue;
    const value = cellValue(values[column], format);
    if (value !== undefined) fields[column] = value;
  }
  const metadata = readMetadata(values, format, issues);
  if (metadata !== undefined) fields.metadata = metadata;
  const target = readTarget(values, format, issues);
  const input = createObjectBody.read(fields, 'row', issues);
  return { input: issues.length === 0 ? input : undefined, target, issues };
}
