/**
 * Compares a bench run with the previous one (`bench/results.json` as it was before the run):
 * each headline figure before and after, and their ratio, so that a regression shows in review
 * as a ratio, not only as two times. Figures are found by section, row and field; a section or
 * row the previous run did not have is left out, so new scenarios do not break the comparison.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { round } from './statistics';
import { column, markdownTable } from './table';

/** Where a figure lives in results.json: a list of rows, the field naming a row, the figures of a row. */
interface FigureSource {
  /** Path to the rows from the top of results.json, e.g. `coldStart.rows`. */
  rows: string;
  rowName: (row: Record<string, unknown>) => string;
  figures: {
    field: string;
    label: string /** A higher value is better (throughput). */;
    higherIsBetter?: boolean;
  }[];
}

const FIGURE_SOURCES: FigureSource[] = [
  {
    rows: 'coldStart.rows',
    rowName: (row) => String(row.function),
    figures: [
      { field: 'initRatio', label: 'init ÷ reference' },
      { field: 'initPairedRatio', label: 'init ÷ reference, paired' },
      { field: 'bundleKb', label: 'bundle KB' },
    ],
  },
  {
    rows: 'operationCalls',
    rowName: (row) => String(row.operation),
    figures: [
      { field: 'dynamoDbCalls', label: 'DynamoDB calls' },
      { field: 'readUnits', label: 'RCU' },
      { field: 'writeUnits', label: 'WCU' },
    ],
  },
  {
    rows: 'handlerOverhead',
    rowName: (row) => String(row.operation),
    figures: [{ field: 'handlerMedianMs', label: 'handler median ms' }],
  },
  {
    rows: 'throughput',
    rowName: (row) => String(row.endpoint),
    figures: [{ field: 'requestsPerSecond', label: 'req/s', higherIsBetter: true }],
  },
  {
    rows: 'contention',
    rowName: (row) => String(row.scenario),
    figures: [{ field: 'successesPerSecond', label: 'successes/s', higherIsBetter: true }],
  },
  {
    rows: 'listScale.rows',
    rowName: (row) =>
      `${row.list}, ${row.size} items, ${row.offset === undefined ? '' : `offset ${row.offset}`}${row.by ? ` by ${row.by}` : ''}`,
    figures: [
      { field: 'medianMs', label: 'median ms' },
      { field: 'readUnitsPerCall', label: 'RCU' },
    ],
  },
  {
    rows: 'bulk',
    rowName: (row) => `${row.job} of ${row.rows} rows`,
    figures: [
      { field: 'rowsPerSecond', label: 'rows/s', higherIsBetter: true },
      { field: 'peakRssMb', label: 'peak RSS MB' },
      { field: 'peakHeapUsedMb', label: 'peak heap used MB' },
      { field: 'dynamoDbCallsPerRow', label: 'DynamoDB calls / row' },
    ],
  },
  {
    rows: 'transparencyLog.sequencer',
    rowName: (row) => `sequencer, log of ${row.logSize}`,
    figures: [
      { field: 'dynamoDbCallsPerEvent', label: 'DynamoDB calls / event' },
      { field: 's3CallsPerEvent', label: 'S3 calls / event' },
    ],
  },
];

export interface FigureComparison {
  figure: string;
  before: number;
  after: number;
  /** after ÷ before. */
  ratio: number;
  /** Worse by more than the noise margin (10 %). */
  worse: boolean;
}

const NOISE_MARGIN = 0.1;

function rowsAt(results: unknown, path: string): Record<string, unknown>[] {
  let value: unknown = results;
  for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

function figuresOf(results: unknown): Map<string, { value: number; higherIsBetter: boolean }> {
  const figures = new Map<string, { value: number; higherIsBetter: boolean }>();
  for (const source of FIGURE_SOURCES) {
    for (const row of rowsAt(results, source.rows)) {
      for (const { field, label, higherIsBetter } of source.figures) {
        const value = row[field];
        if (typeof value === 'number') {
          figures.set(`${source.rowName(row)}: ${label}`, { value, higherIsBetter: higherIsBetter ?? false });
        }
      }
    }
  }
  return figures;
}

/** Every headline figure both runs have, with its ratio. */
export function compareResults(previous: unknown, current: unknown): FigureComparison[] {
  const before = figuresOf(previous);
  const comparisons: FigureComparison[] = [];
  for (const [figure, { value: after, higherIsBetter }] of figuresOf(current)) {
    const earlier = before.get(figure);
    if (earlier === undefined) continue;
    const ratio = earlier.value === 0 ? (after === 0 ? 1 : Number.POSITIVE_INFINITY) : after / earlier.value;
    const worse = higherIsBetter ? ratio < 1 - NOISE_MARGIN : ratio > 1 + NOISE_MARGIN;
    comparisons.push({ figure, before: earlier.value, after, ratio: round(ratio, 2), worse });
  }
  return comparisons;
}

/** The previous run's results, if the file exists and reads as JSON. */
export function readPreviousResults(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The commit the bench ran on, with `-dirty` when the work tree had changes. */
export function gitCommit(directory: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: directory })
      .toString()
      .trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: directory })
      .toString()
      .trim();
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}

/** The comparison as Markdown: a summary line, then the figures that moved by more than the noise margin. */
export function comparisonMarkdown(
  comparisons: FigureComparison[],
  previous: { commit?: unknown; measuredAt?: unknown } | undefined,
): string {
  if (!previous) return 'No previous `bench/results.json` to compare with.';
  const moved = comparisons.filter((each) => Math.abs(each.ratio - 1) > NOISE_MARGIN);
  const worse = comparisons.filter((each) => each.worse);
  const summary =
    `Against the previous run (${previous.commit ?? 'commit unknown'}, ${previous.measuredAt ?? 'time unknown'}): ` +
    `${comparisons.length} figures compared, ${moved.length} moved by more than ${NOISE_MARGIN * 100} %, ` +
    `${worse.length} of them for the worse${worse.length > 0 ? ' (marked ✗)' : ''}.`;
  if (moved.length === 0) return summary;
  return `${summary}\n\n${markdownTable(moved, [
    column('figure', (row) => row.figure),
    column('before', (row) => row.before, true),
    column('after', (row) => row.after, true),
    column('after ÷ before', (row) => row.ratio, true),
    column('', (row) => (row.worse ? '✗' : '')),
  ])}`;
}
