/**
 * Update subcategory actions (spec 4.10, section 3): CHANGE, ACTIVATE, DEACTIVATE, REMOVE, the
 * refused moves, and the subcategory's own hash chain that every successful update extends.
 */
import { randomUUID } from 'node:crypto';
import { verifyChain } from '../../lambdas/domain/ledger/chain-verification';
import { readWholeChain } from '../../lambdas/repositories/ledger-repository';
import { findSubcategory } from '../../lambdas/repositories/subcategory-repository';
import type { Principal } from '../../lambdas/shared/principal';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenObject, givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import { ISO_UTC, postObject, SHA256_HEX } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { storedImageKeys } from '../support/subcategory-files';
import { PNG_1X1, TEXT_SAMPLE } from '../support/subcategory-images';
import { fieldParts, imagePart, putSubcategoryForm } from '../support/subcategory-multipart';
import {
  addressOf,
  getCategory,
  getSubcategory,
  postSubcategory,
  putSubcategoryJson,
  type SubcategoryAddress,
} from '../support/subcategory-requests';

jest.setTimeout(60_000);

async function givenPlace() {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  return { principal, place, address: addressOf(principal, place) };
}

const act = (principal: Principal, address: SubcategoryAddress, action: string, name?: string) =>
  putSubcategoryForm(principal, address, fieldParts({ name, action }));

const chainOf = (address: SubcategoryAddress) =>
  readWholeChain({ kind: 'subcategory', tenantId: address.companyId, entityId: address.subcategoryId });

/** Verifies the chain against what the subcategory's own record says about it. */
async function verifiedChain(address: SubcategoryAddress) {
  const [events, record] = await Promise.all([
    chainOf(address),
    findSubcategory(address.companyId, address.categoryId, address.subcategoryId),
  ]);
  if (!record) throw new Error('the subcategory record is gone');
  return {
    events,
    record,
    verification: verifyChain(events, { eventCount: record.eventCount, lastTxId: record.lastTxId }),
  };
}

afterAll(async () => {
  await settleBackgroundJobs();
});

describe('update subcategory: the action field', () => {
  it('responds 400 INVALID_ACTION with details.action for an unknown action, through multipart and JSON', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const multipart = await act(principal, address, 'PUBLISH', place.subcategoryName);
    const json = await putSubcategoryJson(principal, address, {
      name: place.subcategoryName,
      action: 'DELETE',
    });
    // Assess
    for (const [response, action] of [
      [multipart, 'PUBLISH'],
      [json, 'DELETE'],
    ] as const) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toEqual({
        error: `Unknown action "${action}"`,
        code: 'INVALID_ACTION',
        timestamp: expect.stringMatching(ISO_UTC),
        details: { action: ['action must be one of: CHANGE, ACTIVATE, DEACTIVATE, REMOVE'] },
      });
      expect(response.body).not.toHaveProperty('validationErrors');
    }
  });

  it('responds 400 INVALID_ACTION before it looks at the file', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(principal, address, [
      ...fieldParts({ action: 'ARCHIVE' }),
      imagePart('notes.txt', 'text/plain', TEXT_SAMPLE),
    ]);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('INVALID_ACTION');
  });

  it('reads an action in lower or mixed case', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const deactivated = await act(principal, address, 'deactivate', place.subcategoryName);
    const whileDelisted = await getSubcategory(principal, address);
    const activated = await putSubcategoryJson(principal, address, { action: 'Activate' });
    const afterwards = await getSubcategory(principal, address);
    // Assess
    expect(deactivated.statusCode).toBe(200);
    // Spec 4.10: `changes` lists name, description and imageId; the status move is not among them.
    expect(deactivated.body.changes).toEqual({});
    expect(whileDelisted.body.data.status).toBe('delisted');
    expect(activated.statusCode).toBe(200);
    expect(activated.body.changes).toEqual({});
    expect(afterwards.body.data.status).toBe('active');
  });

  it('takes a missing or empty action as CHANGE', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const missing = await putSubcategoryForm(principal, address, fieldParts({ description: 'first' }));
    const empty = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ action: '', description: 'second' }),
    );
    const events = await chainOf(address);
    // Assess
    expect(missing.statusCode).toBe(200);
    expect(missing.body.changes).toEqual({ description: { from: '', to: 'first' } });
    expect(empty.statusCode).toBe(200);
    expect(empty.body.changes).toEqual({ description: { from: 'first', to: 'second' } });
    expect(events.map((event) => event.action)).toEqual(['CREATE', 'CHANGE', 'CHANGE']);
  });
});

