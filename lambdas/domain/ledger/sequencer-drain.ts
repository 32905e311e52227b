/**
 * One run of the sequencer, started by outbox records (in AWS the table stream's event source
 * mapping; locally the stream reader): it integrates the whole outbox, not only the events of
 * the records that started it, then gives up the lease. Runs started at once (one per stream
 * shard, a retry beside a new batch) share the work through the lease:
 * - the run that takes the lease runs cycles until one reads the outbox and takes all it holds
 *   (`caughtUp`), then releases the lease;
 * - a run that finds the lease held looks at it again every `leaseRetryMs`. It takes the lease
 *   once it is released or has run out (a crashed holder), and drains as above; or it ends as
 *   soon as it sees the lease written again by a holder (renewed, or taken by another run)
 *   after it first found it held. Every lease write begins a cycle that reads the outbox, and a
 *   holder runs cycles until one is caught up, so that holder integrates every event committed
 *   before this run began: the events this run was started for.
 * A holder that crashes fails its own run, which the mapping retries: the retry waits out the
 * lease and drains. A run that has drained for `runUntil` without catching up (a backlog longer
 * than a run) says so (`out-of-time`), and its batch is retried to go on.
 *
 * Under a witness policy a run is not done while its last checkpoint waits for its quorum of
 * cosignatures (a witness down): caught up, it keeps the lease and runs a cycle every
 * `witnessRetryMs`, each of which integrates what came meanwhile and asks the witnesses again,
 * until the checkpoint is published or the run's time is spent (`out-of-time`: the trigger
 * comes again, and the next run goes on asking).
 */
import { randomUUID } from 'node:crypto';
import { type Lease, LeaseLostError, type SequencerStore } from '#repositories/ledger-store.js';
import { storedSequencerStore } from '#repositories/stored-ledger.js';
import type { LogSigner } from './log-signer.js';
import { type CycleResult, runSequencerCycle, type SequencerStep } from './sequencer.js';
import type { Witnessing } from './witness-config.js';

/** What a run needs of the log: its cycle and its lease. Tests give a simulated one. */
export interface SequencerLog {
  /** One cycle (`runSequencerCycle`) as `owner`; throws `LeaseLostError` when the lease was taken over. */
  cycle(owner: string): Promise<CycleResult>;
  readLease(): Promise<Lease>;
  releaseLease(owner: string): Promise<void>;
}

export interface DrainOptions {
  /** The pause between looks at a lease another run holds. */
  leaseRetryMs: number;
  /** No cycle starts after this moment (ms since the epoch). */
  runUntil: number;
  /** The lease owner of this run; by default a new one, so that each run's lease is its own. */
  owner?: string;
  /** The pause before asking the witnesses again for a checkpoint still short of its quorum. */
  witnessRetryMs?: number;
}

/** The pause before asking witnesses again, when not given: well within any lease (12 s or more). */
const DEFAULT_WITNESS_RETRY_MS = 2000;

/**
 * - `drained`: this run took everything the outbox held after it began;
 * - `handed-over`: another run wrote the lease after this one found it held, and integrates it;
 * - `out-of-time`: events may still wait; the run's trigger must come again.
 */
type DrainOutcome = 'drained' | 'handed-over' | 'out-of-time';

export interface DrainResult {
  outcome: DrainOutcome;
  /** Events this run integrated. */
  integrated: number;
  /** The tree size of its last checkpoint (0 when it published none). */
  treeSize: number;
  /** Cycles it ran holding the lease. */
  cycles: number;
  /** True when its last cycle left the integrated head short of the witness quorum. */
  awaitingWitnesses: boolean;
}

/** The log of `store` (by default the stored ledger, in DynamoDB and S3), signed by `signer`. */
export function storedSequencerLog(options: {
  signer: LogSigner;
  leaseMs: number;
  store?: SequencerStore;
  batchSize?: number;
  /** Called after each step: tests crash the sequencer here. */
  afterStep?: (step: SequencerStep) => void | Promise<void>;
  /** The witness policy that governs publication, if any. */
  witnessing?: Witnessing;
}): SequencerLog {
  const store = options.store ?? storedSequencerStore;
  return {
    cycle: (owner) => runSequencerCycle({ ...options, owner }),
    readLease: () => store.readLease(),
    releaseLease: (owner) => store.releaseLease(owner),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when `now` is a lease written after `first` was read (not the same write, not a release). */
const writtenSince = (first: Lease, now: Lease) =>
  now.expiresAt !== 0 && (now.owner !== first.owner || now.expiresAt !== first.expiresAt);

/** Runs the sequencer until the outbox is drained or another run has taken the work over; see the module comment. */
export async function drainOutbox(log: SequencerLog, options: DrainOptions): Promise<DrainResult> {
  const owner = options.owner ?? `sequencer-${randomUUID()}`;
  const result: DrainResult = {
    outcome: 'out-of-time',
    integrated: 0,
    treeSize: 0,
    cycles: 0,
    awaitingWitnesses: false,
  };
  /** The lease as this run first found it held by another, since it last held it. */
  let foundHeld: Lease | undefined;
  try {
    while (Date.now() < options.runUntil) {
      let cycle: CycleResult;
      try {
        cycle = await log.cycle(owner);
      } catch (error) {
        // Taken over mid-cycle (this run was slower than its lease): the taker redoes the batch.
        if (!(error instanceof LeaseLostError)) throw error;
        cycle = { leased: false, integrated: 0, treeSize: 0, caughtUp: false };
      }
      if (cycle.leased) {
        foundHeld = undefined;
        result.cycles++;
        result.integrated += cycle.integrated;
        result.treeSize = cycle.treeSize;
        result.awaitingWitnesses = cycle.awaitingWitnesses === true;
        if (cycle.caughtUp && !cycle.awaitingWitnesses) return { ...result, outcome: 'drained' };
        // Caught up but not witnessed: ask again after a pause, holding the lease.
        if (cycle.caughtUp) await sleep(options.witnessRetryMs ?? DEFAULT_WITNESS_RETRY_MS);
        continue; // a backlog: drain it back to back
      }
      const lease = await log.readLease();
      if (foundHeld && writtenSince(foundHeld, lease)) return { ...result, outcome: 'handed-over' };
      // Not when released meanwhile: the next try takes it.
      if (lease.expiresAt !== 0) foundHeld ??= lease;
      await sleep(options.leaseRetryMs);
    }
    return result;
  } finally {
    // Were this to fail, the lease would still run out (`SequencerTiming.leaseSeconds`).
    await log.releaseLease(owner).catch((error: unknown) =>
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'Ledger lease not released',
          errorMessage: String(error),
        }),
      ),
    );
  }
}
