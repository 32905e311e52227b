/**
 * The log through the API: checkpoints, key, tiles, proofs (JSON and tlog-proof), consistency,
 * who may read what, and the offline verifier over what the API gave.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { dynamoDb } from '../../lambdas/shared/clients';
import { verifyBundle, verifyCheckpoint, verifyConsistency, verifyInclusion } from '../../verifier/index';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import {
  bundleFromApi,
  requestCheckpoint,
  requestConsistency,
  requestKey,
  requestProof,
  requestTile,
} from '../support/ledger-requests';
import { appPrincipal, companyPrincipal } from '../support/principals';

jest.setTimeout(60_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

const sequence = () => runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });

async function givenObjectWithEvents(updates: number, principal = companyPrincipal()) {
  const place = await givenSubcategoryPath(principal);
  const object = await givenObject(principal, place, { owner: 'Alice' });
  for (let u = 0; u < updates; u++) {
    await invoke(updateObject, {
      method: 'PUT',
      path: `/v2/objects/${object.id}`,
      principal,
      pathParameters: { objectId: object.id },
      body: { action: 'transfer', owner: `Owner ${u}`, eventDescription: `handover ${u}` },
    });
  }
  return { principal, object };
}

describe('the log API', () => {
  it('responds 409 EVENT_NOT_YET_LOGGED with Retry-After before the sequencer ran, then a proof', async () => {
    const { principal, object } = await givenObjectWithEvents(1);
    const early = await requestProof(principal, object.id, 2);
    expect(early.statusCode).toBe(409);
    expect(early.body.code).toBe('EVENT_NOT_YET_LOGGED');
    expect(early.headers['Retry-After']).toBe('2');
    await sequence();
    const proof = await requestProof(principal, object.id, 2);
    expect(proof.statusCode).toBe(200);
    const key = (await requestKey(principal)).text().trim();
    const checkpoint = await verifyCheckpoint(proof.body.checkpoint, key);
    expect(checkpoint).toMatchObject({
      ok: true,
      treeSize: proof.body.treeSize,
      rootHash: proof.body.rootHash,
    });
    expect(
      await verifyInclusion(
        proof.body.logIndex,
        proof.body.treeSize,
        Buffer.from(proof.body.leafHash, 'hex'),
        proof.body.inclusionProof.map((hash: string) => Buffer.from(hash, 'hex')),
        Buffer.from(proof.body.rootHash, 'hex'),
      ),
    ).toBe(true);
  });

  it('serves the checkpoint and key as text to any key, an App key included', async () => {
    await givenObjectWithEvents(0);
    await sequence();
    const app = appPrincipal();
    const checkpoint = await requestCheckpoint(app);
    const key = await requestKey(app);
    expect(checkpoint.statusCode).toBe(200);
    expect(checkpoint.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(key.text()).toMatch(/^test\.example\/ledger\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}\n$/);
    expect((await verifyCheckpoint(checkpoint.text(), key.text().trim())).ok).toBe(true);
  });

  it("refuses company B a proof of company A's event with 404, as everywhere", async () => {
    const { object } = await givenObjectWithEvents(0);
    await sequence();
    const response = await requestProof(companyPrincipal(), object.id, 1);
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('OBJECT_NOT_FOUND');
  });

  it('serves tiles and entry bundles at their C2SP paths, without any tenant or object id', async () => {
    const { principal, object } = await givenObjectWithEvents(2);
    await sequence();
    const { body: proof } = await requestProof(principal, object.id, 1);
    const width = proof.treeSize % 256 || 256;
    const tileIndex = Math.floor((proof.treeSize - 1) / 256);
    const suffix = width < 256 ? `.p/${width}` : '';
    const tile = await requestTile(principal, `tile/0/${String(tileIndex).padStart(3, '0')}${suffix}`);
    const bundle = await requestTile(
      appPrincipal(),
      `tile/entries/${String(tileIndex).padStart(3, '0')}${suffix}`,
    );
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['Content-Type']).toBe('application/octet-stream');
    expect(tile.bytes.length).toBe(32 * width);
    expect(bundle.bytes.length).toBe(34 * width);
    for (const bytes of [
      tile.bytes,
      bundle.bytes,
      Buffer.from((await requestCheckpoint(principal)).text()),
    ]) {
      for (const secret of [principal.tenantId, object.id, 'Alice']) {
        expect(bytes.includes(Buffer.from(secret))).toBe(false);
      }
    }
    expect((await requestTile(principal, 'tile/0/999')).statusCode).toBe(404);
    expect((await requestTile(principal, 'tile/0/../checkpoint')).statusCode).toBe(404);
  });

  it('proves against an earlier published size, and two published sizes are consistent', async () => {
    const { principal, object } = await givenObjectWithEvents(1);
    await sequence();
    const before = await requestProof(principal, object.id, 1);
    await givenObjectWithEvents(3);
    await sequence();
    const after = await requestProof(principal, object.id, 1);
    expect(after.body.treeSize).toBeGreaterThan(before.body.treeSize);
    const pinned = await requestProof(principal, object.id, 1, { treeSize: String(before.body.treeSize) });
    expect(pinned.body).toEqual(before.body);
    const consistency = await requestConsistency(principal, before.body.treeSize, after.body.treeSize);
    expect(consistency.statusCode).toBe(200);
    expect(
      await verifyConsistency(
        before.body.treeSize,
        after.body.treeSize,
        before.body.rootHash,
        after.body.rootHash,
        consistency.body.proof,
      ),
    ).toBe(true);
    expect((await requestConsistency(principal, after.body.treeSize, before.body.treeSize)).statusCode).toBe(
      400,
    );
    expect((await requestConsistency(principal, 1, after.body.treeSize + 1000)).statusCode).toBe(404);
  });

  it('gives bundles the offline verifier accepts, and names exactly the event changed in DynamoDB', async () => {
    const { principal, object } = await givenObjectWithEvents(3);
    await sequence();
    const key = (await requestKey(principal)).text().trim();
    const bundle = await bundleFromApi(principal, object.id);
    expect(bundle.proofs[0]).toMatch(/^c2sp\.org\/tlog-proof@v1\nextra [A-Za-z0-9+/=]+\nindex \d+\n/);
    const verdict = await verifyBundle(bundle, key);
    expect(verdict.ok).toBe(true);
    expect(verdict.events.map((event) => event.ok)).toEqual([true, true, true, true]);
    // Someone with write access rewrites who received the object in event 3.
    await dynamoDb.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: { pk: `T#${principal.tenantId}#LEDGER#object#${object.id}`, sk: 'EVENT#0000000003' },
        UpdateExpression: 'SET changesJson = :forged',
        ExpressionAttributeValues: {
          ':forged': JSON.stringify({ owner: { from: 'Owner 0', to: 'Mallory' } }),
        },
      }),
    );
    const tampered = await verifyBundle(await bundleFromApi(principal, object.id), key);
    expect(tampered.ok).toBe(false);
    expect(tampered.events.filter((event) => !event.ok).map((event) => event.sequence)).toEqual([3]);
    expect(tampered.events[2]?.reason).toMatch(/hash mismatch/);
    // A bundle checked against another key fails on the checkpoint.
    const otherKey = `${key.split('+')[0]}+${key.split('+')[1]}+${Buffer.alloc(33, 1).toString('base64')}`;
    expect((await verifyBundle(bundle, otherKey)).checkpoint.ok).toBe(false);
  });
});