describe('update subcategory: DEACTIVATE and ACTIVATE', () => {
  it('DEACTIVATE moves to delisted, shows it everywhere, and refuses new objects with 409 SUBCATEGORY_NOT_ACTIVE', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const response = await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    const detail = await getSubcategory(principal, address);
    const category = await getCategory(principal, place.categoryId);
    const newObject = await postObject(principal, place, { externalId: `EXT-${randomUUID()}`, name: 'Late' });
    const viaFixture = givenObject(principal, place);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: { imageId: null },
      changes: {},
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data.status).toBe('delisted');
    expect(category.body.subcategories[0].status).toBe('delisted');
    expect(newObject.statusCode).toBe(409);
    expect(newObject.body).toEqual({
      error: `Subcategory ${place.subcategoryId} is delisted and accepts no new objects`,
      code: 'SUBCATEGORY_NOT_ACTIVE',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    await expect(viaFixture).rejects.toThrow(/SUBCATEGORY_NOT_ACTIVE/);
    expect(category.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 0 });
  });

  it('DEACTIVATE of a delisted subcategory is accepted and changes nothing', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    // Act
    const again = await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    // Assess
    expect(again.statusCode).toBe(200);
    expect(again.body.changes).toEqual({});
  });

  it('CHANGE of a delisted subcategory keeps it delisted', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: 'Still off', action: 'CHANGE' }),
    );
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.body.changes).toEqual({ name: { from: place.subcategoryName, to: 'Still off' } });
    expect(detail.body.data.status).toBe('delisted');
  });

  it('DEACTIVATE with a new name and description applies all three in one update', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: 'Retired', action: 'DEACTIVATE', description: 'No longer sold' }),
    );
    // Assess
    expect(response.body.changes).toEqual({
      name: { from: place.subcategoryName, to: 'Retired' },
      description: { from: '', to: 'No longer sold' },
    });
  });

  it('ACTIVATE moves a delisted subcategory back to active, which accepts objects again', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    // Act
    const response = await act(principal, address, 'ACTIVATE', place.subcategoryName);
    const detail = await getSubcategory(principal, address);
    const object = await givenObject(principal, place);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: { imageId: null },
      changes: {},
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data.status).toBe('active');
    expect(object.subcategoryId).toBe(place.subcategoryId);
  });

  it('ACTIVATE of an active subcategory responds 409 INVALID_STATE_TRANSITION and changes nothing', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: 'Not applied', action: 'ACTIVATE', description: 'Not applied' }),
    );
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'ACTIVATE needs a deactivated subcategory; this one is active',
      code: 'INVALID_STATE_TRANSITION',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data).toMatchObject({
      name: place.subcategoryName,
      description: '',
      status: 'active',
    });
  });

  it('keeps the objects of a delisted subcategory readable and counted', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const object = await givenObject(principal, place);
    // Act
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(detail.body.data.statistics).toEqual({
      totalObjects: 1,
      lastObjectCreated: object.createdAt,
      averageObjectsPerDay: 1,
    });
  });
});

