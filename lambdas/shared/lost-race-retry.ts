/**
 * Optimistic writes: read, build the new state, write on the condition that nothing changed
 * meanwhile. A write that loses the race to a parallel one is built again on top of the winner,
 * after a pause that grows (and is jittered, so that racing writers spread out), a bounded
 * number of times; then the caller hears 409 `CONCURRENT_MODIFICATION`, never a 500.
 */
import { ConflictError } from './errors.js';

/**
 * Tries before 409: the pauses between them add up to 1-2 s, long enough for about 20 writers of
 * one object that arrive together to take their turns (each turn is one transaction), even on a
 * loaded machine; with 6 tries (0.3-0.6 s) some of 10 uploads finishing together got 409.
 */
export const LOST_RACE_ATTEMPTS = 10;

/** The longest pause between two tries (before its jitter), so that late tries keep coming. */
const LONGEST_PAUSE_MS = 160;

/**
 * Waits before try `attempt + 1`: 10-20 ms after the first, doubling each time up to 160-320 ms.
 *
 * @example
 * await pauseBeforeRetry(1); // 10-20 ms
 */
export function pauseBeforeRetry(attempt: number): Promise<void> {
  const delayMs = Math.min(10 * 2 ** (attempt - 1), LONGEST_PAUSE_MS) * (1 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}

/** The response when a change keeps losing races: 409 `CONCURRENT_MODIFICATION`. */
export const concurrentModification = (resource: string): ConflictError =>
  new ConflictError(
    'CONCURRENT_MODIFICATION',
    `The ${resource} is being changed by other requests; try again`,
  );

/**
 * Runs `write` again while it throws an error `isLostRace` recognizes, at most
 * {@link LOST_RACE_ATTEMPTS} times; other errors pass through at once.
 *
 * @example
 * return retryLostRaces('category', (error) => error instanceof StaleCategoryError, async () => {
 *   const before = await findCategory(companyId, categoryId);
 *   await replaceCategory(before, after(before));
 * });
 */
export async function retryLostRaces<T>(
  resource: string,
  isLostRace: (error: unknown) => boolean,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isLostRace(error)) throw error;
      if (attempt >= LOST_RACE_ATTEMPTS) throw concurrentModification(resource);
      await pauseBeforeRetry(attempt);
    }
  }
}
