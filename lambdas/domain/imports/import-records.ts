/**
 * The records of an import file, one at a time, whatever the file's size: CSV (RFC 4180: a
 * header row, quoted fields, CRLF or LF, an optional UTF-8 BOM) or JSON Lines. Each record
 * carries its position (`index`, counting data records from 0) and the line it starts on
 * (`row`, as a spreadsheet numbers it: the CSV header is row 1). A record that cannot be read
 * (a broken quote, a wrong column count, invalid UTF-8, a line that is no JSON object) is
 * yielded with its issue, and reading goes on with the next record.
 *
 * csv-parse reads the fields. Records are cut first, on line ends outside quotes: csv-parse
 * stops at, or mis-resynchronises after, a broken quote, which would lose the valid rows after
 * it. A candidate record that csv-parse refuses is reported as its first line alone, and
 * reading resumes on the line after it.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import type { FieldIssue } from '#shared/errors.js';
import { characterCount } from '#shared/text.js';
import type { ImportFormat } from './import-job.js';
import { IMPORT_COLUMN_NAME_MAX_LENGTH, IMPORT_COLUMNS_MAX } from './import-schemas.js';

/** No valid record comes near this (metadata stops at 16 KiB): an open quote past it is broken. */
const RECORD_MAX_BYTES = 256 * 1024;
const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface ImportRecord {
  /** Position among the file's data records, from 0: the job's progress counts these. */
  index: number;
  /** The line the record starts on (CSV: the header is row 1). */
  row: number;
  /** The record's values by column (CSV: text of each cell) or by JSON field. */
  values?: Record<string, unknown>;
  /** Why the record cannot be read. */
  issue?: FieldIssue;
}

/**
 * A file the job cannot read at all (no header, an unusable one, gone): the job fails with its
 * `{code, message}`, which the job's `error` shows (no HTTP response carries it).
 */
export class ImportFileError extends Error {
  readonly code: string;
  constructor(failure: { code: string; message: string }) {
    super(failure.message);
    this.code = failure.code;
  }
}

interface Line {
  bytes: Buffer;
  number: number;
}

/** The file's lines without their line feed (a trailing CR stays: csv-parse takes CRLF). */
async function* linesOf(stream: Readable): AsyncGenerator<Line> {
  let pending: Buffer[] = [];
  let number = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = bytes.indexOf(LINE_FEED); end >= 0; end = bytes.indexOf(LINE_FEED)) {
      pending.push(bytes.subarray(0, end));
      number += 1;
      yield { bytes: Buffer.concat(pending), number };
      pending = [];
      bytes = bytes.subarray(end + 1);
    }
    if (bytes.length > 0) pending.push(bytes);
  }
  const rest = Buffer.concat(pending);
  if (rest.length > 0) yield { bytes: rest, number: number + 1 };
}

const withoutCarriageReturn = (bytes: Buffer): Buffer =>
  bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
const isBlank = (bytes: Buffer): boolean => withoutCarriageReturn(bytes).toString('latin1').trim() === '';

const quoteCount = (bytes: Buffer): number => {
  let count = 0;
  for (let at = bytes.indexOf(QUOTE); at >= 0; at = bytes.indexOf(QUOTE, at + 1)) count += 1;
  return count;
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The bytes as text, or undefined when they are not valid UTF-8. */
function utf8(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A record's cells; why it is not CSV; or how many fields it has when that is too many to read. */
type CsvCells = { cells: Buffer[] } | { error: string } | { fieldCount: number };

const COMMA = 0x2c;

/**
 * The fields of a CSV record, counted by its commas outside quotes (a doubled quote inside a
 * quoted field flips the state twice): a record too wide to read is known without parsing it.
 */
function csvFieldCount(bytes: Buffer): number {
  let count = 1;
  let quoted = false;
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at];
    if (byte === QUOTE) quoted = !quoted;
    else if (byte === COMMA && !quoted) count += 1;
  }
  return count;
}

