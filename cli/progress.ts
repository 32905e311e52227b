/**
 * Progress of a long admin command (`import`, `export`) on a terminal: one line on stderr,
 * rewritten in place at most a few times a second. When stderr is not a terminal (piped,
 * redirected, in CI) nothing is written, so that what a script reads stays the command's JSON.
 */

/** Where the line goes: stderr, or a stand-in in tests. */
interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** What a command has done so far. */
interface ProgressState {
  /** Rows handled so far, when known (an export knows its rows only at the end). */
  rows?: number;
  /** All rows, once known. */
  totalRows?: number;
  /** Rows that failed so far. */
  failedRows?: number;
  /** Bytes written so far, for a command that counts bytes rather than rows. */
  bytes?: number;
}

interface ProgressOptions {
  /** The command's name, the start of the line. */
  label: string;
  stream?: ProgressStream;
  /** Milliseconds since some fixed moment; `Date.now` unless a test gives its own clock. */
  now?: () => number;
  /** The shortest time between two lines. */
  intervalMs?: number;
}

/** A few updates a second: fast enough to look alive, slow enough not to cost the job time. */
const PROGRESS_INTERVAL_MS = 250;

/** Moves to the line's start and clears it (ANSI "erase line"). */
const REWRITE_LINE = '\r\u001b[2K';

const count = (value: number) => value.toLocaleString('en-US');

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The progress line.
 *
 * @example
 * formatProgress('import', { rows: 1200, totalRows: 100000, failedRows: 3 }, 4000)
 * // 'import: 1,200 of 100,000 rows (1 %), 300 rows/s, 3 failed, 4 s'
 */
export function formatProgress(label: string, state: ProgressState, elapsedMs: number): string {
  const seconds = elapsedMs / 1000;
  const parts: string[] = [];
  const { rows } = state;
  if (rows !== undefined) {
    if (state.totalRows !== undefined && state.totalRows > 0) {
      const percent = Math.floor((rows / state.totalRows) * 100);
      parts.push(`${count(rows)} of ${count(state.totalRows)} rows (${percent} %)`);
    } else {
      parts.push(`${count(rows)} rows`);
    }
    if (seconds > 0) parts.push(`${count(Math.round(rows / seconds))} rows/s`);
  }
  if (state.bytes !== undefined) parts.push(formatBytes(state.bytes));
  if (state.failedRows !== undefined) parts.push(`${count(state.failedRows)} failed`);
  parts.push(`${Math.floor(seconds)} s`);
  return `${label}: ${parts.join(', ')}`;
}

interface ProgressReporter {
  /** Whether lines are written at all (stderr is a terminal): callers may skip gathering state. */
  readonly shown: boolean;
  /** Shows the state, unless a line was written less than the interval ago. */
  update(state: ProgressState): void;
  /** Shows the final state and ends the line, so that what follows starts on a line of its own. */
  finish(state: ProgressState): void;
}

/**
 * A progress line on `stream` (stderr by default), when it is a terminal.
 *
 * @example
 * const progress = progressReporter({ label: 'import' });
 * progress.update({ rows: 100, totalRows: 1000, failedRows: 0 });
 * progress.finish({ rows: 1000, totalRows: 1000, failedRows: 2 });
 */
export function progressReporter(options: ProgressOptions): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const shown = stream.isTTY === true;
  const startedAt = now();
  let lastWrittenAt: number | undefined;
  const write = (state: ProgressState, at: number) => {
    stream.write(`${REWRITE_LINE}${formatProgress(options.label, state, at - startedAt)}`);
    lastWrittenAt = at;
  };
  return {
    shown,
    update(state) {
      if (!shown) return;
      const at = now();
      if (lastWrittenAt !== undefined && at - lastWrittenAt < intervalMs) return;
      write(state, at);
    },
    finish(state) {
      if (!shown) return;
      write(state, now());
      stream.write('\n');
    },
  };
}

/**
 * Calls `poll` every `intervalMs` until `work` settles, then returns (or throws) what `work`
 * does. For commands whose job runs elsewhere in the process and is read from its record.
 */
export async function pollWhile<T>(
  work: Promise<T>,
  poll: () => Promise<void>,
  intervalMs = PROGRESS_INTERVAL_MS,
): Promise<T> {
  let settled = false;
  const done = work.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  while (!settled) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, intervalMs)))]);
    clearTimeout(timer);
    if (!settled) await poll();
  }
  return work;
}
