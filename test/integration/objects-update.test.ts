/** Update object with an action (spec 4.4, states in section 3) through the handler, against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getObject,
  ISO_UTC,
  listObjectEvents,
  type ObjectBody,
  putObject,
  SHA256_HEX,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

/** What every successful action does to the blockchain record: one more event, a new last txId. */
function expectOneMoreEvent(before: ObjectBody, after: ObjectBody): void {
  expect(after.blockchain.txId).toBe(before.blockchain.txId);
  expect(after.blockchain.lastTxId).toMatch(SHA256_HEX);
  expect(after.blockchain.lastTxId).not.toBe(before.blockchain.lastTxId);
  expect(after.blockchain.eventCount).toBe(before.blockchain.eventCount + 1);
  expect(after.updatedAt).toMatch(ISO_UTC);
  expect(after.updatedAt > before.updatedAt).toBe(true);
  expect(after.createdAt).toBe(before.createdAt);
}

async function givenObjectOf(principal = companyPrincipal(), body: Record<string, unknown> = {}) {
  const place = await givenSubcategoryPath(principal);
  const object = await createObjectOk(principal, place, {
    name: 'Excavator',
    description: 'Yellow',
    summary: 'Heavy machine',
    owner: 'Alice',
    metadata: { keep: 1, change: 'old', drop: 'x' },
    ...body,
  });
  return { principal, place, object };
}