function csvCells(bytes: Buffer): CsvCells {
  // csv-parse takes about a second for 40,000 fields: a record over the bound is not parsed.
  const fieldCount = csvFieldCount(bytes);
  if (fieldCount > IMPORT_COLUMNS_MAX) return { fieldCount };
  try {
    const records = parse(bytes, {
      encoding: null as unknown as BufferEncoding,
      relax_column_count: true,
    }) as unknown as Buffer[][];
    if (records.length !== 1) return { error: 'the line holds no single CSV record' };
    return { cells: records[0] as Buffer[] };
  } catch (error) {
    // csv-parse numbers lines within the one record it was given: that part would mislead.
    return {
      error: error instanceof Error ? error.message.replace(/ at line \d+.*$/s, '') : 'not valid CSV',
    };
  }
}

/**
 * CSV records as cut from the lines: a record goes on over line ends while a quote is open,
 * up to {@link RECORD_MAX_BYTES}; one csv-parse refuses gives back all but its first line.
 */
async function* csvRecordsOf(lines: AsyncGenerator<Line>): AsyncGenerator<{ row: number } & CsvCells> {
  const held: Line[] = [];
  let exhausted = false;
  const next = async (): Promise<Line | undefined> => {
    if (held.length > 0) return held.shift();
    if (exhausted) return undefined;
    const result = await lines.next();
    if (result.done) {
      exhausted = true;
      return undefined;
    }
    return result.value;
  };
  for (let first = await next(); first; first = await next()) {
    if (isBlank(first.bytes)) continue;
    const taken: Line[] = [first];
    let quotes = quoteCount(first.bytes);
    let size = first.bytes.length;
    while (quotes % 2 === 1 && size <= RECORD_MAX_BYTES) {
      const line = await next();
      if (!line) break;
      taken.push(line);
      quotes += quoteCount(line.bytes);
      size += line.bytes.length + 1;
    }
    const parsed =
      quotes % 2 === 1
        ? ({ error: 'a quoted field is never closed' } as const)
        : csvCells(
            Buffer.concat(
              taken.flatMap((line, at) => (at === 0 ? [line.bytes] : [Buffer.from('\n'), line.bytes])),
            ),
          );
    if ('error' in parsed && taken.length > 1) held.unshift(...taken.slice(1));
    yield { row: first.number, ...parsed };
  }
}

const syntaxIssue = (message: string): FieldIssue => ({ field: 'row', code: 'CSV_SYNTAX_INVALID', message });
const encodingIssue = (field: string): FieldIssue => ({
  field,
  code: 'ENCODING_INVALID',
  message: `${field} is not valid UTF-8`,
});

/** A column name as a message quotes it: a long one cut short. */
const quotedColumn = (name: string) =>
  `"${[...name].slice(0, 40).join('')}${characterCount(name) > 40 ? '…' : ''}"`;

const columnCountIssue = (count: number) => ({
  code: 'COLUMN_COUNT_INVALID',
  message: `has ${count} columns; an import reads at most ${IMPORT_COLUMNS_MAX}`,
});

/**
 * What breaks the bounds of a file's columns ({@link IMPORT_COLUMNS_MAX} of them, names of at
 * most {@link IMPORT_COLUMN_NAME_MAX_LENGTH} characters), its message said after "The header
 * row" or "line N"; undefined when they hold.
 */
function columnBoundIssue(names: string[]): { code: string; message: string } | undefined {
  if (names.length > IMPORT_COLUMNS_MAX) return columnCountIssue(names.length);
  const long = names.find((name) => characterCount(name) > IMPORT_COLUMN_NAME_MAX_LENGTH);
  if (long !== undefined)
    return {
      code: 'LENGTH_INVALID',
      message: `names the column ${quotedColumn(long)}, longer than ${IMPORT_COLUMN_NAME_MAX_LENGTH} characters`,
    };
  return undefined;
}

