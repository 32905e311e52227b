/** An object's ledger events (extension GET /v2/objects/{id}/events), oldest first, chained by hash. */
import { randomUUID } from 'node:crypto';
import { givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getObject,
  ISO_UTC,
  listObjectEvents,
  putObject,
  SHA256_HEX,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

const GENESIS_HASH = '0'.repeat(64);

interface EventBody {
  sequence: number;
  txId: string;
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  eventDescription: string | null;
  performedBy: string | null;
  principal: string;
  timestamp: string;
  prevHash: string;
  hash: string;
}

/** An object with `updates` actions applied after its creation. */
async function givenObjectWithEvents(updates: Record<string, unknown>[]) {
  const principal = companyPrincipal();
  const created = await createObjectOk(principal, await givenSubcategoryPath(principal), {
    name: 'Crane',
    owner: 'Alice',
  });
  let latest = created;
  for (const update of updates) latest = await updateObjectOk(principal, created.id, update);
  return { principal, created, latest };
}

describe('object events', () => {
  it('lists the events oldest first, each linked to the one before by its hash', async () => {
    // Prepare
    const { principal, created, latest } = await givenObjectWithEvents([
      { action: 'update', name: 'Tower crane' },
      { action: 'transfer', owner: 'Bob', performedBy: 'notary' },
      { action: 'report_stolen', eventDescription: 'Gone overnight' },
      { action: 'repair', eventDescription: 'Found and fixed' },
    ]);
    // Act
    const response = await listObjectEvents(principal, created.id);
    // Assess
    expect(response.statusCode).toBe(200);
    const events = response.body.data as EventBody[];
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(events.map((event) => event.action)).toEqual([
      'create',
      'update',
      'transfer',
      'report_stolen',
      'repair',
    ]);
    expect(events[0]?.prevHash).toBe(GENESIS_HASH);
    events.forEach((event, index) => {
      expect(event.hash).toMatch(SHA256_HEX);
      expect(event.txId).toBe(event.hash);
      expect(event.timestamp).toMatch(ISO_UTC);
      expect(event.principal).toBe(`apiKey:${principal.keyId}`);
      const previous = events[index - 1];
      if (previous) {
        expect(event.prevHash).toBe(previous.hash);
        expect(event.timestamp > previous.timestamp).toBe(true);
      }
    });
    expect(events[0]?.txId).toBe(created.blockchain.txId);
    expect(events[0]?.timestamp).toBe(created.createdAt);
    expect(events[4]?.txId).toBe(latest.blockchain.lastTxId);
    expect(events[4]?.timestamp).toBe(latest.updatedAt);
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 5,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('records what each action changed, and who performed it and why', async () => {
    // Prepare
    const { principal, created } = await givenObjectWithEvents([
      { action: 'update', name: 'Tower crane', metadata: { height: 40 } },
      { action: 'transfer', owner: 'Bob', performedBy: 'notary' },
      { action: 'report_stolen', eventDescription: 'Gone overnight' },
    ]);
    // Act
    const events = (await listObjectEvents(principal, created.id)).body.data as EventBody[];
    // Assess
    expect(events[0]?.changes).toMatchObject({
      externalId: { from: null, to: created.externalId },
      name: { from: null, to: 'Crane' },
      status: { from: null, to: 'active' },
    });
    expect(events[1]?.changes).toEqual({
      name: { from: 'Crane', to: 'Tower crane' },
      metadata: { from: {}, to: { height: 40 } },
    });
    expect(events[2]).toMatchObject({
      changes: { owner: { from: 'Alice', to: 'Bob' } },
      performedBy: 'notary',
      eventDescription: null,
    });
    expect(events[3]).toMatchObject({
      changes: { status: { from: 'active', to: 'stolen' } },
      performedBy: null,
      eventDescription: 'Gone overnight',
    });
  });

  it('pages with offset and limit, the total being the eventCount', async () => {
    // Prepare: 7 events
    const updates = Array.from({ length: 6 }, (_, index) => ({
      action: 'update',
      metadata: { step: index },
    }));
    const { principal, created, latest } = await givenObjectWithEvents(updates);
    const all = (await listObjectEvents(principal, created.id, { limit: '100' })).body.data as EventBody[];
    // Act
    const first = await listObjectEvents(principal, created.id, { limit: '3' });
    const second = await listObjectEvents(principal, created.id, { limit: '3', offset: '3' });
    const last = await listObjectEvents(principal, created.id, { limit: '3', offset: '6' });
    const beyond = await listObjectEvents(principal, created.id, { limit: '3', offset: '9' });
    // Assess
    expect(latest.blockchain.eventCount).toBe(7);
    expect(all.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.body.data).toEqual(all.slice(0, 3));
    expect(first.body.pagination).toEqual({
      limit: 3,
      offset: 0,
      total: 7,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(second.body.data).toEqual(all.slice(3, 6));
    expect(second.body.pagination).toEqual({
      limit: 3,
      offset: 3,
      total: 7,
      hasNext: true,
      hasPrevious: true,
      nextCursor: expect.any(String),
    });
    expect(last.body.data).toEqual(all.slice(6));
    expect(last.body.pagination).toEqual({
      limit: 3,
      offset: 6,
      total: 7,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({
      limit: 3,
      offset: 9,
      total: 7,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('does not list the events of a failed update', async () => {
    // Prepare
    const { principal, created } = await givenObjectWithEvents([{ action: 'update', name: 'Renamed' }]);
    // Act
    const refused = await putObject(principal, created.id, { action: 'transfer' });
    const events = await listObjectEvents(principal, created.id);
    // Assess
    expect(refused.statusCode).toBe(400);
    expect(events.body.pagination.total).toBe(2);
    expect((await getObject(principal, created.id)).body.blockchain.eventCount).toBe(2);
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['offset', '-1'],
  ])('responds 400 VALIDATION_ERROR for %s=%s', async (name, value) => {
    // Prepare
    const { principal, created } = await givenObjectWithEvents([]);
    // Act
    const response = await listObjectEvents(principal, created.id, { [name]: value });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors[0].field).toBe(name);
  });

  it("responds 404 OBJECT_NOT_FOUND for an unknown object and for another company's object", async () => {
    // Prepare
    const { created } = await givenObjectWithEvents([]);
    const other = companyPrincipal();
    // Act
    const unknown = await listObjectEvents(other, randomUUID());
    const foreign = await listObjectEvents(other, created.id);
    // Assess
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.code).toBe('OBJECT_NOT_FOUND');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body.code).toBe('OBJECT_NOT_FOUND');
  });
});
