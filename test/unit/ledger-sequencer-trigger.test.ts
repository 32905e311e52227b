/**
 * The sequencer in AWS, started by the table stream's outbox records, keeps the configured bound
 * from commit to published checkpoint (context `ledgerCheckpointSeconds`), on a fake clock:
 * - the stream: each committed event's outbox record is seen by the mapping 1 s after the
 *   commit, on one of three shards;
 * - the mapping: per shard, one run at a time; it gathers records for the batching window of
 *   `sequencerTiming` from the first one, then starts a run with them; a run takes 1 s to start
 *   (a cold start); a batch whose run failed or ran out of time is started again;
 * - the runs: `drainOutbox` itself, with the settings of the bound, over a simulated log whose
 *   lease behaves as `acquireLease` / `releaseLease` do and whose cycles take 2 s (a quarter of
 *   the smallest bound would be 2.5 s; a few events take well under 1 s).
 */
import { drainOutbox, type SequencerLog } from '../../lambdas/domain/ledger/sequencer-drain';
import { sequencerTiming } from '../../lambdas/domain/ledger/sequencer-timing';
import { type Lease, LeaseLostError } from '../../lambdas/repositories/ledger-store';

/** How long after its commit each record is seen by the mapping, in turn (at most 1 s). */
const STREAM_DELAYS_MS = [1000, 100, 600, 250, 900];
/** How long each run takes to start, in turn (a cold start at most). */
const STARTS_MS = [1000, 150, 700];
const CYCLE_MS = 2000;
const SHARDS = 3;
/** The fake clock's start (not 0: a released lease's expiry is 0, always in the past). */
const START = 1_000_000;

/** The log as runs see it: the lease, the outbox (commit times) and the cycles run. */
class SimulatedLog implements SequencerLog {
  lease: Lease = { expiresAt: 0 };
  outbox: number[] = [];
  cycles: Array<{ owner: string; readAt: number; publishedAt: number }> = [];
  /** Commit to published checkpoint, per event. */
  waits: number[] = [];
  /** Owners whose cycles are cut short, as by a crash: they never end. */
  crashing = new Set<string>();

  constructor(
    private readonly leaseMs: number,
    private readonly batchSize = 1000,
  ) {}

  async cycle(owner: string) {
    const readAt = Date.now();
    if (this.lease.owner !== owner && this.lease.expiresAt >= readAt) {
      return { leased: false, integrated: 0, treeSize: 0, caughtUp: false };
    }
    this.lease = { owner, expiresAt: readAt + this.leaseMs };
    const batch = this.outbox.splice(0, this.batchSize);
    await new Promise((resolve) => setTimeout(resolve, CYCLE_MS));
    if (this.crashing.has(owner)) {
      this.outbox.unshift(...batch); // the next holder redoes the pending batch
      throw new Error('crashed');
    }
    if (this.lease.owner !== owner) {
      this.outbox.unshift(...batch);
      throw new LeaseLostError('taken over');
    }
    const publishedAt = Date.now();
    this.cycles.push({ owner, readAt, publishedAt });
    for (const committedAt of batch) this.waits.push(publishedAt - committedAt);
    return {
      leased: true,
      integrated: batch.length,
      treeSize: this.waits.length,
      caughtUp: batch.length < this.batchSize,
    };
  }

  async readLease() {
    return { ...this.lease };
  }

  async releaseLease(owner: string) {
    // A crashed run's process is gone: its lease stays until it runs out.
    if (this.crashing.has(owner)) return;
    if (this.lease.owner === owner) this.lease = { owner, expiresAt: 0 };
  }
}

/** The event source mapping over the simulated stream: starts `drainOutbox` runs. */
class SimulatedMapping {
  runs: Array<{ shard: number; startedAt: number; outcome?: string; failed?: boolean }> = [];
  private readonly shards = Array.from({ length: SHARDS }, () => ({
    records: [] as number[],
    busy: false,
    windowTimer: undefined as NodeJS.Timeout | undefined,
  }));
  private written = 0;
  private pending: Array<Promise<unknown>> = [];
  /** Owners of the runs to crash, by run number. */
  crashRuns = new Set<number>();

  constructor(
    private readonly log: SimulatedLog,
    private readonly timing: ReturnType<typeof sequencerTiming>,
  ) {}

  /** An event commits: its outbox item now, its stream record a moment later. */
  write() {
    const committedAt = Date.now();
    this.log.outbox.push(committedAt);
    const shard = this.written % SHARDS;
    const delay = STREAM_DELAYS_MS[this.written++ % STREAM_DELAYS_MS.length];
    setTimeout(() => this.recordSeen(shard, committedAt), delay);
  }

  private recordSeen(shard: number, record: number) {
    this.shards[shard]!.records.push(record);
    this.schedule(shard);
  }

