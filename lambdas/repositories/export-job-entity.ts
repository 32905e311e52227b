/** Export jobs (extension): their attributes, written once, and their item codec (keys: `table-keys.ts`). */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import { dateTime, integer, nullable, oneOf, string, writtenByService } from '#shared/schema.js';

/** Formats of an export (`export-format.ts` writes them; kept here so the operation table loads no CSV writer). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORT_STATUSES = ['running', 'completed', 'failed'] as const;

export const exportJobEntity = defineEntity('export', {
  id: attribute(string({ format: 'uuid' })),
  companyId: attribute(string({ format: 'uuid' }), { hidden: true }),
  status: attribute(oneOf(EXPORT_STATUSES)),
  format: attribute(oneOf(EXPORT_FORMATS)),
  /** The filters and sort of spec 4.1, as asked. */
  parameters: attribute(
    writtenByService<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } }),
    { description: 'the filters and sort asked' },
  ),
  /** The S3 key of the file. */
  resultKey: attribute(string(), { hidden: true }),
  rowCount: attribute(nullable(integer({ min: 0 }))),
  size: attribute(nullable(integer({ min: 0 })), { description: 'bytes' }),
  error: attribute(nullable(string()), { description: 'why the job failed (status failed)' }),
  createdAt: attribute(dateTime()),
  completedAt: attribute(nullable(dateTime())),
});

export type ExportJobRecord = RecordOf<typeof exportJobEntity>;
