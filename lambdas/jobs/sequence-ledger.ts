/**
 * Started every minute (EventBridge rule → this function): runs sequencer cycles for
 * `SEQUENCER_RUN_SECONDS` (a minute and an overlap with the next run), one every
 * `SEQUENCER_POLL_SECONDS` and back to back while there is a backlog, so that a committed event
 * is in a published checkpoint within the configured bound (`sequencer-timing.ts` says how).
 * While another run holds the lease it tries again every `SEQUENCER_LEASE_RETRY_SECONDS`; it
 * releases its own lease when it ends, so the next run takes over at once. Logs each checkpoint.
 */
import { randomUUID } from 'node:crypto';
import { signerFromEnvironment } from '#domain/ledger/log-signer.js';
import {
  type CycleResult,
  LeaseLostError,
  releaseLease,
  runSequencerCycle,
} from '#domain/ledger/sequencer.js';
import {
  SEQUENCER_TIMING_ENVIRONMENT,
  type SequencerTiming,
  sequencerTiming,
} from '#domain/ledger/sequencer-timing.js';

const signer = signerFromEnvironment();

const DEFAULTS = sequencerTiming();
/** A timing setting from the environment, else its default, in milliseconds. */
const milliseconds = (setting: keyof SequencerTiming) =>
  Number(process.env[SEQUENCER_TIMING_ENVIRONMENT[setting]] || DEFAULTS[setting]) * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const handler = async (): Promise<{ integrated: number; treeSize: number }> => {
  const runUntil = Date.now() + milliseconds('runSeconds');
  const pollMs = milliseconds('pollSeconds');
  const leaseMs = milliseconds('leaseSeconds');
  const retryMs = milliseconds('leaseRetrySeconds');
  // One owner per run: a run's lease is its own even when Lambda reuses the container.
  const owner = `sequencer-${randomUUID()}`;
  let integrated = 0;
  let treeSize = 0;
  try {
    for (;;) {
      let cycle: CycleResult;
      try {
        cycle = await runSequencerCycle({ signer, owner, leaseMs });
      } catch (error) {
        // Another run took the lease over mid-cycle: it finishes the batch; try for it again.
        if (!(error instanceof LeaseLostError)) throw error;
        cycle = { leased: false, integrated: 0, treeSize: 0 };
      }
      integrated += cycle.integrated;
      treeSize = Math.max(treeSize, cycle.treeSize);
      if (cycle.integrated > 0) {
        console.log(
          JSON.stringify({ level: 'INFO', message: 'Ledger checkpoint published', treeSize, integrated }),
        );
        if (Date.now() < runUntil) continue; // a backlog: drain it back to back
      }
      const remaining = runUntil - Date.now();
      if (remaining <= 0) break;
      // The last pause is cut short, so that the last cycle runs at `runUntil`.
      await sleep(Math.min(cycle.leased ? pollMs : retryMs, remaining));
    }
  } finally {
    // Were this to fail, the lease would still run out after `SEQUENCER_LEASE_SECONDS`.
    await releaseLease(owner).catch((error: unknown) =>
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Ledger lease not released', errorMessage: String(error) }),
      ),
    );
  }
  return { integrated, treeSize };
};