describe('update object', () => {
  it('`update` changes only the fields given and merges metadata', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const response = await putObject(principal, object.id, {
      action: 'update',
      name: 'Digger',
      metadata: { change: 'new', added: true, drop: null },
    });
    const readBack = await getObject(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      ...object,
      name: 'Digger',
      metadata: { keep: 1, change: 'new', added: true },
      updatedAt: response.body.updatedAt,
      blockchain: { ...object.blockchain, lastTxId: response.body.blockchain.lastTxId, eventCount: 2 },
    });
    expectOneMoreEvent(object, response.body);
    expect(readBack.body).toEqual(response.body);
  });

  it('`update` with every text field changes them all, and keeps the status', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const updated = await updateObjectOk(principal, object.id, {
      action: 'update',
      name: 'N2',
      description: 'D2',
      summary: 'S2',
      owner: 'O2',
    });
    // Assess
    expect(updated).toMatchObject({
      name: 'N2',
      description: 'D2',
      summary: 'S2',
      owner: 'O2',
      status: 'active',
    });
    expect(updated.metadata).toEqual(object.metadata);
    expectOneMoreEvent(object, updated);
  });

  it('`update` with an empty string clears a text field (an empty string is a value, not an omission)', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const updated = await updateObjectOk(principal, object.id, { action: 'update', description: '' });
    // Assess
    expect(updated.description).toBe('');
    expect(updated.summary).toBe('Heavy machine');
  });

  it('`update` with the action alone changes no field but still records an event', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const updated = await updateObjectOk(principal, object.id, { action: 'update' });
    // Assess
    const { updatedAt: _after, blockchain: _chainAfter, ...fieldsAfter } = updated;
    const { updatedAt: _before, blockchain: _chainBefore, ...fieldsBefore } = object;
    expect(fieldsAfter).toEqual(fieldsBefore);
    expectOneMoreEvent(object, updated);
  });

  it('`transfer` moves the owner and keeps the status', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const transferred = await updateObjectOk(principal, object.id, { action: 'transfer', owner: 'Bob' });
    // Assess
    expect(transferred).toEqual({
      ...object,
      owner: 'Bob',
      updatedAt: transferred.updatedAt,
      blockchain: { ...object.blockchain, lastTxId: transferred.blockchain.lastTxId, eventCount: 2 },
    });
    expectOneMoreEvent(object, transferred);
  });

  it.each([
    ['without owner', { action: 'transfer' }],
    ['with owner null', { action: 'transfer', owner: null }],
    ['with an empty owner', { action: 'transfer', owner: '' }],
  ])('`transfer` %s responds 400 owner REQUIRED and records no event', async (_, body) => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const response = await putObject(principal, object.id, body);
    const readBack = await getObject(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [{ field: 'owner', code: 'REQUIRED', message: expect.any(String) }],
    });
    expect(readBack.body).toEqual(object);
  });

  it('`report_stolen` sets the status `stolen`, and `repair` sets it back to `active`', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const stolen = await updateObjectOk(principal, object.id, {
      action: 'report_stolen',
      eventDescription: 'Taken from the yard',
    });
    const repaired = await updateObjectOk(principal, object.id, {
      action: 'repair',
      eventDescription: 'Recovered',
    });
    // Assess
    expect(stolen.status).toBe('stolen');
    expectOneMoreEvent(object, stolen);
    expect(repaired.status).toBe('active');
    expectOneMoreEvent(stolen, repaired);
    expect(repaired.blockchain.eventCount).toBe(3);
  });

  it('`repair` of an active object keeps it active and records an event', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const repaired = await updateObjectOk(principal, object.id, { action: 'repair' });
    // Assess
    expect(repaired.status).toBe('active');
    expectOneMoreEvent(object, repaired);
  });

  it('`report_stolen` of a stolen object keeps it stolen (no source-state restriction)', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    const stolen = await updateObjectOk(principal, object.id, { action: 'report_stolen' });
    // Act
    const again = await putObject(principal, object.id, { action: 'report_stolen' });
    // Assess
    expect(again.statusCode).toBe(200);
    expect(again.body.status).toBe('stolen');
    expectOneMoreEvent(stolen, again.body);
  });

  it('moves updatedAt strictly forward on every update, even in quick succession', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const stamps = [object.updatedAt];
    for (let index = 0; index < 5; index++) {
      stamps.push((await updateObjectOk(principal, object.id, { action: 'update' })).updatedAt);
    }
    // Assess
    // Strictly increasing: already in order, and no two alike.
    expect(stamps).toEqual([...stamps].sort());
    expect(new Set(stamps).size).toBe(6);
    expect((await getObject(principal, object.id)).body.blockchain.eventCount).toBe(6);
  });

  it.each([
    ['an unknown action', { action: 'destroy' }, 'action', 'ENUM_INVALID'],
    ['an action in another case', { action: 'UPDATE' }, 'action', 'ENUM_INVALID'],
    ['a missing action', { name: 'Renamed' }, 'action', 'REQUIRED'],
    ['a name of 1 character', { action: 'update', name: 'x' }, 'name', 'LENGTH_INVALID'],
    ['a name of 201 characters', { action: 'update', name: 'n'.repeat(201) }, 'name', 'LENGTH_INVALID'],
    [
      'a description of 1001 characters',
      { action: 'update', description: 'd'.repeat(1001) },
      'description',
      'LENGTH_INVALID',
    ],
    [
      'a summary of 501 characters',
      { action: 'update', summary: 's'.repeat(501) },
      'summary',
      'LENGTH_INVALID',
    ],
    ['an owner of 101 characters', { action: 'transfer', owner: 'o'.repeat(101) }, 'owner', 'LENGTH_INVALID'],
    ['metadata that is an array', { action: 'update', metadata: [1] }, 'metadata', 'TYPE_INVALID'],
    ['a name that is a number', { action: 'update', name: 42 }, 'name', 'TYPE_INVALID'],
    [
      'an eventDescription of 1001 characters',
      { action: 'repair', eventDescription: 'e'.repeat(1001) },
      'eventDescription',
      'LENGTH_INVALID',
    ],
    [
      'a performedBy of 201 characters',
      { action: 'repair', performedBy: 'p'.repeat(201) },
      'performedBy',
      'LENGTH_INVALID',
    ],
  ])('responds 400 for %s, and records no event', async (_, body, field, code) => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const response = await putObject(principal, object.id, body);
    const readBack = await getObject(principal, object.id);
    const events = await listObjectEvents(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([{ field, code, message: expect.any(String) }]);
    expect(readBack.body).toEqual(object);
    expect(events.body.pagination.total).toBe(1);
    expect(events.body.data).toHaveLength(1);
  });

  it('responds 400 for a malformed JSON body, and records no event', async () => {
    // Prepare
    const { principal, object } = await givenObjectOf();
    // Act
    const response = await putObject(principal, object.id, undefined, { rawBody: '{"action": "update",' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect((await getObject(principal, object.id)).body).toEqual(object);
  });

  it('responds 400 when the merged metadata would grow past its size limit, and records no event', async () => {
    // Prepare: two halves that each fit, but not together
    const { principal, object } = await givenObjectOf(companyPrincipal(), {
      metadata: { first: 'a'.repeat(10_000) },
    });
    // Act
    const response = await putObject(principal, object.id, {
      action: 'update',
      metadata: { second: 'b'.repeat(10_000) },
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'metadata', code: 'SIZE_INVALID', message: expect.any(String) },
    ]);
    expect((await getObject(principal, object.id)).body).toEqual(object);
  });

  it('merges a metadata key named "__proto__" like any other key (create already stores it)', async () => {
    // Prepare: JSON.parse makes "__proto__" an own key; a plain assignment would set the prototype
    const { principal, object } = await givenObjectOf(companyPrincipal(), { metadata: { keep: 1 } });
    // Act
    const response = await putObject(principal, object.id, undefined, {
      rawBody: '{"action": "update", "metadata": {"__proto__": {"polluted": true}, "other": 2}}',
    });
    const readBack = await getObject(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(JSON.stringify(readBack.body.metadata)).toBe('{"keep":1,"__proto__":{"polluted":true},"other":2}');
  });

  it('responds 404 OBJECT_NOT_FOUND for an unknown object', async () => {
    // Prepare
    const principal = companyPrincipal();
    const unknownId = randomUUID();
    // Act
    const response = await putObject(principal, unknownId, { action: 'update', name: 'Renamed' });
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No object ${unknownId} in this company`,
      code: 'OBJECT_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 OBJECT_NOT_FOUND for another company's object, and leaves it unchanged", async () => {
    // Prepare
    const { principal: owner, object } = await givenObjectOf();
    const intruder = companyPrincipal();
    // Act
    const response = await putObject(intruder, object.id, { action: 'transfer', owner: 'Mallory' });
    const readBack = await getObject(owner, object.id);
    const events = await listObjectEvents(owner, object.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('OBJECT_NOT_FOUND');
    expect(readBack.body).toEqual(object);
    expect(events.body.pagination.total).toBe(1);
  });

  it('responds 400 VALIDATION_ERROR for an objectId that is not a UUID', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await putObject(principal, 'EXT-1', { action: 'update' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([
      { field: 'objectId', code: 'FORMAT_INVALID', message: 'objectId must be a UUID' },
    ]);
  });
});
