/** What the API returns of an import job and of its error entries. */
import {
  type ImportErrorRecord,
  type ImportJobRecord,
  importErrorEntity,
  importJobEntity,
} from '#repositories/import-job-entity.js';
import { computed, defineView, type ViewOf } from '#shared/entity.js';
import {
  dateTime,
  documented,
  integer,
  objectOf,
  oneOf,
  type SchemaValue,
  string,
  writtenByService,
} from '#shared/schema.js';

export const importView = defineView(importJobEntity, {
  name: 'Import',
  description: 'Extension: an import job',
  fields: {
    processed: computed(integer({ min: 0 }), { description: 'rows done so far', after: 'counts' }),
    errorsPath: computed(string(), { description: 'where the error entries are' }),
  },
});
export type ImportView = ViewOf<typeof importView>;

/** Rows done so far: every count but `total`, added up. */
const processedOf = ({ total: _total, ...done }: ImportJobRecord['counts']) =>
  Object.values(done).reduce((sum, count) => sum + count, 0);

/** `errorsPath` is relative to the API base: `pathPrefix` is the stage prefix (`/prod` in AWS, empty locally). */
export const toImportView = (record: ImportJobRecord, pathPrefix = ''): ImportView =>
  importView.toView(record, {
    processed: processedOf(record.counts),
    errorsPath: `${pathPrefix}/v2/imports/${record.id}/errors`,
  });

/** One issue of a reported row, as the error entries list shows it. */
export const importErrorView = defineView(importErrorEntity, {
  name: 'ImportError',
  description: 'Extension: one issue of a reported row',
});
export type ImportErrorView = ViewOf<typeof importErrorView>;

export const toImportErrorView = (record: ImportErrorRecord): ImportErrorView =>
  importErrorView.toView(record);

/** The presigned upload of a new job whose file is sent separately (not a stored entity). */
export const importUploadSchema = objectOf(
  {
    method: oneOf(['POST']),
    url: string(),
    fields: writtenByService<Record<string, string>>({
      type: 'object',
      additionalProperties: { type: 'string' },
    }),
    expiresAt: dateTime(),
    maxBytes: documented(integer({ min: 0 }), { description: 'largest file' }),
    /** Relative to the API base. */
    startPath: documented(string(), { description: 'POST here once the file is uploaded' }),
  },
  { description: 'the presigned upload (only when the request gave size instead of a file)' },
);
export type ImportUploadView = SchemaValue<typeof importUploadSchema>;