  private schedule(shardIndex: number) {
    const shard = this.shards[shardIndex]!;
    if (shard.busy || shard.windowTimer || shard.records.length === 0) return;
    shard.windowTimer = setTimeout(() => {
      shard.windowTimer = undefined;
      shard.busy = true;
      const batch = shard.records.splice(0);
      this.pending.push(this.invoke(shardIndex, batch));
    }, this.timing.batchingWindowSeconds * 1000);
  }

  private async invoke(shardIndex: number, batch: number[]) {
    const run: (typeof this.runs)[number] = { shard: shardIndex, startedAt: Date.now() };
    const runNumber = this.runs.push(run) - 1;
    await new Promise((resolve) => setTimeout(resolve, STARTS_MS[runNumber % STARTS_MS.length]));
    const owner = `run-${runNumber}`;
    if (this.crashRuns.has(runNumber)) this.log.crashing.add(owner);
    try {
      const result = await drainOutbox(this.log, {
        owner,
        leaseRetryMs: this.timing.leaseRetrySeconds * 1000,
        runUntil: Date.now() + this.timing.runSeconds * 1000,
      });
      run.outcome = result.outcome;
      run.failed = result.outcome === 'out-of-time';
    } catch {
      run.failed = true;
    }
    const shard = this.shards[shardIndex]!;
    shard.busy = false;
    // A failed batch comes again before anything after it.
    if (run.failed) shard.records.unshift(...batch);
    this.schedule(shardIndex);
  }

  async settled() {
    while (this.pending.length > 0) await this.pending.shift();
  }
}

async function simulate(
  checkpointSeconds: number,
  writeTimes: number[],
  options: { crashRuns?: number[] } = {},
) {
  const timing = sequencerTiming(checkpointSeconds);
  const log = new SimulatedLog(timing.leaseSeconds * 1000);
  const mapping = new SimulatedMapping(log, timing);
  for (const run of options.crashRuns ?? []) mapping.crashRuns.add(run);
  for (const at of writeTimes) setTimeout(() => mapping.write(), at);
  const lastWrite = START + Math.max(...writeTimes);
  await jest.advanceTimersByTimeAsync(lastWrite - START + 10 * 60_000);
  await mapping.settled();
  return { log, mapping, timing, lastWrite };
}

/** One event every 3.7 s for ten minutes. */
const steadyWrites = Array.from({ length: Math.floor(600_000 / 3700) }, (_, i) => 1000 + i * 3700);
/** Bursts of 40 events at once, then quiet for 17 s, ten times. */
const burstWrites = Array.from({ length: 10 }, (_, burst) =>
  Array.from({ length: 40 }, () => 1000 + burst * 17_000),
).flat();

describe('the sequencer started by the outbox records of the table stream', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: START });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it.each([10, 15, 20, 30, 60, 120])(
    'publishes every committed event within a bound of %i s, one cycle at a time',
    async (checkpointSeconds) => {
      for (const writes of [steadyWrites, burstWrites]) {
        // Act
        const { log, mapping } = await simulate(checkpointSeconds, writes);
        // Assess: every event published once, each within the bound
        expect(log.waits).toHaveLength(writes.length);
        expect(log.outbox).toEqual([]);
        expect(Math.max(...log.waits)).toBeLessThanOrEqual(checkpointSeconds * 1000);
        // One cycle at a time; runs started at once on several shards shared the work.
        const cycles = [...log.cycles].sort((left, right) => left.readAt - right.readAt);
        for (let i = 0; i + 1 < cycles.length; i++) {
          expect(cycles[i + 1]!.readAt).toBeGreaterThanOrEqual(cycles[i]!.publishedAt);
        }
        expect(mapping.runs.every((run) => !run.failed)).toBe(true);
        expect(log.lease.expiresAt).toBe(0);
      }
    },
  );

  it('hands the work of a run that finds the lease held over to the holder, and runs nothing while idle', async () => {
    // Act
    const { log, mapping, lastWrite } = await simulate(60, burstWrites);
    // Assess: runs ended both ways, and none started once the last records were handled
    const outcomes = new Set(mapping.runs.map((run) => run.outcome));
    expect(outcomes).toEqual(new Set(['drained', 'handed-over']));
    const lastRunStart = Math.max(...mapping.runs.map((run) => run.startedAt));
    expect(lastRunStart).toBeLessThan(lastWrite + 60_000);
    expect(mapping.runs.length).toBeLessThan(burstWrites.length / 4);
    expect(log.cycles.every((cycle) => cycle.publishedAt < lastWrite + 60_000)).toBe(true);
    expect(log.lease.expiresAt).toBe(0);
  });

  it('integrates the events of a run that crashed while holding the lease: its retry waits out the lease', async () => {
    // Act: the first run and a later one crash mid-cycle, holding the lease
    const { log, mapping, timing } = await simulate(60, steadyWrites, { crashRuns: [0, 5] });
    // Assess: every event published once; the crashes cost at most the lease and a retry's start
    expect(mapping.runs.filter((run) => run.failed)).toHaveLength(2);
    expect(log.waits).toHaveLength(steadyWrites.length);
    expect(log.outbox).toEqual([]);
    expect(Math.max(...log.waits)).toBeLessThanOrEqual(
      60_000 + timing.leaseSeconds * 1000 + Math.max(...STARTS_MS) + CYCLE_MS,
    );
  });

  it(`refuses a bound under 10 s, or not a whole number of seconds`, () => {
    expect(() => sequencerTiming(9)).toThrow(
      /ledgerCheckpointSeconds must be a whole number of seconds, at least 10 \(got 9\)/,
    );
    expect(() => sequencerTiming(Number.NaN)).toThrow(/got NaN/);
    expect(() => sequencerTiming(12.5)).toThrow(/got 12.5/);
    expect(sequencerTiming(10)).toMatchObject({ batchingWindowSeconds: 2 });
    expect(sequencerTiming(60)).toMatchObject({ batchingWindowSeconds: 15, leaseSeconds: 25 });
  });
});

