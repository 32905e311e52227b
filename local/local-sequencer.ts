/**
 * The log's sequencer inside `npm start`: a cycle every `LEDGER_SEQUENCER_INTERVAL_MS` (default
 * 250 ms) while the API runs, so that a committed event is in a published checkpoint within
 * 2 s (test/integration/ledger-checkpoint-latency.test.ts measures it with these settings). A
 * failed cycle is logged and retried at the next tick.
 */

/** The pause between cycles unless `LEDGER_SEQUENCER_INTERVAL_MS` says otherwise. */
export const DEFAULT_LOCAL_SEQUENCER_INTERVAL_MS = 250;

export interface LocalSequencer {
  stop(): Promise<void>;
}

/** Starts the loop; call once the environment points at the embedded stack (the clients read it on load). */
export async function startLocalSequencer(): Promise<LocalSequencer> {
  const { signerFromEnvironment } = await import('../lambdas/domain/ledger/log-signer.js');
  const { runSequencerCycle } = await import('../lambdas/domain/ledger/sequencer.js');
  const interval = Number(process.env.LEDGER_SEQUENCER_INTERVAL_MS || DEFAULT_LOCAL_SEQUENCER_INTERVAL_MS);
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
