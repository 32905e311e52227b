/**
 * Scheduled every minute (EventBridge rule → this function): runs sequencer cycles until
 * `SEQUENCER_RUN_SECONDS`, one every `SEQUENCER_POLL_SECONDS` and back to back while there is
 * a backlog, so that a committed event is in a published checkpoint within the configured
 * bound. Logs each checkpoint's size.
 */
import { signerFromEnvironment } from '#domain/ledger/log-signer.js';
import { runSequencerCycle } from '#domain/ledger/sequencer.js';

const signer = signerFromEnvironment();

export const handler = async (): Promise<{ integrated: number; treeSize: number }> => {
  const runUntil = Date.now() + Number(process.env.SEQUENCER_RUN_SECONDS || 50) * 1000;
  const pauseMs = Number(process.env.SEQUENCER_POLL_SECONDS || 20) * 1000;
  let integrated = 0;
  let treeSize = 0;
  while (Date.now() < runUntil) {
    const cycle = await runSequencerCycle({ signer });
    integrated += cycle.integrated;
    treeSize = Math.max(treeSize, cycle.treeSize);
    if (!cycle.leased) break; // another run holds the lease and does the work
    if (cycle.integrated > 0) {
      console.log(
        JSON.stringify({ level: 'INFO', message: 'Ledger checkpoint published', treeSize, integrated }),
      );
      continue;
    }
    if (Date.now() + pauseMs >= runUntil) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { integrated, treeSize };
};
