/**
 * GET /v2/objects/{objectId}/bundle: the offline verifier's bundle in one request, for the whole
 * history and as of an instant or a sequence; the same proofs as one request per event, each
 * tile read once whatever the number of events, and the errors of GET object with `asOf`.
 */
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { handler as getObject } from '../../lambdas/handlers/objects/get-object';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { storedLogFiles } from '../../lambdas/repositories/stored-ledger';
import type { Principal } from '../../lambdas/shared/principal';
import { type LedgerBundle, parseTlogProof, verifyBundle } from '../../verifier/index';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { bundleFromApi, requestBundle, requestKey } from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

/** Runs the sequencer until every committed event is in a published checkpoint. */
async function integrateAll() {
  while ((await runSequencerCycle({ signer: ledger.signer, leaseMs: 100 })).integrated > 0);
}

const transfer = (principal: Principal, objectId: string, owner: string) =>
  invoke(updateObject, {
    method: 'PUT',
    path: `/v2/objects/${objectId}`,
    principal,
    pathParameters: { objectId },
    body: { action: 'transfer', owner },
  });

async function givenObjectWithEvents(updates: number, principal = companyPrincipal()) {
  const object = await givenObject(principal, await givenSubcategoryPath(principal), { owner: 'Alice' });
  for (let u = 0; u < updates; u++) await transfer(principal, object.id, `Owner ${u}`);
  return { principal, object: object as { id: string } };
}

const requestObject = (principal: Principal, objectId: string, query?: Record<string, string>) =>
  invoke(getObject, {
    method: 'GET',
    path: `/v2/objects/${objectId}`,
    principal,
    pathParameters: { objectId },
    query,
  });

/** The bundle of one object, and every tile path read to build it. */
async function bundleWithTileReads(principal: Principal, objectId: string) {
  const reads: string[] = [];
  const readTile = storedLogFiles.readTile;
  const spy = jest.spyOn(storedLogFiles, 'readTile').mockImplementation((ref) => {
    reads.push(`${ref.level}/${ref.index}/${ref.width}`);
    return readTile(ref);
  });
  try {
    const response = await requestBundle(principal, objectId);
    expect(response.statusCode).toBe(200);
    return { bundle: response.body as LedgerBundle, reads };
  } finally {
    spy.mockRestore();
  }
}

