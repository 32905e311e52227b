/**
 * How fast a company's imports write: together at most a number of rows a second (the import
 * function's `IMPORT_ROWS_PER_SECOND`: the stack's context `importRowsPerSecond`). One company's
 * bulk load then leaves the table, the log's sequencer and events out to the other companies:
 * on `npm start` an unpaced import took DynamoDB Local from every other caller and made their
 * events wait seconds for a checkpoint (docs/tenant-fairness.md#import-pace). Each running
 * import keeps an equal share: after each step of rows written together it waits until the
 * step has taken `rows × running ÷ rowsPerSecond` seconds, `running` read from the company's job
 * slots.
 */
import { heldJobSlots } from '#repositories/job-slot-repository.js';

/** The environment variable of the pace: rows a second for all of a company's imports; 0 for none. */
export const IMPORT_ROWS_PER_SECOND_ENVIRONMENT = 'IMPORT_ROWS_PER_SECOND';

/** The pace a stack gives a company's imports without `-c importRowsPerSecond=` (`lib/background-job-functions.ts`). */
export const DEFAULT_IMPORT_ROWS_PER_SECOND = 40;

export interface ImportPace {
  /** Waits, after `rows` rows written since `startedAt` (epoch ms), as long as the pace asks. */
  afterWrites(rows: number, startedAt: number): Promise<void>;
}

/** What the pace reads and how it waits; tests give their own. */
export interface PaceClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** How many imports of the company are running (each holds a slot). */
  running(companyId: string): Promise<number>;
}

const realClock: PaceClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  running: async (companyId) => (await heldJobSlots(companyId, 'imports')).length,
};

/** The pace of `companyId`'s imports at `rowsPerSecond` together; none when 0. */
export function importPace(
  companyId: string,
  rowsPerSecond: number,
  clock: PaceClock = realClock,
): ImportPace {
  return {
    async afterWrites(rows, startedAt) {
      if (!(rowsPerSecond > 0)) return;
      // At least this one: a job resumed after its slot was freed still keeps to the pace.
      const running = Math.max(1, await clock.running(companyId));
      const wait = startedAt + (rows * running * 1000) / rowsPerSecond - clock.now();
      if (wait > 0) await clock.sleep(wait);
    },
  };
}

/** The pace the import function was given (its environment); none when unset. */
export const rowsPerSecondFromEnvironment = (environment: NodeJS.ProcessEnv = process.env): number =>
  Number(environment[IMPORT_ROWS_PER_SECOND_ENVIRONMENT] || 0);
