/** Request shapes of the export operations (extension). */
import { defaulted, object, oneOf, required, string } from '#shared/schema.js';
import { listObjectsQuery } from '../objects/object-schemas.js';

/** Formats of an export (`export-format.ts` writes them; kept here so the operation table loads no CSV writer). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const { limit: _limit, offset: _offset, cursor: _cursor, ...listFilters } = listObjectsQuery.shape;

/** The filters and sort of spec 4.1, and the format. */
export const exportObjectsQuery = object({
  ...listFilters,
  format: defaulted(oneOf(EXPORT_FORMATS), 'csv', 'csv (RFC 4180) or jsonl (JSON Lines)'),
});

export const exportIdPath = object({ exportId: required(string({ format: 'uuid' })) });
