/** Get one object (extension): by id, and at its address under the company (the create Location). */
import { randomUUID } from 'node:crypto';
import { givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  getCompanyObject,
  getObject,
  ISO_UTC,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

describe('get object', () => {
  it('GET /v2/objects/{id} returns the entity as created', async () => {
    // Prepare
    const principal = companyPrincipal();
    const object = await createObjectOk(principal, await givenSubcategoryPath(principal), {
      name: 'Forklift',
      metadata: { seats: 1 },
    });
    // Act
    const response = await getObject(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual(object);
  });

  it('returns the latest version after an update', async () => {
    // Prepare
    const principal = companyPrincipal();
    const object = await createObjectOk(principal, await givenSubcategoryPath(principal));
    const updated = await updateObjectOk(principal, object.id, { action: 'transfer', owner: 'Carol' });
    // Act
    const response = await getObject(principal, object.id);
    // Assess
    expect(response.body).toEqual(updated);
    expect(response.body.owner).toBe('Carol');
  });

  it('responds 404 OBJECT_NOT_FOUND for an unknown id', async () => {
    // Prepare
    const principal = companyPrincipal();
    const unknownId = randomUUID();
    // Act
    const response = await getObject(principal, unknownId);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No object ${unknownId} in this company`,
      code: 'OBJECT_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 OBJECT_NOT_FOUND for another company's object", async () => {
    // Prepare
    const owner = companyPrincipal();
    const object = await createObjectOk(owner, await givenSubcategoryPath(owner));
    // Act
    const response = await getObject(companyPrincipal(), object.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('OBJECT_NOT_FOUND');
  });

  it('finds the object by its id written in upper case (UUIDs are case-insensitive on input, RFC 9562)', async () => {
    // Prepare: the path schema accepts upper-case hex digits as a valid UUID
    const principal = companyPrincipal();
    const object = await createObjectOk(principal, await givenSubcategoryPath(principal));
    // Act
    const response = await getObject(principal, object.id.toUpperCase());
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.id).toBe(object.id);
  });

  it('responds 400 VALIDATION_ERROR for an id that is not a UUID', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await getObject(principal, 'not-a-uuid');
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'objectId', code: 'FORMAT_INVALID', message: 'objectId must be a UUID' },
    ]);
  });

  it('GET /v2/companies/{companyId}/objects/{id} returns the entity for the own company', async () => {
    // Prepare
    const principal = companyPrincipal();
    const object = await createObjectOk(principal, await givenSubcategoryPath(principal));
    // Act
    const response = await getCompanyObject(principal, principal.tenantId, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual(object);
  });

  it('responds 403 COMPANY_ACCESS_DENIED for another companyId in the path', async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const object = await createObjectOk(owner, await givenSubcategoryPath(owner));
    // Act
    const response = await getCompanyObject(intruder, owner.tenantId, object.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'The API key does not belong to this company',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 OBJECT_NOT_FOUND at the own company's address for another company's object", async () => {
    // Prepare
    const owner = companyPrincipal();
    const other = companyPrincipal();
    const object = await createObjectOk(owner, await givenSubcategoryPath(owner));
    // Act
    const response = await getCompanyObject(other, other.tenantId, object.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('OBJECT_NOT_FOUND');
  });
});
