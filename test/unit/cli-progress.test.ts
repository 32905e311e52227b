/**
 * The admin CLI's progress line (`cli/progress.ts`): what it says, that it is rewritten in place
 * at most once per interval on a terminal, and that nothing at all is written when stderr is not
 * a terminal (piped output stays machine-readable).
 */
import { formatProgress, pollWhile, progressReporter } from '../../cli/progress';

/** A stream that keeps what is written, a terminal or not. */
function recordingStream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

/** A clock the test moves by hand. */
function manualClock(startMs = 1_000_000) {
  let nowMs = startMs;
  return { now: () => nowMs, advance: (ms: number) => (nowMs += ms) };
}

describe('formatProgress', () => {
  it('says rows done of the total, the rate, the failed rows and the time', () => {
    // Act
    const line = formatProgress('import', { rows: 1200, totalRows: 100_000, failedRows: 3 }, 4000);
    // Assess
    expect(line).toBe('import: 1,200 of 100,000 rows (1 %), 300 rows/s, 3 failed, 4 s');
  });

  it('leaves out what is not known yet: the total, the rows, the rate at 0 s', () => {
    // Assess
    expect(formatProgress('import', { rows: 0, totalRows: 0, failedRows: 0 }, 0)).toBe(
      'import: 0 rows, 0 failed, 0 s',
    );
    expect(formatProgress('export', {}, 2500)).toBe('export: 2 s');
    expect(formatProgress('export', { bytes: 3 * 1024 * 1024 }, 1000)).toBe('export: 3.0 MB, 1 s');
    expect(formatProgress('export', { rows: 2000, bytes: 2048 }, 2000)).toBe(
      'export: 2,000 rows, 1,000 rows/s, 2.0 KB, 2 s',
    );
  });
});

describe('progressReporter', () => {
  it('rewrites one line in place on a terminal, at most once per interval, and ends it when done', () => {
    // Prepare
    const stream = recordingStream(true);
    const clock = manualClock();
    const progress = progressReporter({ label: 'import', stream, now: clock.now, intervalMs: 250 });
    // Act
    progress.update({ rows: 0, totalRows: 300 });
    clock.advance(100);
    progress.update({ rows: 100, totalRows: 300 }); // within the interval: not shown
    clock.advance(150);
    progress.update({ rows: 200, totalRows: 300 });
    clock.advance(10);
    progress.finish({ rows: 300, totalRows: 300, failedRows: 1 }); // always shown
    // Assess
    expect(progress.shown).toBe(true);
    expect(stream.written).toEqual([
      '\r\u001b[2Kimport: 0 of 300 rows (0 %), 0 s',
      '\r\u001b[2Kimport: 200 of 300 rows (66 %), 800 rows/s, 0 s',
      '\r\u001b[2Kimport: 300 of 300 rows (100 %), 1,154 rows/s, 1 failed, 0 s',
      '\n',
    ]);
  });

  it('writes nothing when the stream is not a terminal', () => {
    // Prepare
    const stream = recordingStream(false);
    const clock = manualClock();
    const progress = progressReporter({ label: 'export', stream, now: clock.now });
    // Act
    progress.update({ bytes: 10 });
    clock.advance(1000);
    progress.finish({ rows: 1, bytes: 10 });
    // Assess
    expect({ shown: progress.shown, written: stream.written }).toEqual({ shown: false, written: [] });
  });
});

describe('pollWhile', () => {
  it('polls until the work settles, then gives its value', async () => {
    // Prepare
    let polls = 0;
    const work = new Promise<string>((resolve) => setTimeout(resolve, 60, 'done'));
    // Act
    const value = await pollWhile(work, async () => void (polls += 1), 10);
    // Assess
    expect(value).toBe('done');
    expect(polls).toBeGreaterThan(0);
  });

  it("throws the work's error", async () => {
    // Act
    const polled = pollWhile(Promise.reject(new Error('job failed')), async () => undefined, 10);
    // Assess
    await expect(polled).rejects.toThrow('job failed');
  });
});
