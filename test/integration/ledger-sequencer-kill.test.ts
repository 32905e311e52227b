/**
 * The sequencer killed for real: each cycle runs in a child process (tsx) against the tier's
 * DynamoDB Local and s3rver, which stops after one of its steps, says so on stdout and is sent
 * SIGKILL there. A fresh sequencer then finishes the batch; the log must still hold every
 * event of every chain exactly once, under a checkpoint that verifies and is consistent with
 * the one published before the kill. A whole run as the table stream starts it (`drainOutbox`)
 * is killed the same way, and the retried run finishes its batch.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { consistencyProof } from '../../lambdas/domain/ledger/log-tree';
import {
  runSequencerCycle,
  SEQUENCER_STEPS,
  type SequencerStep,
} from '../../lambdas/domain/ledger/sequencer';
import { drainOutbox, storedSequencerLog } from '../../lambdas/domain/ledger/sequencer-drain';
import { readLease, readLogState } from '../../lambdas/repositories/log-state-repository';
import { storedHashes } from '../../lambdas/repositories/log-tile-store';
import { verifyConsistency } from '../../verifier/index';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { expectLogMatchesChains, scanAll, writeEvents } from '../support/sequencer-log';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'sequencer-child.ts');
/** The child's lease: long enough for its steps on a busy machine, short enough to wait out after the kill. */
const CHILD_LEASE_MS = 1500;
const LEASE_MS = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

/** Starts a sequencer cycle (or run) in a child process that waits after `step`, and SIGKILLs it there. */
async function killSequencerAfter(step: SequencerStep, run: 'cycle' | 'drain' = 'cycle'): Promise<void> {
  // Node itself with tsx's loader, not the tsx wrapper: SIGKILL must reach the sequencer's own
  // process (killing the wrapper left the sequencer running as an orphan).
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      LEDGER_LOG_ORIGIN: ledger.origin,
      LEDGER_SIGNING_KEY_FILE: ledger.keyFile,
      SEQUENCER_LEASE_MS: String(CHILD_LEASE_MS),
      SEQUENCER_KILL_AT_STEP: step,
      SEQUENCER_CHILD_RUN: run,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes(`reached ${step}\n`)) resolve();
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`The sequencer exited (${code ?? signal}) before ${step}: ${stdout}${stderr}`)),
    );
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_, signal) => resolve(signal)),
  );
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  child.stdout!.destroy();
  child.stderr!.destroy();
  children.delete(child);
}

const cycle = () => runSequencerCycle({ signer: ledger.signer, leaseMs: LEASE_MS });

describe('the sequencer, SIGKILLed', () => {
  beforeAll(async () => {
    // A published checkpoint to start from, so that every kill follows an earlier one.
    await writeEvents(1, 1);
    while ((await cycle()).integrated > 0);
    await expectLogMatchesChains();
  });

  it.each(SEQUENCER_STEPS)('loses and doubles nothing when killed after %s', async (killAfter) => {
    const before = await readLogState();
    await writeEvents(2, 3);
    const written = (await scanAll('T#')).filter((item) => item.entity === 'ledgerEvent').length;
    expect(written).toBeGreaterThan(before.treeSize);
    await pause(LEASE_MS + 50);
    await killSequencerAfter(killAfter);
    // The kill really left the cycle where it was: a new tree head is published only by `commit`.
    const killed = await readLogState();
    const committed = SEQUENCER_STEPS.indexOf(killAfter) >= SEQUENCER_STEPS.indexOf('commit');
    expect(killed.treeSize).toBe(committed ? written : before.treeSize);
    // The next sequencer waits for the dead one's lease to run out, then finishes its batch.
    await pause(CHILD_LEASE_MS + 100);
    while ((await cycle()).integrated > 0);
    await expectLogMatchesChains();

    const after = await readLogState();
    expect(after.treeSize).toBe(written);
    const proof = await consistencyProof(storedHashes(after.treeSize), before.treeSize, after.treeSize);
    expect(
      await verifyConsistency(
        before.treeSize,
        after.treeSize,
        before.rootHash!,
        after.rootHash!,
        proof.map((hash) => hash.toString('hex')),
      ),
    ).toBe(true);
  });
});

describe('a run started by outbox records, SIGKILLed', () => {
  it.each(['pending', 'checkpoint-files', 'commit'] as SequencerStep[])(
    'is finished by the retried run, which waits out its lease, when killed after %s',
    async (killAfter) => {
      // Prepare
      const before = await readLogState();
      await writeEvents(2, 2);
      const written = (await scanAll('T#')).filter((item) => item.entity === 'ledgerEvent').length;
      await pause(LEASE_MS + 50);
      await killSequencerAfter(killAfter, 'drain');
      const deadLease = await readLease();
      // Act: the mapping starts the failed batch again, at once
      let leaseTakenAt = 0;
      const retriedLog = storedSequencerLog({
        signer: ledger.signer,
        leaseMs: LEASE_MS,
        afterStep: (step) => {
          if (step === 'lease') leaseTakenAt ||= Date.now();
        },
      });
      const retried = await drainOutbox(retriedLog, { leaseRetryMs: 50, runUntil: Date.now() + 60_000 });
      // Assess: it took over only once the dead run's lease ran out, and finished the batch
      expect(retried.outcome).toBe('drained');
      expect(deadLease.expiresAt).toBeGreaterThan(0);
      expect(leaseTakenAt).toBeGreaterThan(deadLease.expiresAt);
      expect((await readLogState()).treeSize).toBe(written);
      expect(written).toBeGreaterThan(before.treeSize);
      await expectLogMatchesChains();
    },
  );
});
