/** Request shapes of the export operations (extension). */
import { EXPORT_FORMATS } from '#repositories/export-job-entity.js';
import { defaulted, object, oneOf, required, string } from '#shared/schema.js';
import { listObjectsQuery } from '../objects/object-schemas.js';

export { EXPORT_FORMATS, type ExportFormat } from '#repositories/export-job-entity.js';

const { limit: _limit, offset: _offset, cursor: _cursor, ...listFilters } = listObjectsQuery.shape;

/** The filters and sort of spec 4.1, and the format. */
export const exportObjectsQuery = object({
  ...listFilters,
  format: defaulted(oneOf(EXPORT_FORMATS), 'csv', 'csv (RFC 4180) or jsonl (JSON Lines)'),
});

export const exportIdPath = object({ exportId: required(string({ format: 'uuid' })) });
