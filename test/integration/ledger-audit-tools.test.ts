/**
 * What an auditor runs: the monitor (consistency from checkpoint to checkpoint, refusing forged
 * ones) and the exported bundle; and the log under 20 concurrent writers on one object while
 * the sequencer runs.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { type LogSource, monitorLog } from '../../cli/ledger-monitor';
import { verifyLedger } from '../../lambdas/domain/ledger/ledger-audit';
import {
  consistencyProof,
  leafHashOf,
  nodeHashOf,
  type StoredHashes,
  treeRoot,
} from '../../lambdas/domain/ledger/log-tree';
import { objectBundle } from '../../lambdas/domain/ledger/object-bundle';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import {
  formatCheckpointBody,
  formatSignatureLine,
  parseCheckpointBody,
  splitNote,
  verifyBundle,
} from '../../verifier/index';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { requestCheckpoint, requestConsistency, requestKey } from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

const integrate = () => runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });
const reader = companyPrincipal();
const apiSource: LogSource = {
  checkpoint: async () => (await requestCheckpoint(reader)).text(),
  consistency: async (from, to) => (await requestConsistency(reader, from, to)).body.proof,
};

async function givenObjectWithUpdates(updates: number) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const object = await givenObject(principal, place, { owner: 'Alice' });
  for (let u = 0; u < updates; u++) {
    await invoke(updateObject, {
      method: 'PUT',
      path: `/v2/objects/${object.id}`,
      principal,
      pathParameters: { objectId: object.id },
      body: { action: 'transfer', owner: `Owner ${u}` },
    });
  }
  return { principal, object };
}

/** Stored hashes of an in-memory list of leaves (a log as a forger would rebuild it). */
function memoryHashes(entries: Buffer[]): StoredHashes {
  const levels: Buffer[][] = [entries.map(leafHashOf)];
  return {
    async hashAt(tileLevel, index) {
      for (let level = levels.length; level <= tileLevel * 8; level++) {
        const below = levels[level - 1]!;
        levels.push(
          Array.from({ length: Math.floor(below.length / 2) }, (_, i) =>
            nodeHashOf(below[2 * i]!, below[2 * i + 1]!),
          ),
        );
      }
      return levels[tileLevel * 8]![index]!;
    },
  };
}

describe('the monitor', () => {
  it('accepts a log that grew consistently, and keeps the newer checkpoint', async () => {
    await givenObjectWithUpdates(2);
    await integrate();
    const key = (await requestKey(reader)).text().trim();
    const first = await monitorLog(apiSource, key, {});
    expect(first.ok).toBe(true);
    await givenObjectWithUpdates(3);
    await integrate();
    const second = await monitorLog(apiSource, key, first.ok ? first.state : {});
    expect(second).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^consistent: tree size \d+ -> \d+/),
    });
  });

  it('refuses a checkpoint signed by another key, a shrinking log, and a rewritten log signed by our key', async () => {
    const { principal, object } = await givenObjectWithUpdates(2);
    await integrate();
    const key = (await requestKey(reader)).text().trim();
    const seen = await monitorLog(apiSource, key, {});
    if (!seen.ok) throw new Error(seen.message);
    const seenBody = parseCheckpointBody(splitNote(seen.state.checkpoint!).text);

    // Another key: a bad signature.
    const stranger = generateKeyPairSync('ed25519');
    const strangerPublic = new Uint8Array(
      stranger.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32),
    );
    const strangerNote = async (text: string) =>
      `${text}\n${await formatSignatureLine(seenBody.origin, strangerPublic, new Uint8Array(sign(null, Buffer.from(text), stranger.privateKey)))}`;
    const forgedByStranger = await strangerNote(
      formatCheckpointBody(seenBody.origin, seenBody.treeSize + 1, new Uint8Array(32)),
    );
    const refused = await monitorLog(
      { ...apiSource, checkpoint: async () => forgedByStranger },
      key,
      seen.state,
    );
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/^BAD SIGNATURE/) });

    // Our own key (an operator rewriting history): a smaller log, then a rewritten one.
    const ownNote = async (treeSize: number, root: Uint8Array) => {
      const text = formatCheckpointBody(seenBody.origin, treeSize, root);
      return `${text}\n${await formatSignatureLine(
        seenBody.origin,
        await ledger.signer.publicKey(),
        await ledger.signer.sign(Buffer.from(text)),
      )}`;
    };
    const smaller = await ownNote(seenBody.treeSize - 1, new Uint8Array(32));
    expect(
      await monitorLog({ ...apiSource, checkpoint: async () => smaller }, key, seen.state),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^SHRINKING LOG/),
    });
    // The forger replaces one entry and adds one, and serves proofs from the forged tree.
    const bundle = await objectBundle(principal.tenantId, object.id);
    const entries = Array.from({ length: seenBody.treeSize + 1 }, (_, i) => Buffer.alloc(32, i % 251));
    const forgedHashes = memoryHashes(entries);
    const forgedRoot = await treeRoot(forgedHashes, entries.length);
    const rewritten = await ownNote(entries.length, forgedRoot);
    const forgedSource: LogSource = {
      checkpoint: async () => rewritten,
      consistency: async (from, to) =>
        (await consistencyProof(forgedHashes, from, to)).map((hash) => hash.toString('hex')),
    };
    expect(await monitorLog(forgedSource, key, seen.state)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^FORK/),
    });
    expect(bundle.events.length).toBe(3);
  });
});

describe('the exported bundle', () => {
  it('verifies offline with the published key, and fails with another one', async () => {
    const { principal, object } = await givenObjectWithUpdates(3);
    await integrate();
    const bundle = await objectBundle(principal.tenantId, object.id);
    const key = (await requestKey(reader)).text().trim();
    expect(bundle.verifierKey).toBe(key);
    expect(bundle.proofs).toHaveLength(4);
    expect((await verifyBundle(bundle, key)).ok).toBe(true);
    const [name, keyId] = key.split('+');
    expect(
      (await verifyBundle(bundle, `${name}+${keyId}+${Buffer.alloc(33, 1).toString('base64')}`)).ok,
    ).toBe(false);
    await expect(
      objectBundle(principal.tenantId, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({
      code: 'OBJECT_NOT_FOUND',
    });
  });
});

describe('20 concurrent writers on one object while the sequencer runs', () => {
  it('lose and double no event: the log holds every event of the chain once', async () => {
    const { principal, object } = await givenObjectWithUpdates(0);
    let running = true;
    const sequencer = (async () => {
      while (running) {
        await runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        invoke(updateObject, {
          method: 'PUT',
          path: `/v2/objects/${object.id}`,
          principal,
          pathParameters: { objectId: object.id },
          body: { action: 'transfer', owner: `Writer ${i}` },
        }),
      ),
    );
    running = false;
    await sequencer;
    while ((await integrate()).integrated > 0);
    const written = responses.filter((response) => response.statusCode === 200).length;
    expect(written).toBeGreaterThan(0);
    const audit = await verifyLedger();
    expect(audit.logProblems).toEqual([]);
    expect(audit.valid).toBe(true);
    expect(audit.log.integratedEvents).toBe(audit.log.treeSize);
    const bundle = await objectBundle(principal.tenantId, object.id);
    expect(bundle.events).toHaveLength(1 + written);
    expect((await verifyBundle(bundle, bundle.verifierKey)).ok).toBe(true);
  });
});