async function* csvImportRecords(stream: Readable): AsyncGenerator<ImportRecord> {
  const records = csvRecordsOf(linesOf(stream));
  const header = await records.next();
  if (header.done) throw new ImportFileError({ code: 'FILE_EMPTY', message: 'The file has no header row' });
  if ('fieldCount' in header.value)
    throw new ImportFileError({
      code: 'HEADER_INVALID',
      message: `The header row ${columnCountIssue(header.value.fieldCount).message}`,
    });
  if ('error' in header.value)
    throw new ImportFileError({
      code: 'HEADER_INVALID',
      message: `The header row is not valid CSV: ${header.value.error}`,
    });
  const cells = header.value.cells;
  if (cells[0]?.subarray(0, 3).equals(UTF8_BOM)) cells[0] = cells[0].subarray(3);
  const columns = cells.map((cell) => utf8(cell)?.trim());
  if (columns.some((column) => column === undefined)) {
    throw new ImportFileError({ code: 'HEADER_INVALID', message: 'The header row is not valid UTF-8' });
  }
  const names = columns as string[];
  // Bounded before anything compares the names (the check for repeats is quadratic in them).
  const headerIssue = columnBoundIssue(names);
  if (headerIssue)
    throw new ImportFileError({ code: 'HEADER_INVALID', message: `The header row ${headerIssue.message}` });
  const duplicate = names.find((name, at) => name !== '' && names.indexOf(name) !== at);
  if (duplicate !== undefined)
    throw new ImportFileError({ code: 'HEADER_INVALID', message: `The column "${duplicate}" appears twice` });
  let index = 0;
  for await (const record of records) {
    const base = { index: index++, row: record.row };
    if ('error' in record) {
      yield { ...base, issue: syntaxIssue(`row ${record.row} is not valid CSV: ${record.error}`) };
      continue;
    }
    const fieldCount = 'fieldCount' in record ? record.fieldCount : record.cells.length;
    if ('fieldCount' in record || fieldCount !== names.length) {
      yield {
        ...base,
        issue: {
          field: 'row',
          code: 'COLUMN_COUNT_INVALID',
          message: `row ${record.row} has ${fieldCount} fields; the header has ${names.length}`,
        },
      };
      continue;
    }
    const values: Record<string, unknown> = {};
    let issue: FieldIssue | undefined;
    record.cells.forEach((cell, at) => {
      const text = utf8(cell);
      if (text === undefined) issue ??= encodingIssue(names[at] || `column ${at + 1}`);
      else if (names[at]) Object.defineProperty(values, names[at], { value: text, enumerable: true });
    });
    yield issue ? { ...base, issue } : { ...base, values };
  }
}

async function* jsonLinesImportRecords(stream: Readable): AsyncGenerator<ImportRecord> {
  let index = 0;
  // The fields seen so far: a JSON Lines file meets the CSV header's bound across all its rows.
  const fieldsSeen = new Set<string>();
  for await (const line of linesOf(stream)) {
    if (isBlank(line.bytes)) continue;
    const base = { index: index++, row: line.number };
    let bytes = withoutCarriageReturn(line.bytes);
    if (line.number === 1 && bytes.subarray(0, 3).equals(UTF8_BOM)) bytes = bytes.subarray(3);
    const text = utf8(bytes);
    if (text === undefined) {
      yield { ...base, issue: encodingIssue('row') };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield {
        ...base,
        issue: { field: 'row', code: 'JSON_INVALID', message: `line ${line.number} is not a JSON object` },
      };
      continue;
    }
    const fields = Object.keys(value);
    const boundIssue =
      columnBoundIssue(fields) ??
      (fieldsSeen.size + fields.filter((field) => !fieldsSeen.has(field)).length > IMPORT_COLUMNS_MAX
        ? {
            code: 'COLUMN_COUNT_INVALID',
            message: `brings the file's distinct fields to more than ${IMPORT_COLUMNS_MAX}`,
          }
        : undefined);
    if (boundIssue) {
      yield {
        ...base,
        issue: { field: 'row', code: boundIssue.code, message: `line ${line.number} ${boundIssue.message}` },
      };
      continue;
    }
    for (const field of fields) fieldsSeen.add(field);
    yield { ...base, values: value as Record<string, unknown> };
  }
}

/** The file's records, in order, each read or with the issue that stopped it. */
export function importRecords(stream: Readable, format: ImportFormat): AsyncGenerator<ImportRecord> {
  return format === 'csv' ? csvImportRecords(stream) : jsonLinesImportRecords(stream);
}
