/**
 * How an export writes objects: CSV (RFC 4180, CRLF, a header row) or JSON Lines. CSV cells that
 * a spreadsheet would run as a formula get a leading `'` (`formula-guard.ts`).
 */
import { stringify } from 'csv-stringify/sync';
import type { ObjectView } from '../objects/object-view.js';
import type { ExportFormat } from './export-schemas.js';
import { withFormulaGuard } from './formula-guard.js';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** An exported object: its entity (spec 2.2) with the names of its category and subcategory. */
export type ExportedObject = ObjectView & { category: string | null; subcategory: string | null };

/** The CSV columns, in order: what the import reads back, then what the service sets. */
const EXPORT_CSV_COLUMNS = [
  'id',
  'externalId',
  'name',
  'description',
  'summary',
  'owner',
  'status',
  'categoryId',
  'category',
  'subcategoryId',
  'subcategory',
  'metadata',
  'createdAt',
  'updatedAt',
  'txId',
  'lastTxId',
  'eventCount',
] as const;

function csvCell(object: ExportedObject, column: (typeof EXPORT_CSV_COLUMNS)[number]): string {
  switch (column) {
    case 'metadata':
      return JSON.stringify(object.metadata);
    case 'txId':
    case 'lastTxId':
    case 'eventCount':
      return String(object.blockchain[column]);
    default:
      return object[column] ?? '';
  }
}

/**
 * Rows as RFC 4180 text: CRLF after each record, and a field quoted when it holds a comma, a
 * quote or any line break (csv-stringify alone quotes only the record delimiter itself).
 */
export const csvText = (rows: string[][]): string =>
  stringify(rows, { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });

/** The first bytes of a file of this format (the CSV header row). */
export const exportHeader = (format: ExportFormat): string =>
  format === 'csv' ? csvText([[...EXPORT_CSV_COLUMNS]]) : '';

/** Objects as lines of the format. */
export function exportLines(format: ExportFormat, objects: readonly ExportedObject[]): string {
  if (format === 'jsonl') return objects.map((object) => `${JSON.stringify(object)}\n`).join('');
  return csvText(
    objects.map((object) => EXPORT_CSV_COLUMNS.map((column) => withFormulaGuard(csvCell(object, column)))),
  );
}