describe('a run of the sequencer', () => {
  const options = { leaseRetryMs: 500, runUntil: Number.POSITIVE_INFINITY };
  beforeEach(() => {
    jest.useFakeTimers({ now: START });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('drains a backlog of several batches, then releases the lease', async () => {
    // Prepare
    const log = new SimulatedLog(25_000, 2);
    log.outbox.push(0, 0, 0, 0, 0);
    // Act
    const run = drainOutbox(log, options);
    await jest.advanceTimersByTimeAsync(60_000);
    // Assess
    await expect(run).resolves.toMatchObject({ outcome: 'drained', integrated: 5, cycles: 3 });
    expect(log.outbox).toEqual([]);
    expect(log.lease.expiresAt).toBe(0);
  });

  it('takes the lease once the holder, which read the outbox before its event, releases it', async () => {
    // Prepare: the holder is in a cycle that read the outbox (empty) when an event commits
    const log = new SimulatedLog(25_000);
    const holder = drainOutbox(log, { ...options, owner: 'holder' });
    await jest.advanceTimersByTimeAsync(100);
    log.outbox.push(Date.now());
    // Act: the event's run finds the lease held
    const run = drainOutbox(log, { ...options, owner: 'run' });
    await jest.advanceTimersByTimeAsync(60_000);
    // Assess: the holder ended caught up without it; the run integrated it
    await expect(holder).resolves.toMatchObject({ outcome: 'drained', integrated: 0 });
    await expect(run).resolves.toMatchObject({ outcome: 'drained', integrated: 1 });
    expect(log.outbox).toEqual([]);
    expect(log.waits).toHaveLength(1);
  });

  it('hands its event over to a holder that renews the lease after it found it held', async () => {
    // Prepare: the holder has a backlog of two batches when an event commits
    const log = new SimulatedLog(25_000, 2);
    log.outbox.push(0, 0, 0);
    const holder = drainOutbox(log, { ...options, owner: 'holder' });
    await jest.advanceTimersByTimeAsync(100);
    log.outbox.push(Date.now());
    // Act
    const run = drainOutbox(log, { ...options, owner: 'run' });
    await jest.advanceTimersByTimeAsync(60_000);
    // Assess: the run ended at the renewal; the holder's next cycle took its event
    await expect(run).resolves.toMatchObject({ outcome: 'handed-over', integrated: 0, cycles: 0 });
    await expect(holder).resolves.toMatchObject({ outcome: 'drained', integrated: 4 });
    expect(log.outbox).toEqual([]);
  });

  it('waits out the lease of a crashed holder, then drains', async () => {
    // Prepare: a holder crashed mid-cycle; its lease runs 25 s more
    const log = new SimulatedLog(25_000);
    log.outbox.push(0, 0);
    log.crashing.add('crashed');
    await expect(
      Promise.all([
        drainOutbox(log, { ...options, owner: 'crashed' }),
        jest.advanceTimersByTimeAsync(CYCLE_MS),
      ]),
    ).rejects.toThrow('crashed');
    // Act
    const retry = drainOutbox(log, options);
    await jest.advanceTimersByTimeAsync(60_000);
    // Assess
    await expect(retry).resolves.toMatchObject({ outcome: 'drained', integrated: 2 });
    expect(log.cycles[0]!.readAt).toBeGreaterThanOrEqual(START + 25_000);
  });

  it('stops starting cycles at the end of its time, says so, and releases the lease', async () => {
    // Prepare
    const log = new SimulatedLog(25_000, 2);
    log.outbox.push(0, 0, 0, 0, 0);
    // Act
    const run = drainOutbox(log, { ...options, runUntil: START + 3000 });
    await jest.advanceTimersByTimeAsync(60_000);
    // Assess
    await expect(run).resolves.toMatchObject({ outcome: 'out-of-time', integrated: 4, cycles: 2 });
    expect(log.outbox).toHaveLength(1);
    expect(log.lease.expiresAt).toBe(0);
  });
});
