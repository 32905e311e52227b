/**
 * The witness SIGKILLed between its checks and its store, and between its store and its
 * answer (the CLI's `WITNESS_STOP_AFTER_STEP` hook makes it hang there and say so): after a
 * restart on the same data folder it never cosigns two inconsistent checkpoints, and a size
 * it stored (or answered 200 for) is never forgotten.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNote, parseVerifierKey } from '../../verifier/index';
import { INCONSISTENCIES_FILE } from '../../witness/start-witness-server';
import { checkCosignature, noteText } from '../support/cosignature-check';
import { type TestLog, testLog } from '../support/witness-log';
import { killWitnesses, startWitnessProcess, type WitnessProcess } from '../support/witness-process';

jest.setTimeout(120_000);

let log: TestLog;
beforeAll(async () => {
  log = await testLog('log.example/killed');
});
afterEach(killWitnesses);

const dataDirOf = (args: string[]) => args[args.indexOf('--data') + 1] as string;

const addCheckpoint = (witness: WitnessProcess, body: string) =>
  fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body });

/** The size in the checkpoint the witness serves to monitors (undefined on 404). */
async function servedSize(witness: WitnessProcess): Promise<number | undefined> {
  const originHash = createHash('sha256').update(log.signer.keyName).digest('hex');
  const response = await fetch(`${witness.url}/${originHash}/checkpoint`);
  if (response.status === 404) return undefined;
  const note = await response.text();
  await openNote(note, await parseVerifierKey(log.verifierKey));
  return Number(note.split('\n')[1]);
}

/** A witness on a fresh folder that has cosigned size 4 of the log; its arguments to restart it. */
async function witnessAtSize4(stopAfter?: 'verified' | 'stored') {
  const dataDir = mkdtempSync(join(tmpdir(), 'witness-kill-'));
  const args = ['--port', '0', '--data', dataDir, '--log', log.verifierKey];
  const first = await startWitnessProcess(args);
  expect((await addCheckpoint(first, await log.body(0, 4))).status).toBe(200);
  await first.kill();
  return { args, witness: stopAfter ? await startWitnessProcess(args, { stopAfter }) : undefined };
}

/** Posts and waits until the witness hangs at its step, then kills it: the request gets no answer. */
async function killDuring(witness: WitnessProcess, body: string): Promise<void> {
  const answer = addCheckpoint(witness, body).then(
    (response) => response.status,
    () => 'no answer',
  );
  // An answer before the step (a refusal) fails here rather than waiting for a step never reached.
  expect(await Promise.race([witness.reached.then(() => 'reached'), answer])).toBe('reached');
  await witness.kill();
  expect(await answer).toBe('no answer');
}

describe('the witness, SIGKILLed', () => {
  it('after verifying and before storing: it still holds the old size, and cosigns one branch only', async () => {
    // Prepare
    const { args, witness } = await witnessAtSize4('verified');
    const fork = log.fork(5);
    // Act
    await killDuring(witness!, await log.body(4, 9));
    const restarted = await startWitnessProcess(args);
    // Assess: nothing was cosigned for size 9, so either branch may be, but only one
    expect(await servedSize(restarted)).toBe(4);
    const forked = await addCheckpoint(restarted, await fork.body(4, 9));
    expect(forked.status).toBe(200);
    checkCosignature(restarted.verifierKey, noteText(await fork.checkpoint(9)), await forked.text());
    expect((await addCheckpoint(restarted, await log.body(4, 9))).status).toBe(409);
    expect((await addCheckpoint(restarted, await log.body(9, 9))).status).toBe(422);
    expect((await addCheckpoint(restarted, await log.body(9, 12))).status).toBe(422);
  });

  it('after storing and before answering: it holds the new size, and refuses the fork', async () => {
    // Prepare
    const { args, witness } = await witnessAtSize4('stored');
    const fork = log.fork(5);
    // Act
    await killDuring(witness!, await log.body(4, 9));
    const restarted = await startWitnessProcess(args);
    // Assess
    expect(await servedSize(restarted)).toBe(9);
    const fromOld = await addCheckpoint(restarted, await fork.body(4, 9));
    expect(fromOld.status).toBe(409);
    expect(await fromOld.text()).toBe('9\n');
    expect((await addCheckpoint(restarted, await fork.body(9, 9))).status).toBe(422);
    expect((await addCheckpoint(restarted, await fork.body(9, 12))).status).toBe(422);
    expect((await addCheckpoint(restarted, await log.body(9, 12))).status).toBe(200);
    // The fork's two 422s are kept as evidence, each with the signed checkpoint it was shown.
    const evidence = readFileSync(join(dataDirOf(args), INCONSISTENCIES_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(evidence.map((entry) => [entry.cosignedSize, entry.body])).toEqual([
      [9, await fork.body(9, 9)],
      [9, await fork.body(9, 12)],
    ]);
  });

  it('right after a 200: the size it answered for survives', async () => {
    // Prepare
    const { args } = await witnessAtSize4();
    const witness = await startWitnessProcess(args);
    // Act
    expect((await addCheckpoint(witness, await log.body(4, 10))).status).toBe(200);
    await witness.kill();
    const restarted = await startWitnessProcess(args);
    // Assess
    expect(await servedSize(restarted)).toBe(10);
    const stale = await addCheckpoint(restarted, await log.fork(5).body(4, 10));
    expect(stale.status).toBe(409);
    expect(await stale.text()).toBe('10\n');
  });
});
