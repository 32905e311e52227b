/**
 * The witness (C2SP tlog-witness, witness side) against a real log: checkpoints of RFC 6962
 * trees signed with the log's own signer, each status the spec gives, forks refused, the
 * check-and-store atomic under a race, and cosignatures checked by a verifier written from
 * the C2SP texts alone (`test/support/cosignature-check.ts`).
 */

import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localSigner } from '../../lambdas/domain/ledger/log-signer';
import { openNote, parseVerifierKey } from '../../verifier/index';
import { fileWitnessStore } from '../../witness/file-store';
import {
  createWitness,
  type InconsistencyEvidence,
  type Witness,
  type WitnessOptions,
} from '../../witness/witness';
import { routeWitnessRequest, type WitnessHttpResponse } from '../../witness/witness-routes';
import { checkCosignature, noteText } from '../support/cosignature-check';
import { addCheckpointBody, type TestLog, testLog, verifiedBarrier } from '../support/witness-log';

const WITNESS_NAME = 'witness.example/w1';
const EMPTY_ROOT = createHash('sha256').digest();

let log: TestLog;
beforeAll(async () => {
  log = await testLog('log.example/witnessed');
});

/** A fresh witness following `logs` (the test log by default), with its own key and folder. */
async function newWitness(
  options: Pick<WitnessOptions, 'afterStep' | 'recordInconsistency'> & { logs?: string[] } = {},
): Promise<Witness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'witness-unit-'));
  return createWitness({
    signer: localSigner(WITNESS_NAME, join(dataDir, 'witness-key.pem')),
    logs: options.logs ?? [log.verifierKey],
    store: fileWitnessStore(join(dataDir, 'checkpoints')),
    afterStep: options.afterStep,
    recordInconsistency: options.recordInconsistency,
  });
}

const post = (witness: Witness, body: string): Promise<WitnessHttpResponse> =>
  routeWitnessRequest(witness, { method: 'POST', path: '/add-checkpoint', body });

const originHash = (origin: string) => createHash('sha256').update(origin).digest('hex');

/** Cosigns sizes in order from 0, as a log would; returns the last answer. */
async function cosignUpTo(witness: Witness, ...sizes: number[]): Promise<void> {
  let old = 0;
  for (const size of sizes) {
    const response = await post(witness, await log.body(old, size));
    expect(response.status).toBe(200);
    old = size;
  }
}

describe('add-checkpoint, accepted', () => {
  it('cosigns a first checkpoint from old size 0 with a cosignature/v1 line that a C2SP reader verifies', async () => {
    // Prepare
    const witness = await newWitness();
    const checkpoint = await log.checkpoint(5);
    const before = Math.floor(Date.now() / 1000);
    // Act
    const response = await post(witness, addCheckpointBody(0, [], checkpoint));
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/^\u2014 witness\.example\/w1 [A-Za-z0-9+/]+=*\n$/);
    const { timestamp } = checkCosignature(witness.verifierKey, noteText(checkpoint), response.body);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(witness.verifierKey.startsWith(`${WITNESS_NAME}+`)).toBe(true);
  });

  it('cosigns each next checkpoint given a consistency proof from the size it last cosigned', async () => {
    // Prepare
    const witness = await newWitness();
    await cosignUpTo(witness, 1, 2, 7);
    // Act
    const response = await post(witness, await log.body(7, 100));
    const sameAgain = await post(witness, await log.body(100, 100));
    // Assess
    expect(response.status).toBe(200);
    checkCosignature(witness.verifierKey, noteText(await log.checkpoint(100)), response.body);
    expect(sameAgain.status).toBe(200);
  });

  it('cosigns a checkpoint of size 0 with the empty tree root', async () => {
    const witness = await newWitness();
    const response = await post(witness, addCheckpointBody(0, [], await log.checkpoint(0, EMPTY_ROOT)));
    expect(response.status).toBe(200);
  });

  it('ignores signatures by unknown keys beside the trusted one', async () => {
    // Prepare: a second signature line by another key of the same name
    const witness = await newWitness();
    const stranger = await testLog(log.signer.keyName);
    const checkpoint = await log.checkpoint(3);
    const strangerLine = (await stranger.checkpoint(3)).split('\n\n')[1] as string;
    // Act
    const response = await post(witness, addCheckpointBody(0, [], `${checkpoint}${strangerLine}`));
    // Assess
    expect(response.status).toBe(200);
  });

  it('follows several logs, each by its own origin', async () => {
    const other = await testLog('other.example/log');
    const witness = await newWitness({ logs: [log.verifierKey, other.verifierKey] });
    expect((await post(witness, await log.body(0, 4))).status).toBe(200);
    expect((await post(witness, await other.body(0, 9))).status).toBe(200);
    expect((await post(witness, await log.body(4, 9))).status).toBe(200);
  });
});

