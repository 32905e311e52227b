/**
 * What the bench measured of each operation, read from the committed `bench/RESULTS.md` (the
 * bench's own `bench/results.json` is not committed): from section 2 its DynamoDB commands,
 * the capacity DynamoDB Local reported and its S3 calls (one warm request, metered by SDK
 * middleware); from section 3 the median time of its handler, invoked in process against
 * DynamoDB Local and s3rver. The tables are found by their headings and read by their column
 * names, so a column the bench adds changes nothing here; a column that goes fails loudly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed bench report. */
export const BENCH_RESULTS_FILE = join(__dirname, '..', '..', 'bench', 'RESULTS.md');

const CALLS_SECTION = '## 2. DynamoDB calls and consumed capacity per operation';
const OVERHEAD_SECTION = '## 3. Handler overhead';

/** DynamoDB write commands that are not transactions: one request unit per KB of each item. */
const STANDARD_WRITE_COMMANDS = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

/** One operation's measured figures. */
export interface OperationFigures {
  /** Median duration of the warm handler, ms (section 3). */
  durationMs?: number;
  /** DynamoDB calls by command (`GetItem` → 2). */
  dynamoDbCommands?: Record<string, number>;
  /** Read request units, as DynamoDB Local reported them (AWS bills reads the same). */
  readRequestUnits?: number;
  /**
   * Write request units as AWS would bill them: DynamoDB Local reports a transactional write
   * at 4 units per KB and item, AWS bills 2, so the transactions' share is halved (the share
   * of standard writes is taken as 1 unit each: items under 1 KB).
   */
  writeRequestUnits?: number;
  /** S3 calls by command (`PutObject` → 1). */
  s3Commands?: Record<string, number>;
}

/** The figures of every measured operation (and variant, `createObject + Idempotency-Key`), and where they come from. */
export interface BenchFigures {
  byOperation: ReadonlyMap<string, OperationFigures>;
  /** `bench/RESULTS.md, section 2 (measured 2026-11-25T06:34:12Z, commit d59e5ca21572)`. */
  source: string;
}

/**
 * Reads the operations' figures from a bench report (`bench/RESULTS.md` by default).
 *
 * @example
 * const figures = benchFigures();
 * figures.byOperation.get('getObject')?.durationMs; // 4.55
 */
export function benchFigures(markdown: string = readFileSync(BENCH_RESULTS_FILE, 'utf8')): BenchFigures {
  const byOperation = new Map<string, OperationFigures>();
  const figuresOf = (operation: string): OperationFigures => {
    const known = byOperation.get(operation);
    if (known) return known;
    const figures: OperationFigures = {};
    byOperation.set(operation, figures);
    return figures;
  };
  const calls = sectionOf(markdown, CALLS_SECTION);
  for (const row of tableRows(calls.body)) {
    const readUnits = numberCell(row, 'RCU');
    const reportedWriteUnits = numberCell(row, 'WCU');
    // A case that failed in that run has no figures (NaN): the operation stays unmeasured.
    if (readUnits === undefined || reportedWriteUnits === undefined) continue;
    const figures = figuresOf(cell(row, 'operation'));
    const commands = parseCommands(cell(row, 'commands'));
    figures.dynamoDbCommands = commands;
    figures.readRequestUnits = readUnits;
    figures.writeRequestUnits = awsWriteRequestUnits(commands, reportedWriteUnits);
    figures.s3Commands = parseCommands(cell(row, 'S3 calls'));
  }
  const overhead = sectionOf(markdown, OVERHEAD_SECTION);
  for (const row of tableRows(overhead.body)) {
    const durationMs = numberCell(row, 'handler ms');
    if (durationMs !== undefined) figuresOf(cell(row, 'operation')).durationMs = durationMs;
  }
  return {
    byOperation,
    source: `bench/RESULTS.md: section 2 (${calls.measured}) and section 3 (${overhead.measured})`,
  };
}

/**
 * The write request units AWS bills for what DynamoDB Local reported as `reportedUnits`: each
 * standard write counted as 1 unit, the rest (the transactions') halved.
 */
export function awsWriteRequestUnits(commands: Record<string, number>, reportedUnits: number): number {
  const standardWrites = Object.entries(commands)
    .filter(([command]) => STANDARD_WRITE_COMMANDS.has(command))
    .reduce((sum, [, count]) => sum + count, 0);
  if (!commands.TransactWriteItems) return reportedUnits;
  return standardWrites + Math.max(0, reportedUnits - standardWrites) / 2;
}

/** `GetItem×2, Query×1` → `{ GetItem: 2, Query: 1 }`. */
export function parseCommands(text: string): Record<string, number> {
  const commands: Record<string, number> = {};
  for (const part of text.split(',').map((each) => each.trim())) {
    if (!part) continue;
    const match = /^(\w+)×(\d+)$/.exec(part);
    if (!match) throw new Error(`bench/RESULTS.md: cannot read the command count "${part}"`);
    commands[match[1]!] = (commands[match[1]!] ?? 0) + Number(match[2]);
  }
  return commands;
}

/** A section's text up to the next heading of its level, and its "_Measured ..._" line. */
function sectionOf(markdown: string, heading: string): { body: string; measured: string } {
  const start = markdown.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`bench/RESULTS.md has no section "${heading}"`);
  const rest = markdown.slice(start + heading.length + 1);
  const end = rest.search(/^## /m);
  const body = end < 0 ? rest : rest.slice(0, end);
  const measured = /^_Measured ([^,]+), commit ([0-9a-f]+)/m.exec(body);
  return {
    body,
    measured: measured ? `measured ${measured[1]}, commit ${measured[2]}` : 'measured on an unstated day',
  };
}

type Row = ReadonlyMap<string, string>;

/** The rows of the first Markdown table in `text`, each cell by its column's heading. */
function tableRows(text: string): Row[] {
  const lines = text.split('\n').filter((line) => line.startsWith('|'));
  const [header, , ...rows] = lines;
  if (!header) throw new Error('bench/RESULTS.md: a section has no table');
  const cellsOf = (line: string) =>
    line
      .slice(1, line.lastIndexOf('|'))
      .split('|')
      .map((each) => each.trim());
  const columns = cellsOf(header);
  return rows.map((line) => {
    const cells = cellsOf(line);
    return new Map(columns.map((column, index) => [column, cells[index] ?? '']));
  });
}

function cell(row: Row, column: string): string {
  const value = row.get(column);
  if (value === undefined) throw new Error(`bench/RESULTS.md: no column "${column}"`);
  return value;
}

/** A cell's number (`1,077` → 1077); undefined for a figure the run could not take (`NaN`, `—`, empty). */
function numberCell(row: Row, column: string): number | undefined {
  const text = cell(row, column).replace(/,/g, '');
  const value = Number(text);
  return text === '' || !Number.isFinite(value) ? undefined : value;
}
