/**
 * Tables of results, as Markdown: printed as they are to the terminal (readable there too) and
 * written to `bench/RESULTS.md`.
 */

export interface Column<Row> {
  title: string;
  value(row: Row): unknown;
  /** Right-aligned (numbers). */
  numeric?: boolean;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '—';
    return Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
  }
  return String(value).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A Markdown table with padded columns. */
export function markdownTable<Row>(rows: Row[], columns: Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(3, column.title.length, ...cells.map((line) => (line[index] ?? '').length)),
  );
  const line = (values: string[]) =>
    `| ${values
      .map((value, index) =>
        columns[index]?.numeric ? value.padStart(widths[index] ?? 0) : value.padEnd(widths[index] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `| ${widths
    .map((width, index) => (columns[index]?.numeric ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)))
    .join(' | ')} |`;
  return [line(columns.map((column) => column.title)), rule, ...cells.map(line)].join('\n');
}

/** Shorthand for a column. */
export const column = <Row>(title: string, value: (row: Row) => unknown, numeric = false): Column<Row> => ({
  title,
  value,
  numeric,
});