describe('add-checkpoint, refused with the spec status', () => {
  it('404 for an origin it does not follow', async () => {
    const witness = await newWitness();
    const unknown = await testLog('unknown.example/log');
    const response = await post(witness, await unknown.body(0, 3));
    expect(response.status).toBe(404);
  });

  it('403 when no signature is by a trusted key (same origin, another key)', async () => {
    const witness = await newWitness();
    const impostor = await testLog(log.signer.keyName);
    const response = await post(witness, await impostor.body(0, 3));
    expect(response.status).toBe(403);
  });

  it('403 when a trusted key signature line does not verify', async () => {
    // Prepare: the trusted key's line over another tree's text
    const witness = await newWitness();
    const [text] = (await log.checkpoint(3)).split('\n\n');
    const otherSignature = (await log.checkpoint(4)).split('\n\n')[1];
    // Act
    const response = await post(witness, addCheckpointBody(0, [], `${text}\n\n${otherSignature}`));
    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toMatch(/does not verify/);
  });

  it('400 when the old size is above the checkpoint size', async () => {
    const witness = await newWitness();
    await cosignUpTo(witness, 5);
    const response = await post(witness, addCheckpointBody(6, [], await log.checkpoint(5)));
    expect(response.status).toBe(400);
  });

  it.each([
    ['no empty line', async () => `old 0\n${await log.checkpoint(3)}`],
    ['a leading zero', async () => `old 00\n\n${await log.checkpoint(3)}`],
    ['no old line', async () => `\n${await log.checkpoint(3)}`],
    ['a proof line that is not base64', async () => `old 0\nnot-base64!\n\n${await log.checkpoint(3)}`],
    ['64 proof lines', async () => addCheckpointBody(0, Array(64).fill(EMPTY_ROOT), await log.checkpoint(3))],
    ['a checkpoint that is no signed note', async () => 'old 0\n\nlog.example/witnessed\n3\n'],
  ])('400 for a body with %s', async (_, body) => {
    const witness = await newWitness();
    const response = await post(witness, await body());
    expect(response.status).toBe(400);
  });

  it('409 with the size last cosigned, as text/x.tlog.size, when the old size is another', async () => {
    // Prepare
    const witness = await newWitness();
    await cosignUpTo(witness, 5);
    // Act
    const fromZero = await post(witness, await log.body(0, 9));
    const fromThree = await post(witness, await log.body(3, 9));
    // Assess
    for (const response of [fromZero, fromThree]) {
      expect(response.status).toBe(409);
      expect(response.headers['content-type']).toBe('text/x.tlog.size');
      expect(response.body).toBe('5\n');
    }
  });

  it('409 with size 0 when it never cosigned that log and the old size is not 0', async () => {
    const witness = await newWitness();
    const response = await post(witness, await log.body(3, 9));
    expect(response).toMatchObject({ status: 409, body: '0\n' });
  });

  it('422 for a consistency proof that does not verify', async () => {
    // Prepare: the proof from 3 to 9 offered from 5 to 9
    const witness = await newWitness();
    await cosignUpTo(witness, 5);
    // Act
    const response = await post(
      witness,
      addCheckpointBody(5, await log.proof(3, 9), await log.checkpoint(9)),
    );
    // Assess
    expect(response.status).toBe(422);
  });

  it('422 for a non-empty proof from old size 0', async () => {
    const witness = await newWitness();
    const response = await post(
      witness,
      addCheckpointBody(0, await log.proof(3, 9), await log.checkpoint(9)),
    );
    expect(response.status).toBe(422);
  });

  it('422 for a checkpoint of size 0 whose root is not the empty tree root', async () => {
    const witness = await newWitness();
    const response = await post(
      witness,
      addCheckpointBody(0, [], await log.checkpoint(0, await log.root(1))),
    );
    expect(response.status).toBe(422);
  });
});

