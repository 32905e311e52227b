/**
 * How an export writes objects: CSV (RFC 4180, CRLF, a header row) or JSON Lines. CSV cells that
 * a spreadsheet would run as a formula get a leading `'` (`formula-guard.ts`).
 */
import { stringify } from 'csv-stringify/sync';
import type { LedgerEventView } from '../ledger/event-view.js';
import type { ObjectView } from '../objects/object-view.js';
import type { ExportFormat } from './export-schemas.js';
import { withFormulaGuard } from './formula-guard.js';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/**
 * An event of an inventory row with its inclusion proof: the C2SP tlog-proof text less its
 * checkpoint, which the file's first line holds once (docs/ledger.md, "An inventory that
 * verifies offline").
 */
export interface ProvenEvent {
  event: LedgerEventView;
  tlogProof: string;
}

/** With `asOf`: the instant and the event that set the row's state; with `proofs`, their proofs. */
interface AsOfFields {
  asOf: string;
  asOfEvent: { sequence: number; hash: string };
  /** The event that set the state, and the first event after the instant when there is one. */
  proof?: { setBy: ProvenEvent; next?: ProvenEvent };
}

/** An exported object: its entity (spec 2.2) with the names of its category and subcategory. */
export type ExportedObject = ObjectView & {
  category: string | null;
  subcategory: string | null;
} & Partial<AsOfFields>;

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

/** Added after those with `asOf`: the event that set the row's state. */
const AS_OF_CSV_COLUMNS = ['asOfSequence', 'asOfHash'] as const;

type CsvColumn = (typeof EXPORT_CSV_COLUMNS)[number] | (typeof AS_OF_CSV_COLUMNS)[number];

const csvColumns = (asOf: boolean): readonly CsvColumn[] =>
  asOf ? [...EXPORT_CSV_COLUMNS, ...AS_OF_CSV_COLUMNS] : EXPORT_CSV_COLUMNS;

function csvCell(object: ExportedObject, column: CsvColumn): string {
  switch (column) {
    case 'asOfSequence':
      return String(object.asOfEvent?.sequence ?? '');
    case 'asOfHash':
      return object.asOfEvent?.hash ?? '';
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

/** The first bytes of a file of this format (the CSV header row, with the as-of columns when `asOf`). */
export const exportHeader = (format: ExportFormat, asOf = false): string =>
  format === 'csv' ? csvText([[...csvColumns(asOf)]]) : '';

/** Objects as lines of the format (CSV: with the as-of columns when `asOf`). */
export function exportLines(format: ExportFormat, objects: readonly ExportedObject[], asOf = false): string {
  if (format === 'jsonl') return objects.map((object) => `${JSON.stringify(object)}\n`).join('');
  const columns = csvColumns(asOf);
  return csvText(objects.map((object) => columns.map((column) => withFormulaGuard(csvCell(object, column)))));
}
