/** Request shapes of the import operations (extension: bulk import of objects). */
import { fileNameText } from '#shared/name-text.js';
import { pageQueryFields } from '#shared/pagination.js';
import { PERFORMED_BY_MAX } from '#shared/principal.js';
import {
  boolean,
  defaulted,
  type Infer,
  integer,
  object,
  oneOf,
  optional,
  required,
  string,
} from '#shared/schema.js';
import { IMPORT_FORMATS, IMPORT_MODES, type ImportMode } from './import-job.js';

/** Files sent in the request itself: Lambda takes 6 MB of request, base64 makes it larger. */
export const IMPORT_INLINE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What an import with `createMissing` needs beside `objects:write`: it creates categories and
 * subcategories. The import row's condition and the runner (for a job's recorded key) both read it.
 */
export const CREATE_MISSING_PERMISSIONS = ['categories:write'] as const;
/** Files sent with a presigned upload, as large files are. */
export const IMPORT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/**
 * The most columns a CSV header (or distinct fields a JSON Lines file) may have. An import reads
 * 18 named columns plus `metadata.<key>` ones; the rest are listed in the job's
 * `ignoredColumns`, so this bound (with the next) keeps the job record far below DynamoDB's
 * 400 KB item limit.
 */
export const IMPORT_COLUMNS_MAX = 500;
/** The longest column (or JSON field) name, in characters. */
export const IMPORT_COLUMN_NAME_MAX_LENGTH = 128;
/** Content types of a file sent as the whole request body. */
export const IMPORT_BODY_TYPES = {
  'text/csv': 'csv',
  'application/jsonl': 'jsonl',
  'application/x-ndjson': 'jsonl',
  'application/x-jsonlines': 'jsonl',
} as const;

const uuid = () => string({ format: 'uuid' });

/**
 * The job's options, as query parameters, form fields or JSON fields (a field wins over the
 * same query parameter); none has a default here, so that the two can be merged
 * (`importOptionsOf`).
 */
const importOptionFields = {
  format: optional(
    oneOf(IMPORT_FORMATS),
    'csv or jsonl; by default from the content type or the file name, else csv',
  ),
  mode: optional(
    oneOf(IMPORT_MODES),
    'create (default): rows whose externalId exists are skipped and reported; upsert: they update the object (action update)',
  ),
  categoryId: optional(uuid(), 'target of rows that name no subcategory, with subcategoryId'),
  subcategoryId: optional(uuid(), 'target of rows that name no subcategory'),
  createMissing: optional(
    boolean({ fromQueryString: true }),
    'true: categories and subcategories named by rows (category, subcategory) are created where missing (default false)',
  ),
  performedBy: optional(string({ max: PERFORMED_BY_MAX }), "recorded in each row's ledger event"),
  fileName: optional(
    fileNameText(),
    'the file name to keep with the job; no control or bidirectional formatting characters',
  ),
};

export const createImportQuery = object(importOptionFields);

/** Form or JSON fields; JSON with `size` and no file asks for a presigned upload. */
export const createImportFields = object({
  ...importOptionFields,
  size: optional(
    integer({ min: 1, max: IMPORT_UPLOAD_MAX_BYTES, fromJsonOrText: true }),
    'JSON only: the size in bytes of a file to send with a presigned upload (then POST .../start)',
  ),
});

export const importIdPath = object({ importId: required(uuid()) });

export const listImportsQuery = object({ ...pageQueryFields() });

export const listImportErrorsQuery = object({
  ...pageQueryFields(),
  format: defaulted(oneOf(['json', 'csv'] as const), 'json', 'csv: every error entry as a CSV download'),
});

export type ImportOptions = Infer<typeof createImportFields.shape>;

/** Query parameters and fields merged (fields first), with the defaults. */
export function importOptionsOf(
  query: Infer<typeof createImportQuery.shape>,
  fields: ImportOptions,
): ImportOptions & { mode: ImportMode; createMissing: boolean } {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const merged: ImportOptions = { ...query, ...given };
  return { ...merged, mode: merged.mode ?? 'create', createMissing: merged.createMissing ?? false };
}
