/**
 * The pace of a company's imports (`lambdas/domain/imports/import-pace.ts`): after each step of writes an
 * import waits until the step has taken its share of the company's rows a second, the share
 * divided between the company's running imports, on a clock of the test's own.
 */
import {
  importPace,
  type PaceClock,
  rowsPerSecondFromEnvironment,
} from '../../lambdas/domain/imports/import-pace';

/** A clock that moves only when slept on, and records each sleep. */
function testClock(running: number) {
  const sleeps: number[] = [];
  let now = 1_000_000;
  const asked: string[] = [];
  const clock: PaceClock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    running: async (companyId) => {
      asked.push(companyId);
      return running;
    },
  };
  return { clock, sleeps, asked, advance: (ms: number) => (now += ms), at: () => now };
}

describe('the pace of a company’s imports', () => {
  it('waits after a step of writes until it has taken rows ÷ rows a second', async () => {
    // Prepare: 50 rows a second, one import running; the step of 100 rows took 0.5 s.
    const { clock, sleeps, asked, advance, at } = testClock(1);
    const pace = importPace('company-a', 50, clock);
    const startedAt = at();
    advance(500);

    // Act
    await pace.afterWrites(100, startedAt);

    // Assess: 100 rows at 50 a second take 2 s in all.
    expect(sleeps).toEqual([1500]);
    expect(asked).toEqual(['company-a']);
  });

  it('shares the pace between the company’s running imports', async () => {
    const { clock, sleeps, at } = testClock(3);
    const pace = importPace('company-a', 50, clock);

    await pace.afterWrites(100, at());

    // Three imports at once: each keeps to a third, so the company's rows stay at 50 a second.
    expect(sleeps).toEqual([6000]);
  });

  it('does not wait after a step slower than the pace, nor for a step of no rows', async () => {
    const { clock, sleeps, advance, at } = testClock(1);
    const pace = importPace('company-a', 50, clock);
    const startedAt = at();
    advance(3000);

    await pace.afterWrites(100, startedAt);
    await pace.afterWrites(0, at());

    expect(sleeps).toEqual([]);
  });

  it('counts this import when the slots hold none (a job resumed after its slot was freed)', async () => {
    const { clock, sleeps, at } = testClock(0);

    await importPace('company-a', 100, clock).afterWrites(100, at());

    expect(sleeps).toEqual([1000]);
  });

  it('is off at 0, and reads nothing then', async () => {
    const { clock, sleeps, asked, at } = testClock(1);

    await importPace('company-a', 0, clock).afterWrites(100, at());

    expect(sleeps).toEqual([]);
    expect(asked).toEqual([]);
  });

  it.each([
    [{ IMPORT_ROWS_PER_SECOND: '50' }, 50],
    [{ IMPORT_ROWS_PER_SECOND: '' }, 0],
    [{}, 0],
  ])('reads the pace from the function’s environment %j', (environment, rowsPerSecond) => {
    expect(rowsPerSecondFromEnvironment(environment)).toBe(rowsPerSecond);
  });
});
