/** Update category (spec 4.7) and get category (extension) through the handlers, against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import {
  createCategoryOk,
  getCategory,
  listCategories,
  postCategory,
  putCategory,
} from '../support/category-requests';
import { companyPrincipal } from '../support/principals';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('update category', () => {
  it('changes only the fields given and keeps the others', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, {
      name: 'Vehicles',
      description: 'Cars and vans',
      metadata: { region: 'EU' },
    });
    // Act
    const response = await putCategory(principal, created.id, { description: 'Cars, vans and trucks' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      ...created,
      description: 'Cars, vans and trucks',
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(response.body.updatedAt > created.updatedAt).toBe(true);
    expect(response.body.createdAt).toBe(created.createdAt);
  });

  it('stores the change, so that a later read gives the updated category', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Vehicles' });
    // Act
    const updated = await putCategory(principal, created.id, {
      name: 'Motor vehicles',
      status: 'inactive',
      metadata: { replaced: true },
    });
    const readBack = await getCategory(principal, created.id);
    // Assess
    expect(updated.statusCode).toBe(200);
    expect(readBack.body).toEqual(updated.body);
    expect(readBack.body).toMatchObject({
      name: 'Motor vehicles',
      status: 'inactive',
      metadata: { replaced: true },
    });
  });

  it('replaces the stored metadata as a whole when metadata is given', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools', metadata: { a: 1, b: 2 } });
    // Act
    const response = await putCategory(principal, created.id, { metadata: { c: 3 } });
    // Assess
    expect(response.body.metadata).toEqual({ c: 3 });
  });

  it.each(['inactive', 'archived', 'active'])('sets status %s', async (status) => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await putCategory(principal, created.id, { status });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.status).toBe(status);
  });

  it('frees the old name on rename, so another category can take it', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Vehicles' });
    // Act
    const renamed = await putCategory(principal, created.id, { name: 'Cars' });
    const reuse = await postCategory(principal, { name: 'vehicles' });
    // Assess
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body.name).toBe('Cars');
    expect(reuse.statusCode).toBe(201);
  });

  it('holds the new name after a rename, so no other category can take it', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Vehicles' });
    await putCategory(principal, created.id, { name: 'Cars' });
    // Act
    const response = await postCategory(principal, { name: 'CARS' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('responds 409 CATEGORY_NAME_EXISTS for a rename to a name in use, and changes nothing', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoryOk(principal, { name: 'Vehicles' });
    const tools = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await putCategory(principal, tools.id, { name: 'VEHICLES', description: 'taken' });
    const readBack = await getCategory(principal, tools.id);
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'A category named "VEHICLES" already exists in this company',
      code: 'CATEGORY_NAME_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(readBack.body).toEqual(tools);
  });

  it('keeps the name of a category refused a rename, so the old name stays taken', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoryOk(principal, { name: 'Vehicles' });
    const tools = await createCategoryOk(principal, { name: 'Tools' });
    await putCategory(principal, tools.id, { name: 'Vehicles' });
    // Act
    const response = await postCategory(principal, { name: 'Tools' });
    // Assess
    expect(response.statusCode).toBe(409);
  });

  it('allows a rename that only changes the case', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'vehicles' });
    // Act
    const response = await putCategory(principal, created.id, { name: 'Vehicles' });
    const duplicate = await postCategory(principal, { name: 'VEHICLES' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.name).toBe('Vehicles');
    expect(duplicate.statusCode).toBe(409);
  });

  it('allows renaming a category to its own name', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Vehicles' });
    // Act
    const response = await putCategory(principal, created.id, { name: 'Vehicles' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.name).toBe('Vehicles');
  });

  it('responds 400 ENUM_INVALID for an unknown status', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await putCategory(principal, created.id, { status: 'deleted' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [
        {
          field: 'status',
          code: 'ENUM_INVALID',
          message: 'status must be one of: active, inactive, archived',
        },
      ],
    });
  });

  it('responds 400 for a name that is too short or a description that is too long', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await putCategory(principal, created.id, { name: 'T', description: 'd'.repeat(501) });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
      {
        field: 'description',
        code: 'LENGTH_INVALID',
        message: 'description must be at most 500 characters long',
      },
    ]);
  });

  it('responds 400 for a JSON null body, which is not an object', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await putCategory(principal, created.id, undefined, { rawBody: 'null' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'body', code: 'TYPE_INVALID', message: 'body must be a JSON object' },
    ]);
  });

  it('responds 404 CATEGORY_NOT_FOUND for an unknown id', async () => {
    // Prepare
    const categoryId = randomUUID();
    // Act
    const response = await putCategory(companyPrincipal(), categoryId, { name: 'Anything' });
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No category ${categoryId} in this company`,
      code: 'CATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 for another company's category and leaves it unchanged", async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const created = await createCategoryOk(owner, { name: 'Vehicles' });
    // Act
    const response = await putCategory(intruder, created.id, { name: 'Hijacked', status: 'archived' });
    const readBack = await getCategory(owner, created.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('CATEGORY_NOT_FOUND');
    expect(readBack.body).toEqual(created);
  });

  it('responds 400 FORMAT_INVALID for a category id that is not a UUID', async () => {
    // Act
    const response = await putCategory(companyPrincipal(), 'not-a-uuid', { name: 'Anything' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'categoryId', code: 'FORMAT_INVALID', message: 'categoryId must be a UUID' },
    ]);
  });

  it('applies two concurrent updates of different fields without losing either', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const [first, second] = await Promise.all([
      putCategory(principal, created.id, { description: 'first' }),
      putCategory(principal, created.id, { metadata: { second: true } }),
    ]);
    const readBack = await getCategory(principal, created.id);
    // Assess
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(readBack.body).toMatchObject({ description: 'first', metadata: { second: true } });
  });

  it('moves the list counters with a status change', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Tools' });
    await createCategoryOk(principal, { name: 'Vehicles' });
    // Act
    await putCategory(principal, created.id, { status: 'inactive' });
    const active = await listCategories(principal);
    const inactive = await listCategories(principal, { status: 'inactive' });
    const all = await listCategories(principal, { status: 'all' });
    // Assess
    expect(active.body.pagination.total).toBe(1);
    expect(inactive.body.pagination.total).toBe(1);
    expect(all.body.pagination.total).toBe(2);
  });
});

describe('get category', () => {
  it('responds 200 with the category', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, { name: 'Vehicles' });
    // Act
    const response = await getCategory(principal, created.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual(created);
  });

  it("responds 404 CATEGORY_NOT_FOUND for another company's category", async () => {
    // Prepare
    const created = await createCategoryOk(companyPrincipal(), { name: 'Vehicles' });
    // Act
    const response = await getCategory(companyPrincipal(), created.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('CATEGORY_NOT_FOUND');
  });

  it('responds 400 for a category id that is not a UUID', async () => {
    // Act
    const response = await getCategory(companyPrincipal(), '123');
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
  });
});
