/**
 * The log against two real witnesses (`witness/start-witness-server.ts`, over HTTP on
 * loopback), DynamoDB Local and s3rver: under a 2-of-2 and a 1-of-2 policy an event is provable
 * only once the quorum cosigned its checkpoint; a witness down stops publication under 2-of-2
 * (the log still integrates) and not under 1-of-2; publication resumes when it is back, by a
 * cycle that finds nothing new; a size signed but never witnessed has no checkpoint; proofs
 * against an older published size carry its cosignatures; a witness's 409 is recovered.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CycleResult, runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { checkWitnessPolicy, type Witnessing } from '../../lambdas/domain/ledger/witness-config';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { storedLogState } from '../../lambdas/repositories/stored-ledger';
import {
  formatVerifierKey,
  openNote,
  parseVerifierKey,
  verifyWitnessedCheckpoint,
} from '../../verifier/index';
import { startWitnessServer, type WitnessServer } from '../../witness/start-witness-server';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import {
  requestCheckpoint,
  requestConsistency,
  requestProof,
  requestTlogProof,
} from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

/** A witness that can be stopped and started again on its port, with its key and its state. */
interface RunningWitness {
  name: string;
  server: WitnessServer;
  stop(): Promise<void>;
  start(): Promise<void>;
}

async function startWitness(name: string, logKey: string): Promise<RunningWitness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'witness-'));
  const witness: RunningWitness = {
    name,
    server: await startWitnessServer({ dataDir, logs: [logKey], name }),
    stop: () => witness.server.close(),
    async start() {
      const port = Number(new URL(witness.server.url).port);
      witness.server = await startWitnessServer({ dataDir, logs: [logKey], name, port });
    },
  };
  return witness;
}

let ledger: IsolatedLedger | undefined;
const running: RunningWitness[] = [];
afterEach(async () => {
  ledger?.restore();
  await Promise.all(running.splice(0).map((witness) => witness.stop().catch(() => undefined)));
});

async function givenWitnessedLog(threshold: 'all' | 'any') {
  ledger = await useIsolatedLedger(`asset-registry.test/witnessed-${randomUUID().slice(0, 8)}`);
  const signer = ledger.signer;
  const logKey = await formatVerifierKey(signer.keyName, await signer.publicKey());
  const witnesses = [
    await startWitness('w1.test/witness', logKey),
    await startWitness('w2.test/witness', logKey),
  ];
  running.push(...witnesses);
  const policyOf = async (names: [string, string]) =>
    checkWitnessPolicy(
      [
        `log ${logKey}`,
        ...witnesses.map((w, i) => `witness ${names[i]} ${w.server.verifierKey} ${w.server.url}`),
        `group witnesses ${threshold} ${names.join(' ')}`,
        'quorum witnesses',
      ].join('\n'),
      logKey,
    );
  const policy = await policyOf(['W1', 'W2']);
  let witnessing: Witnessing = { policy, timeoutMs: 2000 };
  /** Cycles until the outbox is drained; the last cycle's result. */
  const integrate = async (): Promise<CycleResult> => {
    let result: CycleResult;
    do result = await runSequencerCycle({ signer, leaseMs: 10_000, witnessing });
    while (!result.caughtUp);
    return result;
  };
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const update = (objectId: string, owner: string) =>
    invoke(updateObject, {
      method: 'PUT',
      path: `/v2/objects/${objectId}`,
      principal,
      pathParameters: { objectId },
      body: { action: 'transfer', owner },
    });
  return {
    logKey,
    witnesses: witnesses as [RunningWitness, RunningWitness],
    policy,
    integrate,
    principal,
    newObject: () => givenObject(principal, place, { owner: 'Alice' }),
    update,
    /** Follows a policy that names the same witnesses otherwise. */
    async renameWitnesses(names: [string, string]) {
      witnessing = { policy: await policyOf(names), timeoutMs: 2000 };
      return witnessing.policy;
    },
  };
}

const signatureLines = (note: string) => note.split('\n').filter((line) => line.startsWith('\u2014 '));

