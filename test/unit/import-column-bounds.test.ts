/**
 * An import file's columns are bounded before anything compares or keeps them: a CSV header of
 * at most {@link IMPORT_COLUMNS_MAX} columns (else the job fails `HEADER_INVALID`), names of at
 * most {@link IMPORT_COLUMN_NAME_MAX_LENGTH} characters; a JSON Lines row over either bound, or
 * one that brings the file's distinct fields over the first, is a row error. So the job's
 * `ignoredColumns` (a subset of them) stays far below DynamoDB's 400 KB item limit.
 */
import { Readable } from 'node:stream';
import {
  ImportFileError,
  type ImportRecord,
  importRecords,
} from '../../lambdas/domain/imports/import-records';
import {
  IMPORT_COLUMN_NAME_MAX_LENGTH,
  IMPORT_COLUMNS_MAX,
} from '../../lambdas/domain/imports/import-schemas';

async function recordsOf(text: string, format: 'csv' | 'jsonl'): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  for await (const record of importRecords(Readable.from([Buffer.from(text, 'utf8')]), format))
    records.push(record);
  return records;
}

async function failureOf(text: string): Promise<{ code: string; message: string } | undefined> {
  try {
    await recordsOf(text, 'csv');
    return undefined;
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    return { code: error.code, message: error.message };
  }
}

const columnNames = (count: number) => Array.from({ length: count }, (_, at) => `extra${at}`);

describe('CSV header bounds', () => {
  it(`reads a header of ${IMPORT_COLUMNS_MAX} columns`, async () => {
    // Arrange
    const names = ['externalId', 'name', ...columnNames(IMPORT_COLUMNS_MAX - 2)];
    const row = names.map(() => 'x').join(',');
    // Act
    const records = await recordsOf(`${names.join(',')}\n${row}\n`, 'csv');
    // Assess
    expect(records).toHaveLength(1);
    expect(Object.keys(records[0]?.values ?? {})).toHaveLength(IMPORT_COLUMNS_MAX);
  });

  it(`fails the job on ${IMPORT_COLUMNS_MAX + 1} columns (40,000 made a 480 KB job record)`, async () => {
    // Act
    const failure = await failureOf(`${columnNames(40_000).join(',')}\n`);
    // Assess
    expect(failure).toEqual({
      code: 'HEADER_INVALID',
      message: `The header row has 40000 columns; an import reads at most ${IMPORT_COLUMNS_MAX}`,
    });
    expect((await failureOf(`${columnNames(IMPORT_COLUMNS_MAX + 1).join(',')}\n`))?.code).toBe(
      'HEADER_INVALID',
    );
  });

  it(`fails the job on a column name over ${IMPORT_COLUMN_NAME_MAX_LENGTH} characters, quoted short`, async () => {
    // Arrange
    const long = `metadata.${'k'.repeat(IMPORT_COLUMN_NAME_MAX_LENGTH)}`;
    // Act
    const failure = await failureOf(`externalId,name,${long}\n`);
    // Assess
    expect(failure).toEqual({
      code: 'HEADER_INVALID',
      message: `The header row names the column "metadata.${'k'.repeat(31)}…", longer than ${IMPORT_COLUMN_NAME_MAX_LENGTH} characters`,
    });
    expect(await failureOf(`externalId,${'k'.repeat(IMPORT_COLUMN_NAME_MAX_LENGTH)}\n`)).toBeUndefined();
  });
});

describe('CSV rows too wide to read', () => {
  it('are row errors, counted without parsing them (commas inside quotes do not count)', async () => {
    // Arrange
    const wide = columnNames(40_000).join(',');
    const quotedCommas = `"${','.repeat(IMPORT_COLUMNS_MAX + 1)}",b`;
    // Act
    const records = await recordsOf(`externalId,name\n${wide}\n${quotedCommas}\n`, 'csv');
    // Assess
    expect(records.map((record) => record.issue ?? record.values)).toEqual([
      { field: 'row', code: 'COLUMN_COUNT_INVALID', message: 'row 2 has 40000 fields; the header has 2' },
      { externalId: ','.repeat(IMPORT_COLUMNS_MAX + 1), name: 'b' },
    ]);
  });
});

describe('JSON Lines field bounds', () => {
  const line = (fields: string[]) => JSON.stringify(Object.fromEntries(fields.map((field) => [field, 'x'])));

  it('makes a row with too many fields, or too long a field name, a row error', async () => {
    // Act
    const records = await recordsOf(
      [
        line(['externalId', 'name']),
        line(columnNames(IMPORT_COLUMNS_MAX + 1)),
        line(['k'.repeat(IMPORT_COLUMN_NAME_MAX_LENGTH + 1)]),
      ].join('\n'),
      'jsonl',
    );
    // Assess
    expect(records.map((record) => record.issue?.code)).toEqual([
      undefined,
      'COLUMN_COUNT_INVALID',
      'LENGTH_INVALID',
    ]);
    expect(records[1]?.issue?.message).toBe(
      `line 2 has ${IMPORT_COLUMNS_MAX + 1} columns; an import reads at most ${IMPORT_COLUMNS_MAX}`,
    );
  });

  it(`bounds the file's distinct fields at ${IMPORT_COLUMNS_MAX}: rows that bring more are row errors`, async () => {
    // Arrange: each row a field of its own (the union is what ignoredColumns would list)
    const lines = Array.from({ length: IMPORT_COLUMNS_MAX + 2 }, (_, at) => line([`field${at}`]));
    // Act
    const records = await recordsOf(lines.join('\n'), 'jsonl');
    // Assess
    const refused = records.filter((record) => record.issue);
    expect(refused.map((record) => record.row)).toEqual([IMPORT_COLUMNS_MAX + 1, IMPORT_COLUMNS_MAX + 2]);
    expect(refused[0]?.issue).toEqual({
      field: 'row',
      code: 'COLUMN_COUNT_INVALID',
      message: `line ${IMPORT_COLUMNS_MAX + 1} brings the file's distinct fields to more than ${IMPORT_COLUMNS_MAX}`,
    });
    // A field already seen stays welcome.
    expect(
      await recordsOf([...lines, line(['field0'])].join('\n'), 'jsonl').then((all) => all.at(-1)?.issue),
    ).toBe(undefined);
  });
});
