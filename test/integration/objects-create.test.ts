/** Create object (spec 4.3) through the handler, against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { getCategory } from '../support/category-requests';
import { givenCategory, givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getCompanyObject,
  ISO_UTC,
  listObjects,
  listSubcategoryObjects,
  postObject,
  SHA256_HEX,
  UUID_V4,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { addressOf, putSubcategoryJson } from '../support/subcategory-requests';

describe('create object', () => {
  it('responds 201 with the entity, its Location, and defaults for the fields left out', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(principal, place, { externalId: 'VIN-1', name: 'Truck' });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID_V4),
      externalId: 'VIN-1',
      name: 'Truck',
      description: '',
      summary: null,
      owner: '',
      status: 'active',
      categoryId: place.categoryId,
      subcategoryId: place.subcategoryId,
      metadata: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: response.body.createdAt,
      blockchain: {
        txId: expect.stringMatching(SHA256_HEX),
        lastTxId: response.body.blockchain.txId,
        eventCount: 1,
      },
    });
    expect(response.headers.Location).toBe(
      `/test/v2/companies/${principal.tenantId}/objects/${response.body.id}`,
    );
  });

  it('stores every field given and reads it back the same at its Location', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const body = {
      externalId: 'SN-42',
      name: 'Drill',
      description: 'Cordless drill',
      summary: 'A drill',
      owner: 'Workshop',
      metadata: { voltage: 18, brand: 'Acme', tags: ['power', 'tool'], nested: { a: null } },
    };
    // Act
    const created = await postObject(principal, place, body);
    const readBack = await getCompanyObject(principal, principal.tenantId, created.body.id);
    // Assess
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatchObject({ ...body, status: 'active' });
    expect(readBack.statusCode).toBe(200);
    expect(readBack.body).toEqual(created.body);
  });

  it.each([
    ['an externalId of 100 emoji', { externalId: '🚗'.repeat(100) }],
    ['an externalId of 1 character', { externalId: 'x' }],
    ['a name of 2 characters', { name: 'ab' }],
    ['a name of 200 emoji', { name: '🔧'.repeat(200) }],
    ['a description of 1000 emoji', { description: '📄'.repeat(1000) }],
    ['a summary of 500 emoji', { summary: '📝'.repeat(500) }],
    ['an owner of 100 emoji', { owner: '👤'.repeat(100) }],
  ])('accepts %s (lengths count characters, not UTF-16 units)', async (_, fields) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const body = { externalId: `EXT-${randomUUID()}`, name: 'Object', ...fields };
    // Act
    const response = await postObject(principal, place, body);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body).toMatchObject(body);
  });

  it.each([
    ['externalId', '101 emoji', '🚗'.repeat(101)],
    ['externalId', '0 characters', ''],
    ['name', '1 character', 'a'],
    ['name', '201 characters', 'n'.repeat(201)],
    ['description', '1001 characters', 'd'.repeat(1001)],
    ['summary', '501 characters', 's'.repeat(501)],
    ['owner', '101 characters', 'o'.repeat(101)],
  ])('responds 400 LENGTH_INVALID for %s of %s', async (field, _, value) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const body = { externalId: `EXT-${randomUUID()}`, name: 'Object', [field]: value };
    // Act
    const response = await postObject(principal, place, body);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [{ field, code: 'LENGTH_INVALID', message: expect.stringContaining(field) }],
    });
    const listed = await listObjects(principal, { status: 'all' });
    expect(listed.body.pagination.total).toBe(0);
  });

  it.each([
    ['name', 'Pump\u0000'],
    ['name', 'Pump\u202Egpj.exe'],
    ['owner', 'Jane\u0085Doe'],
    ['owner', '\u2067Jane'],
  ])(
    'responds 400 FORMAT_INVALID for control or bidirectional formatting characters %j, and creates nothing',
    async (field, value) => {
      // Prepare
      const principal = companyPrincipal();
      const place = await givenSubcategoryPath(principal);
      // Act
      const response = await postObject(principal, place, {
        externalId: `EXT-${randomUUID()}`,
        name: 'Object',
        [field]: value,
      });
      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toEqual({
        error: 'The request is not valid',
        code: 'VALIDATION_ERROR',
        timestamp: expect.stringMatching(ISO_UTC),
        validationErrors: [
          {
            field,
            code: 'FORMAT_INVALID',
            message: expect.stringContaining(
              `${field} may not contain control or bidirectional formatting characters`,
            ),
          },
        ],
      });
      const listed = await listObjects(principal, { status: 'all' });
      expect(listed.body.pagination.total).toBe(0);
    },
  );

  it('reports both missing required fields in one response', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(principal, place, { description: 'no ids' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([
      { field: 'externalId', code: 'REQUIRED', message: 'externalId is required' },
      { field: 'name', code: 'REQUIRED', message: 'name is required' },
    ]);
  });

  it('reports REQUIRED for an empty body', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(principal, place, undefined);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(
      response.body.validationErrors.map((issue: { field: string; code: string }) => [
        issue.field,
        issue.code,
      ]),
    ).toEqual([
      ['externalId', 'REQUIRED'],
      ['name', 'REQUIRED'],
    ]);
  });

  it.each([
    ['name', 5],
    ['externalId', 7],
    ['description', true],
    ['metadata', []],
    ['metadata', 'x'],
    ['metadata', 3],
  ])('responds 400 VALIDATION_ERROR with TYPE_INVALID for %s = %j', async (field, value) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(principal, place, {
      externalId: 'EXT-1',
      name: 'Object',
      [field]: value,
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([
      { field, code: 'TYPE_INVALID', message: expect.any(String) },
    ]);
  });

  it.each([
    ['malformed JSON', '{"externalId": "A", "name": '],
    ['a JSON array', '[{"externalId": "A", "name": "Object"}]'],
    ['a JSON string', '"externalId"'],
  ])('responds 400 VALIDATION_ERROR for a body that is %s', async (_, rawBody) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(principal, place, undefined, { rawBody });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toHaveLength(1);
    expect(response.body.validationErrors[0].field).toBe('body');
  });

  it.each([
    ['categoryId', 'not-a-uuid'],
    ['subcategoryId', '12345'],
  ])('responds 400 VALIDATION_ERROR for a %s that is not a UUID', async (field, value) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await postObject(
      principal,
      { ...place, [field]: value },
      { externalId: 'EXT-1', name: 'Object' },
    );
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([
      { field, code: 'FORMAT_INVALID', message: `${field} must be a UUID` },
    ]);
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND for an unknown subcategory', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const unknownId = randomUUID();
    // Act
    const response = await postObject(
      principal,
      { categoryId: category.id, subcategoryId: unknownId },
      { externalId: 'EXT-1', name: 'Object' },
    );
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No subcategory ${unknownId} in this category`,
      code: 'SUBCATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('returns where the object would go before what it collides with, without reading the subcategory first', async () => {
    // Prepare: a used externalId, then a delisted and a removed subcategory
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    await createObjectOk(principal, place, { externalId: 'USED-1' });
    const delisted = await givenSubcategoryPath(principal);
    const removed = await givenSubcategoryPath(principal);
    const deactivate = await putSubcategoryJson(principal, addressOf(principal, delisted), {
      action: 'DEACTIVATE',
    });
    const remove = await putSubcategoryJson(principal, addressOf(principal, removed), { action: 'REMOVE' });
    const unknown = { categoryId: place.categoryId, subcategoryId: randomUUID() };
    // Act
    const responses = await Promise.all(
      [unknown, delisted, removed].map((where) =>
        postObject(principal, where, { externalId: 'USED-1', name: 'Object' }),
      ),
    );
    // Assess
    expect([deactivate.statusCode, remove.statusCode]).toEqual([200, 200]);
    expect(responses.map((response) => [response.statusCode, response.body.code])).toEqual([
      [404, 'SUBCATEGORY_NOT_FOUND'],
      [409, 'SUBCATEGORY_NOT_ACTIVE'],
      [404, 'SUBCATEGORY_NOT_FOUND'],
    ]);
  });

  it("responds 404 SUBCATEGORY_NOT_FOUND for another company's subcategory, and creates nothing", async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const place = await givenSubcategoryPath(owner);
    // Act
    const response = await postObject(intruder, place, { externalId: 'EXT-1', name: 'Object' });
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect((await listSubcategoryObjects(owner, place)).body.pagination.total).toBe(0);
    expect((await listObjects(intruder, { status: 'all' })).body.pagination.total).toBe(0);
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND for a subcategory under the wrong category', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const otherCategory = await givenCategory(principal);
    // Act
    const response = await postObject(
      principal,
      { categoryId: otherCategory.id, subcategoryId: place.subcategoryId },
      { externalId: 'EXT-1', name: 'Object' },
    );
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect((await getCategory(principal, otherCategory.id)).body.statistics.objectCount).toBe(0);
  });

  it('responds 409 EXTERNAL_ID_EXISTS for an externalId the company already uses, and keeps one object', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const otherSubcategory = await givenSubcategory(principal, place.categoryId);
    const first = await createObjectOk(principal, place, { externalId: 'VIN-7', name: 'First' });
    // Act: the same externalId, even in another subcategory of the company
    const response = await postObject(
      principal,
      { categoryId: place.categoryId, subcategoryId: otherSubcategory.id },
      { externalId: 'VIN-7', name: 'Second' },
    );
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'An object with externalId "VIN-7" already exists in this company',
      code: 'EXTERNAL_ID_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    const listed = await listObjects(principal, { status: 'all' });
    expect(listed.body.pagination.total).toBe(1);
    expect(listed.body.data).toEqual([first]);
    const category = await getCategory(principal, place.categoryId);
    expect(category.body.statistics.objectCount).toBe(1);
    const otherList = await listSubcategoryObjects(principal, {
      categoryId: place.categoryId,
      subcategoryId: otherSubcategory.id,
    });
    expect(otherList.body.pagination.total).toBe(0);
    expect(otherList.body.data).toEqual([]);
  });

  it('of 8 concurrent creations with one externalId, exactly one succeeds and is counted', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        postObject(principal, place, { externalId: 'RACE-1', name: `Racer ${index}` }),
      ),
    );
    // Assess
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((each) => each.statusCode === 409)) {
      expect(response.body.code).toBe('EXTERNAL_ID_EXISTS');
    }
    expect((await listObjects(principal, { status: 'all' })).body.pagination.total).toBe(1);
    expect((await listSubcategoryObjects(principal, place)).body.pagination.total).toBe(1);
    expect((await getCategory(principal, place.categoryId)).body.statistics.objectCount).toBe(1);
  });

  it('counts every one of 15 concurrent creations exactly', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        postObject(principal, place, { externalId: `PAR-${index}`, name: 'Parallel' }),
      ),
    );
    // Assess
    expect(responses.map((response) => response.statusCode)).toEqual(Array(15).fill(201));
    expect((await listObjects(principal, { limit: '100' })).body.pagination.total).toBe(15);
    expect((await listObjects(principal, { limit: '100', name: 'parallel' })).body.data).toHaveLength(15);
    expect((await listSubcategoryObjects(principal, place)).body.pagination.total).toBe(15);
    expect((await getCategory(principal, place.categoryId)).body.statistics.objectCount).toBe(15);
  });

  it('treats externalIds as case-sensitive: another case is another externalId', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    await createObjectOk(principal, place, { externalId: 'vin-8' });
    // Act
    const response = await postObject(principal, place, { externalId: 'VIN-8', name: 'Object' });
    // Assess
    expect(response.statusCode).toBe(201);
  });

  it('accepts an externalId that another company already uses', async () => {
    // Prepare
    const first = companyPrincipal();
    const second = companyPrincipal();
    await createObjectOk(first, await givenSubcategoryPath(first), { externalId: 'SHARED-1' });
    const place = await givenSubcategoryPath(second);
    // Act
    const response = await postObject(second, place, { externalId: 'SHARED-1', name: 'Object' });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.externalId).toBe('SHARED-1');
  });

  it("counts created objects in the category's and the subcategory's statistics", async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    for (let index = 0; index < 3; index++) await createObjectOk(principal, place);
    const category = await getCategory(principal, place.categoryId);
    const subcategoryObjects = await listSubcategoryObjects(principal, place);
    // Assess
    expect(category.statusCode).toBe(200);
    expect(category.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 3 });
    expect(subcategoryObjects.statusCode).toBe(200);
    expect(subcategoryObjects.body.pagination.total).toBe(3);
    expect(subcategoryObjects.body.data).toHaveLength(3);
  });
});
