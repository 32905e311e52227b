/**
 * The sequencer against DynamoDB Local and s3rver: the log it builds holds every committed
 * event once, at the index its position item names, and a sequencer that dies after any of
 * its steps is followed by one that finishes the batch without losing or doubling an event.
 */
import { randomUUID } from 'node:crypto';
import { runSequencerCycle, SEQUENCER_STEPS } from '../../lambdas/domain/ledger/sequencer';
import { readLogState } from '../../lambdas/repositories/log-state-repository';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { expectLogMatchesChains, writeEvents } from '../support/sequencer-log';

// Generous: a loaded CI machine (DynamoDB Local shared with the other files) has taken 5 minutes here.
jest.setTimeout(300_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

class Crash extends Error {}

const LEASE_MS = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One cycle with a short lease, so that the next test's sequencer can take over soon. */
const cycle = (options: Partial<Parameters<typeof runSequencerCycle>[0]> = {}) =>
  runSequencerCycle({ signer: ledger.signer, leaseMs: LEASE_MS, ...options });

describe('the sequencer', () => {
  it('publishes a checkpoint of the empty log, then integrates every committed event', async () => {
    await cycle();
    expect((await readLogState()).treeSize).toBe(0);
    await writeEvents(3, 2);
    const result = await cycle();
    expect(result.integrated).toBeGreaterThanOrEqual(9);
    await expectLogMatchesChains();
  });

  it('spreads a batch over full and partial tiles and still matches the chains', async () => {
    await writeEvents(30, 9);
    await cycle({ batchSize: 100 });
    while (!(await cycle({ batchSize: 1000 })).caughtUp);
    await expectLogMatchesChains();
  });

  it.each(SEQUENCER_STEPS)(
    'loses and doubles nothing when the sequencer dies after %s',
    async (crashAfter) => {
      await writeEvents(2, 3);
      await pause(LEASE_MS + 50);
      const crashed = cycle({
        owner: `crashing-${randomUUID()}`,
        afterStep: (step) => {
          if (step === crashAfter) throw new Crash(step);
        },
      });
      await expect(crashed).rejects.toBeInstanceOf(Crash);
      // The next sequencer waits for the dead one's lease to run out, then finishes its batch.
      await pause(LEASE_MS + 50);
      while ((await cycle()).integrated > 0);
      await expectLogMatchesChains();
    },
  );
});
