/** Response schemas of the import and export operations (extension), matching their views. */
import { IMPORT_MODES, IMPORT_STATUSES } from '#domain/imports/import-job.js';
import type { JsonSchema } from '#shared/schema.js';
import { closed, pageOf } from './schema-shapes.js';

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const formats: JsonSchema = { type: 'string', enum: ['csv', 'jsonl'] };

const importFields: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid' },
  status: {
    type: 'string',
    enum: [...IMPORT_STATUSES],
    description: 'pending: waiting for its presigned upload',
  },
  format: formats,
  mode: { type: 'string', enum: [...IMPORT_MODES] },
  fileName: { type: ['string', 'null'] },
  counts: closed(
    {
      total: count('rows in the file (known once the job runs)'),
      created: count('objects created'),
      updated: count('objects updated (upsert)'),
      skipped: count('rows not written: externalId exists (create, reported), or nothing to change (upsert)'),
      failed: count('rows refused (reported)'),
    },
    'rows by outcome',
  ),
  processed: count('rows done so far'),
  errorCount: count('error entries (GET .../errors)'),
  ignoredColumns: {
    type: 'array',
    items: { type: 'string' },
    description: 'columns of the file that the import does not read',
  },
  error: {
    oneOf: [
      { type: 'null' },
      closed(
        {
          code: {
            type: 'string',
            description:
              'FILE_EMPTY (no header row), HEADER_INVALID (not CSV, not UTF-8, or a column twice), FILE_MISSING (the stored file expired before the job ran)',
          },
          message: { type: 'string' },
        },
        'why the whole job failed (status failed; no row was read)',
      ),
    ],
  },
  createdAt: time,
  updatedAt: time,
  startedAt: nullableTime,
  completedAt: nullableTime,
  errorsPath: { type: 'string', description: 'where the error entries are' },
};

export const importResponseSchemas = {
  Import: closed(importFields, 'Extension: an import job'),
  ImportCreated: closed(
    {
      ...importFields,
      upload: closed(
        {
          method: { type: 'string', enum: ['POST'] },
          url: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' } },
          expiresAt: time,
          maxBytes: count('largest file'),
          startPath: { type: 'string', description: 'POST here once the file is uploaded' },
        },
        'the presigned upload (only when the request gave size instead of a file)',
      ),
    },
    'Extension: the new import job; with `upload` when the file is to be sent by presigned upload',
    ['upload'],
  ),
  ImportPage: pageOf('Import', "Extension: a page of the company's imports, newest first"),
  ImportError: closed(
    {
      row: { type: 'integer', minimum: 1, description: 'the line the row starts on (a CSV header is row 1)' },
      field: { type: 'string', description: 'the column, or `row` for the whole row' },
      code: {
        type: 'string',
        description:
          'those of spec 4.3 (REQUIRED, LENGTH_INVALID, TYPE_INVALID, SIZE_INVALID, ...), SUBCATEGORY_NOT_FOUND, SUBCATEGORY_NOT_ACTIVE, SUBCATEGORY_MISMATCH, EXTERNAL_ID_EXISTS (skipped), DUPLICATE_EXTERNAL_ID, CSV_SYNTAX_INVALID, COLUMN_COUNT_INVALID, ENCODING_INVALID, JSON_INVALID',
      },
      message: { type: 'string' },
      outcome: {
        type: 'string',
        enum: ['failed', 'skipped'],
        description: 'skipped: create mode, the externalId exists',
      },
    },
    'Extension: one issue of a reported row',
  ),
  ImportErrorPage: pageOf('ImportError', "Extension: a page of an import's error entries, in row order"),
  ExportJob: closed(
    {
      id: { type: 'string', format: 'uuid' },
      status: { type: 'string', enum: ['running', 'completed', 'failed'] },
      format: formats,
      parameters: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'the filters and sort asked',
      },
      rowCount: { type: ['integer', 'null'], minimum: 0 },
      size: { type: ['integer', 'null'], minimum: 0, description: 'bytes' },
      error: { type: ['string', 'null'], description: 'why the job failed (status failed)' },
      createdAt: time,
      completedAt: nullableTime,
      url: { type: ['string', 'null'], description: 'presigned GET of the file, once completed' },
      urlExpiresAt: nullableTime,
    },
    'Extension: an export too large for one answer, written in the background',
  ),
} satisfies Record<string, JsonSchema>;

export type ImportResponseSchemaName = keyof typeof importResponseSchemas;