describe('a log under a 2-of-2 witness policy', () => {
  it('publishes only what both witnesses cosigned; a witness down holds publication until it is back', async () => {
    const log = await givenWitnessedLog('all');
    const object = await log.newObject();
    await log.integrate();

    const first = await requestProof(log.principal, object.id, 1);
    expect(first.statusCode).toBe(200);
    expect(signatureLines(first.body.checkpoint)).toHaveLength(3);
    expect(await verifyWitnessedCheckpoint(first.body.checkpoint, log.policy)).toMatchObject({
      ok: true,
      cosigned: ['W1', 'W2'],
    });
    expect((await requestCheckpoint(log.principal)).text()).toBe(first.body.checkpoint);
    // One note: a signed-note reader with only the log's key opens it.
    await expect(openNote(first.body.checkpoint, await parseVerifierKey(log.logKey))).resolves.toBeDefined();
    const publishedSize = first.body.treeSize as number;

    // W2 down: the log integrates and signs, nothing new is published.
    await log.witnesses[1].stop();
    await log.update(object.id, 'Bob');
    expect(await log.integrate()).toMatchObject({ awaitingWitnesses: true });
    const integrated = (await storedLogState.read()).treeSize;
    expect(integrated).toBeGreaterThan(publishedSize);
    const waiting = await requestProof(log.principal, object.id, 2);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.body.code).toBe('EVENT_NOT_YET_LOGGED');
    expect((await requestCheckpoint(log.principal)).text()).toBe(first.body.checkpoint);
    // A size signed but never witnessed has no checkpoint.
    const unwitnessed = await requestProof(log.principal, object.id, 1, { treeSize: String(integrated) });
    expect(unwitnessed.statusCode).toBe(404);
    expect(unwitnessed.body.code).toBe('CHECKPOINT_NOT_FOUND');
    expect((await requestConsistency(log.principal, publishedSize, integrated)).statusCode).toBe(404);

    // W2 back: a cycle with nothing new asks again and publishes.
    await log.witnesses[1].start();
    expect(await log.integrate()).toEqual({
      leased: true,
      integrated: 0,
      treeSize: integrated,
      caughtUp: true,
    });
    const second = await requestProof(log.principal, object.id, 2);
    expect(second.statusCode).toBe(200);
    expect(second.body.treeSize).toBe(integrated);
    expect(await verifyWitnessedCheckpoint(second.body.checkpoint, log.policy)).toMatchObject({
      ok: true,
      cosigned: ['W1', 'W2'],
    });
    // tlog-proof carries the cosigned checkpoint.
    const tlogProof = (await requestTlogProof(log.principal, object.id, 2)).text();
    expect(tlogProof.endsWith(second.body.checkpoint)).toBe(true);
    // An older published size keeps its cosignatures.
    const older = await requestProof(log.principal, object.id, 1, { treeSize: String(publishedSize) });
    expect(older.statusCode).toBe(200);
    expect(await verifyWitnessedCheckpoint(older.body.checkpoint, log.policy)).toMatchObject({ ok: true });
    expect((await requestConsistency(log.principal, publishedSize, integrated)).statusCode).toBe(200);
  });

  it('recovers from a 409: witnesses the policy names anew are asked from 0 and answer with their size', async () => {
    const log = await givenWitnessedLog('all');
    const object = await log.newObject();
    await log.integrate();
    const cosignedSize = (await storedLogState.read()).treeSize;
    const policy = await log.renameWitnesses(['alpha', 'beta']);
    const written: string[] = [];
    // The 409s are logged at INFO, which the tests' level leaves out.
    const level = process.env.POWERTOOLS_LOG_LEVEL;
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await log.update(object.id, 'Bob');
      expect(await log.integrate()).not.toHaveProperty('awaitingWitnesses');
    } finally {
      spy.mockRestore();
      if (level === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
      else process.env.POWERTOOLS_LOG_LEVEL = level;
    }
    const conflicts = written
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((line) => line.outcome === 'conflict');
    expect(conflicts.map(({ witness, witnessSize }) => [witness, witnessSize]).sort()).toEqual([
      ['alpha', cosignedSize],
      ['beta', cosignedSize],
    ]);
    const proof = await requestProof(log.principal, object.id, 2);
    expect(proof.statusCode).toBe(200);
    expect(await verifyWitnessedCheckpoint(proof.body.checkpoint, policy)).toMatchObject({
      ok: true,
      cosigned: ['alpha', 'beta'],
    });
    expect((await storedLogState.read()).witnessSizes).toMatchObject({
      alpha: proof.body.treeSize,
      beta: proof.body.treeSize,
    });
  });
});

describe('a log under a 1-of-2 witness policy', () => {
  it('publishes with one witness down, not with both, and again when one is back', async () => {
    const log = await givenWitnessedLog('any');
    await log.witnesses[0].stop();
    const object = await log.newObject();
    expect(await log.integrate()).not.toHaveProperty('awaitingWitnesses');
    const first = await requestProof(log.principal, object.id, 1);
    expect(first.statusCode).toBe(200);
    expect(signatureLines(first.body.checkpoint)).toHaveLength(2);
    expect(await verifyWitnessedCheckpoint(first.body.checkpoint, log.policy)).toMatchObject({
      ok: true,
      cosigned: ['W2'],
    });

    await log.witnesses[1].stop();
    await log.update(object.id, 'Bob');
    expect(await log.integrate()).toMatchObject({ awaitingWitnesses: true });
    expect((await requestProof(log.principal, object.id, 2)).body.code).toBe('EVENT_NOT_YET_LOGGED');

    await log.witnesses[0].start();
    await log.integrate();
    const second = await requestProof(log.principal, object.id, 2);
    expect(second.statusCode).toBe(200);
    expect(await verifyWitnessedCheckpoint(second.body.checkpoint, log.policy)).toMatchObject({
      ok: true,
      cosigned: ['W1'],
    });
  });
});
