/**
 * The log's sequencer inside `npm start`: a cycle every `LEDGER_SEQUENCER_INTERVAL_MS` (default
 * 250 ms) while the API runs, so that a committed event is in a published checkpoint within
 * about a second. A failed cycle is logged and retried at the next tick.
 */
import { signerFromEnvironment } from '../lambdas/domain/ledger/log-signer.js';
import { runSequencerCycle } from '../lambdas/domain/ledger/sequencer.js';

export interface LocalSequencer {
  stop(): Promise<void>;
}

export function startLocalSequencer(): LocalSequencer {
  const interval = Number(process.env.LEDGER_SEQUENCER_INTERVAL_MS || 250);
  const signer = signerFromEnvironment();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        // Drain: one cycle per batch while there is a backlog.
        while (!stopped && (await runSequencerCycle({ signer })).integrated > 0);
      } catch (error) {
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: 'Ledger sequencer cycle failed',
            errorMessage: String(error),
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