describe('a forked log', () => {
  it('is kept as evidence when refused with 422: the signed request and what was cosigned', async () => {
    // Prepare
    const evidence: InconsistencyEvidence[] = [];
    const witness = await newWitness({ recordInconsistency: (entry) => void evidence.push(entry) });
    await cosignUpTo(witness, 8);
    const forkBody = await log.fork(5).body(8, 8);
    // Act
    const response = await post(witness, forkBody);
    const conflict = await post(witness, await log.body(3, 9));
    // Assess: only the 422 is evidence (a 409 is a log that is behind)
    expect(response.status).toBe(422);
    expect(conflict.status).toBe(409);
    expect(evidence).toEqual([
      {
        origin: log.signer.keyName,
        reason: 'the checkpoint has the size last cosigned but another root',
        body: forkBody,
        cosignedSize: 8,
        cosignedRoot: (await log.root(8)).toString('base64'),
      },
    ]);
  });

  it('is refused at the size last cosigned when its root differs (422)', async () => {
    const witness = await newWitness();
    await cosignUpTo(witness, 8);
    const response = await post(witness, await log.fork(5).body(8, 8));
    expect(response.status).toBe(422);
  });

  it('is refused when it grows from a prefix other than the one cosigned (422)', async () => {
    // Prepare: the fork's own, valid proof from 8 to 12, but its tree of 8 is not the one cosigned
    const witness = await newWitness();
    await cosignUpTo(witness, 8);
    const fork = log.fork(5);
    // Act
    const response = await post(witness, await fork.body(8, 12));
    // Assess
    expect(response.status).toBe(422);
  });

  it('is refused when it offers a smaller size (400 from the size cosigned, 409 from its own)', async () => {
    const witness = await newWitness();
    await cosignUpTo(witness, 8);
    const shorter = await log.fork(3).checkpoint(6);
    expect((await post(witness, addCheckpointBody(8, [], shorter))).status).toBe(400);
    expect((await post(witness, addCheckpointBody(3, await log.fork(3).proof(3, 6), shorter))).status).toBe(
      409,
    );
  });

  it('cannot get two cosignatures on two forks racing from the same size: one 200, one 409', async () => {
    // Prepare
    const barrier = verifiedBarrier();
    const witness = await newWitness({ afterStep: barrier.afterStep });
    await cosignUpTo(witness, 4);
    barrier.arm();
    // Act
    const responses = await Promise.all([
      post(witness, await log.body(4, 9)),
      post(witness, await log.fork(6).body(4, 9)),
    ]);
    // Assess
    expect(barrier.arrived()).toBe(2);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)?.body).toBe('9\n');
  });

  it('cannot be rolled back by a smaller size racing from the same size: one 200, one 409', async () => {
    // Prepare
    const barrier = verifiedBarrier();
    const witness = await newWitness({ afterStep: barrier.afterStep });
    await cosignUpTo(witness, 4);
    barrier.arm();
    // Act
    const responses = await Promise.all([
      post(witness, await log.body(4, 20)),
      post(witness, await log.body(4, 6)),
    ]);
    // Assess: the one stored is the one that got its 200
    expect(barrier.arrived()).toBe(2);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const winner = responses[0]?.status === 200 ? 20 : 6;
    const latest = await witness.latestCheckpoint(originHash(log.signer.keyName));
    expect(latest.split('\n')[1]).toBe(String(winner));
  });
});

describe('monitor retrieval: GET /<origin hash>/checkpoint', () => {
  it('404 before the witness cosigned that log, and for a log it does not follow', async () => {
    const witness = await newWitness();
    for (const origin of [log.signer.keyName, 'unknown.example/log']) {
      const response = await routeWitnessRequest(witness, {
        method: 'GET',
        path: `/${originHash(origin)}/checkpoint`,
        body: '',
      });
      expect(response.status).toBe(404);
    }
  });

  it('serves the latest cosigned checkpoint with the log signature and the cosignature', async () => {
    // Prepare
    const witness = await newWitness();
    await cosignUpTo(witness, 3, 11);
    // Act
    const response = await routeWitnessRequest(witness, {
      method: 'GET',
      path: `/${originHash(log.signer.keyName)}/checkpoint`,
      body: '',
    });
    // Assess
    expect(response.status).toBe(200);
    const text = await openNote(response.body, await parseVerifierKey(log.verifierKey));
    expect(text).toBe(noteText(await log.checkpoint(11)));
    checkCosignature(witness.verifierKey, text, response.body.slice(text.length + 1));
  });
});

describe('routes', () => {
  it('answers 404 to other paths and 405 to other methods', async () => {
    const witness = await newWitness();
    expect((await routeWitnessRequest(witness, { method: 'POST', path: '/', body: '' })).status).toBe(404);
    const wrongMethod = await routeWitnessRequest(witness, {
      method: 'GET',
      path: '/add-checkpoint',
      body: '',
    });
    expect(wrongMethod).toMatchObject({ status: 405, headers: { allow: 'POST' } });
  });
});