describe('the bundle endpoint', () => {
  it('answers the whole history in one request, with the proofs one request per event gives', async () => {
    // Prepare
    const { principal, object } = await givenObjectWithEvents(3);
    await integrateAll();
    const key = (await requestKey(principal)).text().trim();
    // Act
    const response = await requestBundle(principal, object.id);
    const perEvent = await bundleFromApi(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    const bundle = response.body as LedgerBundle;
    expect(bundle).toEqual(perEvent);
    expect(bundle.verifierKey).toBe(key);
    const checked: string[] = [];
    const verdict = await verifyBundle(bundle, key, (count, total) => checked.push(`${count}/${total}`));
    expect(verdict.ok).toBe(true);
    expect(verdict.events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
    expect(checked).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });

  it('answers the object as of a sequence and as of an instant, with its events up to then', async () => {
    // Prepare
    const { principal, object } = await givenObjectWithEvents(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const instant = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await transfer(principal, object.id, 'Later owner');
    await transfer(principal, object.id, 'Latest owner');
    await integrateAll();
    const key = (await requestKey(principal)).text().trim();
    // Act
    const atSequence = await requestBundle(principal, object.id, { atSequence: '3' });
    const asOf = await requestBundle(principal, object.id, { asOf: instant });
    // Assess
    for (const [response, query, eventCount] of [
      [atSequence, { atSequence: '3' }, 3],
      [asOf, { asOf: instant }, 2],
    ] as const) {
      expect(response.statusCode).toBe(200);
      const bundle = response.body as LedgerBundle;
      expect(bundle.object).toEqual((await requestObject(principal, object.id, query)).body);
      expect(bundle.events.map((event) => event.sequence)).toEqual(
        Array.from({ length: eventCount }, (_, i) => i + 1),
      );
      expect(bundle.proofs).toHaveLength(eventCount);
      expect((await verifyBundle(bundle, key)).ok).toBe(true);
    }
    expect((atSequence.body as LedgerBundle).object.owner).toBe('Later owner');
    expect((asOf.body as LedgerBundle).object).toMatchObject({ owner: 'Owner 0', asOf: instant });
  });

  it('reads each tile once, as many tiles for 200 events as for 1', async () => {
    // Prepare: the 200 events interleaved with other objects' events, over two level-0 tiles
    const principal = companyPrincipal();
    const { object: single } = await givenObjectWithEvents(0, principal);
    const { object: long } = await givenObjectWithEvents(0, principal);
    const others = await Promise.all([1, 2].map(() => givenObjectWithEvents(0, principal)));
    for (let u = 0; u < 199; u++) {
      await Promise.all([
        transfer(principal, long.id, `Owner ${u}`),
        ...(u % 2 === 0 ? others.map(({ object }) => transfer(principal, object.id, `Other ${u}`)) : []),
      ]);
    }
    await integrateAll();
    const key = (await requestKey(principal)).text().trim();
    // Act
    const one = await bundleWithTileReads(principal, single.id);
    const many = await bundleWithTileReads(principal, long.id);
    // Assess
    expect(many.bundle.events).toHaveLength(200);
    expect((await verifyBundle(many.bundle, key)).ok).toBe(true);
    const indexes = many.bundle.proofs.map((proof) => parseTlogProof(proof).index);
    expect(Math.floor(Math.min(...indexes) / 256)).toBeLessThan(Math.floor(Math.max(...indexes) / 256));
    expect(one.reads.length).toBeGreaterThan(0);
    expect(new Set(many.reads).size).toBe(many.reads.length);
    expect(new Set(one.reads).size).toBe(one.reads.length);
    // The tree has at most two level-0 tiles and one level-1 tile here.
    expect(many.reads.length).toBeLessThanOrEqual(3);
    expect(many.reads.length).toBeLessThanOrEqual(one.reads.length + 1);
  });

  it('answers 409 EVENT_NOT_YET_LOGGED with Retry-After until the last event is in a checkpoint', async () => {
    const { principal, object } = await givenObjectWithEvents(0);
    await integrateAll();
    await transfer(principal, object.id, 'Bob');
    const early = await requestBundle(principal, object.id);
    const before = await requestBundle(principal, object.id, { atSequence: '1' });
    await integrateAll();
    const late = await requestBundle(principal, object.id);
    expect(early.statusCode).toBe(409);
    expect(early.body.code).toBe('EVENT_NOT_YET_LOGGED');
    expect(early.headers['Retry-After']).toBe('2');
    expect(before.statusCode).toBe(200);
    expect(late.statusCode).toBe(200);
    expect(late.body.events).toHaveLength(2);
  });

  it.each([
    ['an instant before the object existed', { asOf: '2000-01-01T00:00:00.000Z' }, 404, 'OBJECT_NOT_FOUND'],
    ['a sequence past the last event', { atSequence: '9' }, 400, 'VALIDATION_ERROR'],
    ['a sequence of 0', { atSequence: '0' }, 400, 'VALIDATION_ERROR'],
    ['a malformed instant', { asOf: 'yesterday' }, 400, 'VALIDATION_ERROR'],
    [
      'both asOf and atSequence',
      { asOf: new Date().toISOString(), atSequence: '1' },
      400,
      'VALIDATION_ERROR',
    ],
  ])('answers as GET object does for %s', async (_case, query, status, code) => {
    const { principal, object } = await givenObjectWithEvents(1);
    await integrateAll();
    const bundle = await requestBundle(principal, object.id, query);
    const plain = await requestObject(principal, object.id, query);
    expect(bundle.statusCode).toBe(status);
    expect(bundle.body.code).toBe(code);
    expect(plain.statusCode).toBe(status);
    expect(plain.body.code).toBe(code);
  });

  it("answers 404 OBJECT_NOT_FOUND for another company's object", async () => {
    const { object } = await givenObjectWithEvents(0);
    await integrateAll();
    const response = await requestBundle(companyPrincipal(), object.id);
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('OBJECT_NOT_FOUND');
  });
});
