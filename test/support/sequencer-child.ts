/**
 * One sequencer cycle in a process of its own, for the tests that SIGKILL it (run with tsx).
 * The table, bucket and signing key come from the environment, as in the Lambda function.
 * With `SEQUENCER_KILL_AT_STEP` set, the cycle stops after that step (the sequencer's own
 * `afterStep` hook), prints `reached <step>` and waits there for the parent's SIGKILL. Without
 * it, the cycle runs to its end and prints `done <integrated> <treeSize>`.
 */
import { signerFromEnvironment } from '#domain/ledger/log-signer.js';
import { runSequencerCycle, type SequencerStep } from '#domain/ledger/sequencer.js';

const killAt = process.env.SEQUENCER_KILL_AT_STEP as SequencerStep | undefined;

async function main() {
  const result = await runSequencerCycle({
    signer: signerFromEnvironment(),
    leaseMs: Number(process.env.SEQUENCER_LEASE_MS || 30_000),
    afterStep: async (step) => {
      if (step !== killAt) return;
      process.stdout.write(`reached ${step}\n`);
      // Wait for the kill; the timer keeps the process alive without doing anything.
      await new Promise(() => setInterval(() => {}, 60_000));
    },
  });
  process.stdout.write(`done ${result.integrated} ${result.treeSize}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
