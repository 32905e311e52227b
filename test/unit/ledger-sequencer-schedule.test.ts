/**
 * The scheduled sequencer in AWS keeps the configured bound from commit to published checkpoint
 * (context `ledgerCheckpointSeconds`), on a fake clock: EventBridge starts the handler every
 * minute, each time a few seconds late by a different amount; every cycle takes 2 s; the lease
 * behaves as `acquireLease` does (one owner at a time, taken over once expired). The handler
 * runs with the environment the stack gives it (`sequencerTiming`, checked against the
 * synthesized function in test/infra/ledger-stack.test.ts).
 */

import {
  MIN_CHECKPOINT_SECONDS,
  SCHEDULE_PERIOD_SECONDS,
  sequencerTiming,
} from '../../lambdas/domain/ledger/sequencer-timing';
import { handler } from '../../lambdas/jobs/sequence-ledger';

/** A cycle's time: a quarter of the smallest bound would be 2.5 s; a few events take well under 1 s. */
const CYCLE_MS = 2000;
/** How late EventBridge starts each minute's run, in seconds. */
const START_DELAYS = [0, 7, 2, 8, 0, 5, 1, 8, 3, 0, 6, 8, 0];

interface CycleOptions {
  owner: string;
  leaseMs: number;
}

/** The log's state as the handler sees it through the sequencer: the lease, the outbox and the cycles run. */
class SimulatedLog {
  lease = { owner: '', until: Number.NEGATIVE_INFINITY };
  /** Commit times of the events waiting in the outbox. */
  outbox: number[] = [];
  cycles: Array<{ owner: string; readAt: number; publishedAt: number }> = [];
  /** Commit to published checkpoint, per event. */
  waits: number[] = [];

  async cycle({ owner, leaseMs }: CycleOptions) {
    const readAt = Date.now();
    if (this.lease.owner !== owner && this.lease.until >= readAt) {
      return { leased: false, integrated: 0, treeSize: 0 };
    }
    this.lease = { owner, until: readAt + leaseMs };
    const batch = this.outbox.splice(0);
    await new Promise((resolve) => setTimeout(resolve, CYCLE_MS));
    if (this.lease.owner !== owner) throw new Error('lease lost mid-cycle: the lease is too short');
    const publishedAt = Date.now();
    this.cycles.push({ owner, readAt, publishedAt });
    for (const committedAt of batch) this.waits.push(publishedAt - committedAt);
    return { leased: true, integrated: batch.length, treeSize: this.waits.length };
  }

  async release(owner: string) {
    const now = Date.now();
    if (this.lease.owner === owner || this.lease.until < now) this.lease = { owner, until: now };
  }
}

let mockLog = new SimulatedLog();
jest.mock('../../lambdas/domain/ledger/log-signer', () => ({ signerFromEnvironment: () => ({}) }));
jest.mock('../../lambdas/domain/ledger/sequencer', () => ({
  LeaseLostError: class LeaseLostError extends Error {},
  runSequencerCycle: (options: CycleOptions) => mockLog.cycle(options),
  releaseLease: (owner: string) => mockLog.release(owner),
}));

const ENVIRONMENT = [
  'SEQUENCER_POLL_SECONDS',
  'SEQUENCER_RUN_SECONDS',
  'SEQUENCER_LEASE_SECONDS',
  'SEQUENCER_LEASE_RETRY_SECONDS',
];

/** Runs the schedule for `START_DELAYS.length` minutes with one event committed every 3.7 s. */
async function simulate(checkpointSeconds: number): Promise<SimulatedLog> {
  const timing = sequencerTiming(checkpointSeconds);
  process.env.SEQUENCER_POLL_SECONDS = String(timing.pollSeconds);
  process.env.SEQUENCER_RUN_SECONDS = String(timing.runSeconds);
  process.env.SEQUENCER_LEASE_SECONDS = String(timing.leaseSeconds);
  process.env.SEQUENCER_LEASE_RETRY_SECONDS = String(timing.leaseRetrySeconds);
  mockLog = new SimulatedLog();
  const log = mockLog;
  const runs: Array<Promise<unknown>> = [];
  START_DELAYS.forEach((delay, minute) => {
    setTimeout(() => runs.push(handler()), (minute * SCHEDULE_PERIOD_SECONDS + delay) * 1000);
  });
  // Events until the last run starts (after it ends, no run follows in this simulation).
  const lastStartMs = (START_DELAYS.length - 1) * SCHEDULE_PERIOD_SECONDS * 1000;
  for (let at = 1000; at < lastStartMs; at += 3700) setTimeout(() => log.outbox.push(Date.now()), at);
  await jest.advanceTimersByTimeAsync(lastStartMs + (timing.runSeconds + 30) * 1000);
  await Promise.all(runs);
  return log;
}

describe('the scheduled sequencer in AWS', () => {
  const saved = Object.fromEntries(ENVIRONMENT.map((name) => [name, process.env[name]]));
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
    for (const name of ENVIRONMENT) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it.each([10, 15, 20, 30, 60, 120])(
    'publishes every committed event within a bound of %i s, across the minute runs',
    async (checkpointSeconds) => {
      // Act
      const log = await simulate(checkpointSeconds);
      // Assess: every event is published, each within the bound
      const committed = Math.ceil(((START_DELAYS.length - 1) * SCHEDULE_PERIOD_SECONDS * 1000 - 1000) / 3700);
      expect(log.waits).toHaveLength(committed);
      expect(Math.max(...log.waits)).toBeLessThanOrEqual(checkpointSeconds * 1000);
      // ...and so would an event committed at any moment: just after a cycle read the outbox,
      // it waits for the next cycle to publish. One cycle at a time, runs taking over in turn.
      const cycles = [...log.cycles].sort((left, right) => left.readAt - right.readAt);
      expect(new Set(cycles.map((cycle) => cycle.owner)).size).toBe(START_DELAYS.length);
      let worstWait = 0;
      for (let i = 0; i + 1 < cycles.length; i++) {
        const [cycle, next] = [cycles[i]!, cycles[i + 1]!];
        expect(next.readAt).toBeGreaterThanOrEqual(cycle.publishedAt);
        worstWait = Math.max(worstWait, next.publishedAt - cycle.readAt);
      }
      expect(worstWait).toBeLessThanOrEqual(checkpointSeconds * 1000);
    },
  );

  it(`refuses a bound under ${MIN_CHECKPOINT_SECONDS} s, or not a whole number of seconds`, () => {
    expect(() => sequencerTiming(MIN_CHECKPOINT_SECONDS - 1)).toThrow(
      /ledgerCheckpointSeconds must be a whole number of seconds, at least 10 \(got 9\)/,
    );
    expect(() => sequencerTiming(Number.NaN)).toThrow(/got NaN/);
    expect(() => sequencerTiming(12.5)).toThrow(/got 12.5/);
    expect(sequencerTiming(MIN_CHECKPOINT_SECONDS)).toMatchObject({ pollSeconds: 5 });
  });
});
