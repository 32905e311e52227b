/**
 * Import jobs (extension) and the error entries of their reported rows: their attributes, written
 * once, and their item codecs. No code behind them: the operation table, the schemas and the
 * OpenAPI document read the values they take without loading a client or a parser. Their keys:
 * `importJobKeys`, `importRowKeys`, `importErrorKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { PERMISSIONS, type PrincipalType } from '#shared/principal.js';
import { ROLE_NAMES } from '#shared/roles.js';
import {
  arrayOf,
  boolean,
  dateTime,
  documented,
  integer,
  nullable,
  objectOf,
  oneOf,
  string,
} from '#shared/schema.js';

export const IMPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const IMPORT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_MODES = ['create', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** The item attribute of each count: updates ADD to them one by one. */
export const COUNT_ATTRIBUTES = {
  total: 'totalCount',
  created: 'createdCount',
  updated: 'updatedCount',
  skipped: 'skippedCount',
  failed: 'failedCount',
} as const;

const uuid = () => string({ format: 'uuid' });
const count = (description: string) => documented(integer({ min: 0 }), { description });

export const importJobEntity = defineEntity('import', {
  id: attribute(uuid()),
  companyId: attribute(uuid(), { hidden: true }),
  status: attribute(oneOf(IMPORT_STATUSES), { description: 'pending: waiting for its presigned upload' }),
  format: attribute(oneOf(IMPORT_FORMATS)),
  mode: attribute(oneOf(IMPORT_MODES)),
  fileName: attribute(nullable(string())),
  /** Where the file is kept while the job runs (the files bucket's staging prefix). */
  sourceKey: attribute(string(), { hidden: true }),
  /** Target of rows that name none. */
  defaultCategoryId: attribute(nullable(uuid()), { hidden: true }),
  defaultSubcategoryId: attribute(nullable(uuid()), { hidden: true }),
  /** Create categories and subcategories named by rows that do not exist yet. */
  createMissing: attribute(boolean(), { hidden: true }),
  performedBy: attribute(nullable(string()), { hidden: true }),
  /** The caller that created the job: the actor of every ledger event it writes. */
  principal: attribute(
    objectOf({
      type: oneOf<PrincipalType>(['company', 'app']),
      keyId: string(),
      permissions: arrayOf(oneOf(PERMISSIONS)),
    }),
    { hidden: true },
  ),
  /** The person behind `principal` when one signed in created the job: the actor of its events. */
  person: attribute(nullable(objectOf({ principal: string(), role: oneOf(ROLE_NAMES) })), {
    hidden: true,
    missing: null,
  }),
  counts: attribute(
    objectOf({
      total: count('rows in the file (known once the job runs)'),
      created: count('objects created'),
      updated: count('objects updated (upsert)'),
      skipped: count('rows not written: externalId exists (create, reported), or nothing to change (upsert)'),
      failed: count('rows refused (reported)'),
    }),
    {
      description: 'rows by outcome',
      storedAcross: COUNT_ATTRIBUTES,
      missing: { total: 0, created: 0, updated: 0, skipped: 0, failed: 0 },
    },
  ),
  /** Number of error entries (`GET .../errors`). */
  errorCount: attribute(integer({ min: 0 }), { description: 'error entries (GET .../errors)' }),
  /** Rows before this index are done and counted. */
  nextIndex: attribute(integer({ min: 0 }), { hidden: true }),
  ignoredColumns: attribute(arrayOf(string()), {
    description: 'columns of the file that the import does not read',
  }),
  error: attribute(
    nullable(
      objectOf(
        {
          code: documented(string(), {
            description:
              'FILE_EMPTY (no header row), HEADER_INVALID (not CSV, not UTF-8, or a column twice), FILE_MISSING (the stored file expired before the job ran)',
          }),
          message: string(),
        },
        { description: 'why the whole job failed (status failed; no row was read)' },
      ),
    ),
  ),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  startedAt: attribute(nullable(dateTime())),
  completedAt: attribute(nullable(dateTime())),
  /** A presigned upload's deadline (jobs waiting for their file). */
  uploadExpiresAt: attribute(nullable(dateTime()), { hidden: true }),
});

export type ImportJobRecord = RecordOf<typeof importJobEntity>;
export type ImportCounts = ImportJobRecord['counts'];

/** One error entry: a reported row's issue. */
export const importErrorEntity = defineEntity('importError', {
  row: attribute(integer({ min: 1 }), { description: 'the line the row starts on (a CSV header is row 1)' }),
  field: attribute(string(), { description: 'the column, or `row` for the whole row' }),
  code: attribute(string(), {
    description:
      'those of spec 4.3 (REQUIRED, LENGTH_INVALID, TYPE_INVALID, SIZE_INVALID, ...), SUBCATEGORY_NOT_FOUND, SUBCATEGORY_NOT_ACTIVE, SUBCATEGORY_MISMATCH, EXTERNAL_ID_EXISTS (skipped), DUPLICATE_EXTERNAL_ID, CSV_SYNTAX_INVALID, COLUMN_COUNT_INVALID, ENCODING_INVALID, JSON_INVALID',
  }),
  message: attribute(string()),
  /** `failed`, or `skipped` (create mode: the externalId exists). */
  outcome: attribute(oneOf(['failed', 'skipped']), {
    description: 'skipped: create mode, the externalId exists',
  }),
});

export type ImportErrorRecord = RecordOf<typeof importErrorEntity>;
