/** Optimistic writes retried after lost races: bounded, paused, and 409 at the end. Offline. */
import { ConflictError } from '../../lambdas/shared/errors';
import { LOST_RACE_ATTEMPTS, retryLostRaces } from '../../lambdas/shared/lost-race-retry';

class LostRace extends Error {}
const isLostRace = (error: unknown) => error instanceof LostRace;

describe('retryLostRaces', () => {
  it('builds the write again after lost races and returns the first that goes through', async () => {
    // Prepare
    let tries = 0;
    // Act
    const result = await retryLostRaces('thing', isLostRace, async () => {
      tries++;
      if (tries < 3) throw new LostRace();
      return 'written';
    });
    // Assess
    expect({ result, tries }).toEqual({ result: 'written', tries: 3 });
  });

  it('passes any other error through at once', async () => {
    // Prepare
    let tries = 0;
    const failure = new Error('not a race');
    // Act
    const outcome = retryLostRaces('thing', isLostRace, async () => {
      tries++;
      throw failure;
    });
    // Assess
    await expect(outcome).rejects.toBe(failure);
    expect(tries).toBe(1);
  });

  it(`responds 409 CONCURRENT_MODIFICATION after ${LOST_RACE_ATTEMPTS} lost races, having paused between them`, async () => {
    // Prepare
    const startedAt: number[] = [];
    // Act
    const outcome = retryLostRaces('thing', isLostRace, async () => {
      startedAt.push(Date.now());
      throw new LostRace();
    });
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(ConflictError);
    await expect(outcome).rejects.toMatchObject({
      statusCode: 409,
      code: 'CONCURRENT_MODIFICATION',
      message: 'The thing is being changed by other requests; try again',
    });
    expect(startedAt).toHaveLength(LOST_RACE_ATTEMPTS);
    // The pauses are 10-20, 20-40, 40-80, 80-160, then 160-320 ms five times: at least 950 ms in all.
    expect((startedAt.at(-1) ?? 0) - (startedAt[0] ?? 0)).toBeGreaterThanOrEqual(940);
  });
});
