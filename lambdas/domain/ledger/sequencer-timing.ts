/**
 * How the scheduled sequencer in AWS (`lambdas/jobs/sequence-ledger.ts`, started every minute by
 * EventBridge) keeps the bound from commit to published checkpoint (context
 * `ledgerCheckpointSeconds`, default 60):
 * - a run polls the outbox every `pollSeconds` (half the bound, at most 20 s) and back to back
 *   while there is a backlog, so within a run an event waits at most a poll and two cycles;
 * - a run lasts `runSeconds`: the schedule's minute plus an overlap, so the next run is started
 *   before this one ends even when EventBridge starts it a few seconds late. The next run, finding
 *   the lease held, tries again every `leaseRetrySeconds`; the ending run releases the lease after
 *   its last cycle, so the next one takes over within a second: polling never stops;
 * - the lease lasts `leaseSeconds` (a poll and a long cycle), so that the run holding it keeps it
 *   from one poll to the next, and a crashed run's lease is taken over soon after.
 * The bound assumes a cycle takes under a quarter of it (2.5 s at the smallest bound accepted,
 * 10 s; a cycle of a few events takes well under a second). Bounds below 10 s are refused.
 */

/** EventBridge's shortest schedule: the function is started every minute. */
export const SCHEDULE_PERIOD_SECONDS = 60;
/** How long consecutive runs overlap: covers EventBridge starting a run several seconds late. */
export const RUN_OVERLAP_SECONDS = 20;
/** The smallest bound the scheduled sequencer can keep. */
export const MIN_CHECKPOINT_SECONDS = 10;
/** The default bound, in seconds, from commit to published checkpoint. */
export const DEFAULT_CHECKPOINT_SECONDS = 60;
const MAX_POLL_SECONDS = 20;
const LEASE_MARGIN_SECONDS = 10;

export interface SequencerTiming {
  /** The pause between cycles when the outbox is empty. */
  pollSeconds: number;
  /** How long one scheduled run lasts. */
  runSeconds: number;
  /** How long the lease lasts unless renewed by the next cycle. */
  leaseSeconds: number;
  /** The pause between tries for a lease another run holds. */
  leaseRetrySeconds: number;
}

/** The environment variable of each setting, which `lib/ledger-log.ts` sets and the job reads. */
export const SEQUENCER_TIMING_ENVIRONMENT: Readonly<Record<keyof SequencerTiming, string>> = {
  pollSeconds: 'SEQUENCER_POLL_SECONDS',
  runSeconds: 'SEQUENCER_RUN_SECONDS',
  leaseSeconds: 'SEQUENCER_LEASE_SECONDS',
  leaseRetrySeconds: 'SEQUENCER_LEASE_RETRY_SECONDS',
};

/** The sequencer's settings for a bound of `checkpointSeconds`; throws for a bound it cannot keep. */
export function sequencerTiming(checkpointSeconds: number = DEFAULT_CHECKPOINT_SECONDS): SequencerTiming {
  if (!Number.isInteger(checkpointSeconds) || checkpointSeconds < MIN_CHECKPOINT_SECONDS) {
    throw new Error(
      `ledgerCheckpointSeconds must be a whole number of seconds, at least ${MIN_CHECKPOINT_SECONDS} ` +
        `(got ${checkpointSeconds}): the sequencer waits up to half the bound between polls, and a ` +
        'cycle (DynamoDB, S3, KMS) needs the rest.',
    );
  }
  const pollSeconds = Math.min(MAX_POLL_SECONDS, Math.floor(checkpointSeconds / 2));
  return {
    pollSeconds,
    runSeconds: SCHEDULE_PERIOD_SECONDS + RUN_OVERLAP_SECONDS,
    leaseSeconds: pollSeconds + LEASE_MARGIN_SECONDS,
    leaseRetrySeconds: 1,
  };
}
