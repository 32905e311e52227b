/** Request shapes of the export operations (extension). */
import { EXPORT_FORMATS } from '#repositories/export-job-entity.js';
import { boolean, dateTime, defaulted, object, oneOf, optional, required, string } from '#shared/schema.js';
import { listObjectsQuery } from '../objects/object-schemas.js';

export { EXPORT_FORMATS, type ExportFormat } from '#repositories/export-job-entity.js';

const { limit: _limit, offset: _offset, cursor: _cursor, ...listFilters } = listObjectsQuery.shape;

/** The filters and sort of spec 4.1, the format, and the moment (docs/bulk.md, "As of a date"). */
export const exportObjectsQuery = object({
  ...listFilters,
  format: defaulted(oneOf(EXPORT_FORMATS), 'csv', 'csv (RFC 4180) or jsonl (JSON Lines)'),
  asOf: optional(
    dateTime(),
    '(extension) every object as it stood at this instant (ISO 8601 UTC), rebuilt from its ledger events, filters and sort applied to that state; each row adds the event that set it (asOfSequence, asOfHash)',
  ),
  proofs: optional(
    boolean({ fromQueryString: true }),
    '(extension) with asOf and format=jsonl: each row carries the inclusion proofs an offline verifier checks it with, against one checkpoint on the first line',
  ),
});

export const exportIdPath = object({ exportId: required(string({ format: 'uuid' })) });