describe('update subcategory: REMOVE', () => {
  it('responds 200 with the status change, then every read and update responds 404 SUBCATEGORY_NOT_FOUND', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const removal = await act(principal, address, 'REMOVE', place.subcategoryName);
    const detail = await getSubcategory(principal, address);
    const updates = await Promise.all(
      ['CHANGE', 'ACTIVATE', 'DEACTIVATE', 'REMOVE'].map((action) =>
        act(principal, address, action, 'Ghost'),
      ),
    );
    const newObject = await postObject(principal, place, { externalId: `EXT-${randomUUID()}`, name: 'Late' });
    const category = await getCategory(principal, place.categoryId);
    // Assess
    expect(removal.statusCode).toBe(200);
    expect(removal.body).toEqual({
      status: 'success',
      data: { imageId: null },
      changes: {},
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.statusCode).toBe(404);
    expect(detail.body).toEqual({
      error: `No subcategory ${place.subcategoryId} in this category`,
      code: 'SUBCATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    for (const update of updates) {
      expect(update.statusCode).toBe(404);
      expect(update.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    }
    expect(newObject.statusCode).toBe(404);
    expect(newObject.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect(category.body.statistics).toEqual({ subcategoryCount: 0, objectCount: 0 });
    expect(category.body.subcategories).toEqual([]);
  });

  it('removes a delisted subcategory too', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    // Act
    const removal = await act(principal, address, 'REMOVE', place.subcategoryName);
    // Assess
    expect(removal.statusCode).toBe(200);
    expect(removal.body.changes).toEqual({});
  });

  it('gives the name back: a new subcategory may take it, at once and after the background removal', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'REMOVE', place.subcategoryName);
    // Act
    const atOnce = await postSubcategory(principal, place.categoryId, { name: place.subcategoryName });
    await settleBackgroundJobs();
    const category = await getCategory(principal, place.categoryId);
    const sibling = await givenSubcategory(principal, place.categoryId, 'Sibling');
    const renameToTaken = await putSubcategoryJson(
      principal,
      addressOf(principal, { ...place, subcategoryId: sibling.id }),
      {
        name: place.subcategoryName,
      },
    );
    // Assess
    expect(atOnce.statusCode).toBe(200);
    expect(
      category.body.subcategories.map((each: { id: string; name: string }) => [each.id, each.name]),
    ).toEqual([[atOnce.body.data.id, place.subcategoryName]]);
    expect(renameToTaken.statusCode).toBe(409);
    expect(renameToTaken.body.code).toBe('SUBCATEGORY_NAME_EXISTS');
  });

  it('removes its images from the files bucket in the background', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const withImage = await putSubcategoryForm(principal, address, [
      imagePart('a.png', 'image/png', PNG_1X1),
    ]);
    const keysBefore = await storedImageKeys(principal.tenantId, address.subcategoryId);
    // Act
    const removal = await act(principal, address, 'REMOVE', place.subcategoryName);
    await settleBackgroundJobs();
    const keysAfter = await storedImageKeys(principal.tenantId, address.subcategoryId);
    const record = await findSubcategory(address.companyId, address.categoryId, address.subcategoryId);
    // Assess
    expect(removal.body.data).toEqual({ imageId: withImage.body.data.imageId });
    expect(keysBefore).toHaveLength(1);
    expect(keysAfter).toEqual([]);
    expect(record).toBeUndefined();
  });

  it('keeps the ledger chain, one REMOVE event longer, and still valid after the data is gone', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await act(principal, address, 'DEACTIVATE', place.subcategoryName);
    const before = await findSubcategory(address.companyId, address.categoryId, address.subcategoryId);
    // Act
    await act(principal, address, 'REMOVE', place.subcategoryName);
    await settleBackgroundJobs();
    const events = await chainOf(address);
    // Assess
    expect(events.map((event) => event.action)).toEqual(['CREATE', 'DEACTIVATE', 'REMOVE']);
    expect(events[1]?.hash).toBe(before?.lastTxId);
    expect(events[2]?.changes).toEqual({ status: { from: 'delisted', to: 'removed' } });
    const last = events.at(-1);
    expect(verifyChain(events, { eventCount: 3, lastTxId: last?.hash ?? '' })).toMatchObject({
      valid: true,
      problems: [],
    });
  });
});

