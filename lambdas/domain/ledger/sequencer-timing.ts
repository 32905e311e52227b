/**
 * How the sequencer in AWS keeps the bound from commit to published checkpoint (context
 * `ledgerCheckpointSeconds`, default 60) while running only when there is work. The outbox item
 * written with each event starts it through the table stream (`lib/ledger-log.ts`); the wait
 * from commit to checkpoint is then at most:
 * - the stream's delay (under a second) and the mapping's batching window, a quarter of the
 *   bound (it gathers the records of that time into one run, so that a steady load makes one
 *   run and one checkpoint per window, not one per event);
 * - the run's start (a cold start is about a second);
 * - two cycles: the one a holder of the lease may be in, which missed the event, and the one
 *   that integrates it (`sequencer-drain.ts`).
 * The bound assumes a cycle takes under a quarter of it (2.5 s at the smallest bound accepted,
 * 10 s; a cycle of a few events takes well under a second), as the scheduled sequencer before
 * it did. Bounds below 10 s are refused.
 */

/** The smallest bound the sequencer can keep. */
const MIN_CHECKPOINT_SECONDS = 10;
/** The default bound, in seconds, from commit to published checkpoint. */
export const DEFAULT_CHECKPOINT_SECONDS = 60;
/** Lambda's longest batching window for a stream event source. */
const MAX_BATCHING_WINDOW_SECONDS = 300;
/** The function's timeout: a run drains for `runSeconds` of it, the rest is for its last cycle. */
export const SEQUENCER_TIMEOUT_SECONDS = 300;
const RUN_SECONDS = 240;
const LEASE_MARGIN_SECONDS = 10;
const LEASE_RETRY_SECONDS = 0.5;

export interface SequencerTiming {
  /** How long the event source mapping gathers outbox records before it starts a run. */
  batchingWindowSeconds: number;
  /** How long the lease lasts unless renewed by the next cycle; a crashed run's is taken over after it. */
  leaseSeconds: number;
  /** The pause between looks at a lease another run holds. */
  leaseRetrySeconds: number;
  /** How long a run starts new cycles; events still waiting then go to a retry of its batch. */
  runSeconds: number;
}

/** The environment variable of each setting the function reads (`lib/ledger-log.ts` sets them). */
export const SEQUENCER_TIMING_ENVIRONMENT: Readonly<
  Record<Exclude<keyof SequencerTiming, 'batchingWindowSeconds'>, string>
> = {
  leaseSeconds: 'SEQUENCER_LEASE_SECONDS',
  leaseRetrySeconds: 'SEQUENCER_LEASE_RETRY_SECONDS',
  runSeconds: 'SEQUENCER_RUN_SECONDS',
};

/** The sequencer's settings for a bound of `checkpointSeconds`; throws for a bound it cannot keep. */
export function sequencerTiming(checkpointSeconds: number = DEFAULT_CHECKPOINT_SECONDS): SequencerTiming {
  if (!Number.isInteger(checkpointSeconds) || checkpointSeconds < MIN_CHECKPOINT_SECONDS) {
    throw new Error(
      `ledgerCheckpointSeconds must be a whole number of seconds, at least ${MIN_CHECKPOINT_SECONDS} ` +
        `(got ${checkpointSeconds}): the stream's batching window takes a quarter of the bound, and ` +
        'the run (start, DynamoDB, S3, KMS) needs the rest.',
    );
  }
  const quarter = Math.floor(checkpointSeconds / 4);
  return {
    batchingWindowSeconds: Math.min(MAX_BATCHING_WINDOW_SECONDS, quarter),
    leaseSeconds: quarter + LEASE_MARGIN_SECONDS,
    leaseRetrySeconds: LEASE_RETRY_SECONDS,
    runSeconds: RUN_SECONDS,
  };
}

/** The settings the function was given (its environment), else those of the default bound. */
export function sequencerTimingFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): Omit<SequencerTiming, 'batchingWindowSeconds'> {
  const defaults = sequencerTiming();
  const setting = (name: keyof typeof SEQUENCER_TIMING_ENVIRONMENT) =>
    Number(environment[SEQUENCER_TIMING_ENVIRONMENT[name]] || defaults[name]);
  return {
    leaseSeconds: setting('leaseSeconds'),
    leaseRetrySeconds: setting('leaseRetrySeconds'),
    runSeconds: setting('runSeconds'),
  };
}
