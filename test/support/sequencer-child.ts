/**
 * One sequencer cycle in a process of its own, for the tests that SIGKILL it (run with tsx);
 * with `SEQUENCER_CHILD_RUN=drain`, a whole run as the function starts it (`drainOutbox`).
 * The table, bucket and signing key come from the environment, as in the Lambda function.
 * With `SEQUENCER_KILL_AT_STEP` set, the (first) cycle stops after that step (the sequencer's
 * own `afterStep` hook), prints `reached <step>` and waits there for the parent's SIGKILL.
 * Without it, it runs to its end and prints `done <integrated> <treeSize>`.
 */
import { signerFromEnvironment } from '#domain/ledger/log-signer.js';
import { runSequencerCycle, type SequencerStep } from '#domain/ledger/sequencer.js';
import { drainOutbox, storedSequencerLog } from '#domain/ledger/sequencer-drain.js';

const killAt = process.env.SEQUENCER_KILL_AT_STEP as SequencerStep | undefined;

async function main() {
  const options = {
    signer: signerFromEnvironment(),
    leaseMs: Number(process.env.SEQUENCER_LEASE_MS || 30_000),
    afterStep: async (step: SequencerStep) => {
      if (step !== killAt) return;
      process.stdout.write(`reached ${step}\n`);
      // Wait for the kill; the timer keeps the process alive without doing anything.
      await new Promise(() => setInterval(() => {}, 60_000));
    },
  };
  const result =
    process.env.SEQUENCER_CHILD_RUN === 'drain'
      ? await drainOutbox(storedSequencerLog(options), { leaseRetryMs: 100, runUntil: Date.now() + 60_000 })
      : await runSequencerCycle(options);
  process.stdout.write(`done ${result.integrated} ${result.treeSize}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