describe('update subcategory: the own hash chain', () => {
  it('starts with one CREATE event that the record points at', async () => {
    // Prepare
    const { address } = await givenPlace();
    // Act
    const { events, record, verification } = await verifiedChain(address);
    // Assess
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      chainId: `subcategory:${address.companyId}:${address.subcategoryId}`,
      sequence: 1,
      action: 'CREATE',
      prevHash: '0'.repeat(64),
      hash: expect.stringMatching(SHA256_HEX),
    });
    expect(record.lastTxId).toBe(events[0]?.hash);
    expect(verification).toMatchObject({ valid: true, problems: [] });
  });

  it('appends exactly one event per successful update, none per refused one, and stays valid', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const sibling = await givenSubcategory(principal, place.categoryId, 'Sibling');
    // Act
    const responses = [
      await putSubcategoryForm(principal, address, fieldParts({ name: 'First rename', action: 'CHANGE' })),
      await putSubcategoryForm(principal, address, [imagePart('a.png', 'image/png', PNG_1X1)]),
      await act(principal, address, 'ACTIVATE', 'First rename'), // refused: 409
      await act(principal, address, 'DEACTIVATE', 'First rename'),
      await act(principal, address, 'PUBLISH', 'First rename'), // refused: 400
      await putSubcategoryForm(principal, address, [imagePart('a.txt', 'text/plain', TEXT_SAMPLE)]), // refused: 415
      await putSubcategoryForm(principal, address, fieldParts({ name: sibling.name })), // refused: 409
      await putSubcategoryForm(principal, address, fieldParts({ name: 'x' })), // refused: 400
      await act(principal, address, 'ACTIVATE', 'First rename'),
      await putSubcategoryJson(principal, address, { action: 'change', description: 'via JSON' }),
    ];
    const { events, record, verification } = await verifiedChain(address);
    // Assess
    expect(responses.map((response) => response.statusCode)).toEqual([
      200, 200, 409, 200, 400, 415, 409, 400, 200, 200,
    ]);
    const successes = responses.filter((response) => response.statusCode === 200);
    expect(events).toHaveLength(1 + successes.length);
    expect(record.eventCount).toBe(events.length);
    expect(events.map((event) => event.action)).toEqual([
      'CREATE',
      'CHANGE',
      'CHANGE',
      'DEACTIVATE',
      'ACTIVATE',
      'CHANGE',
    ]);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    // The events hold every change; the responses list name, description and imageId (spec 4.10).
    expect(events.slice(1).map(({ changes: { status, ...listed } }) => listed)).toEqual(
      successes.map((response) => response.body.changes),
    );
    expect(events.slice(1).map((event) => event.changes.status)).toEqual([
      undefined,
      undefined,
      { from: 'active', to: 'delisted' },
      { from: 'delisted', to: 'active' },
      undefined,
    ]);
    for (const event of events) {
      expect(event.principal).toBe(`apiKey:${principal.keyId}`);
      expect(event.timestamp).toMatch(ISO_UTC);
    }
    expect(verification).toEqual({
      valid: true,
      eventCount: 6,
      lastTxId: record.lastTxId,
      checkedEvents: 6,
      problems: [],
    });
  });

  it('serializes simultaneous updates: all succeed, each event starts where the previous one ended', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const descriptions = ['one', 'two', 'three', 'four'];
    // Act
    const responses = await Promise.all(
      descriptions.map((description) => putSubcategoryForm(principal, address, fieldParts({ description }))),
    );
    const { events, verification } = await verifiedChain(address);
    // Assess
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    expect(events).toHaveLength(5);
    expect(verification).toMatchObject({ valid: true, problems: [] });
    const steps = events.slice(1).map((event) => event.changes.description as { from: string; to: string });
    expect(steps[0]?.from).toBe('');
    for (let index = 1; index < steps.length; index++) expect(steps[index]?.from).toBe(steps[index - 1]?.to);
    expect(steps.map((step) => step.to).sort()).toEqual([...descriptions].sort());
  });
});
