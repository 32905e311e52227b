/** Who may call the category operations (spec 5, 7): kind of key and permissions. */
import { randomUUID } from 'node:crypto';
import {
  createCategoryOk,
  getCategory,
  listCategories,
  postCategory,
  putCategory,
} from '../support/category-requests';
import { appPrincipal, companyPrincipal } from '../support/principals';

describe('category permissions', () => {
  it('responds 403 COMPANY_ACCESS_DENIED to a create with a key without categories:write', async () => {
    // Prepare
    const principal = companyPrincipal(['categories:read']);
    // Act
    const response = await postCategory(principal, { name: 'Vehicles' });
    const listed = await listCategories(principal, { status: 'all' });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'The API key lacks the permission categories:write',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.any(String),
    });
    expect(listed.body.pagination.total).toBe(0);
  });

  it('lets a key with only categories:read list and read', async () => {
    // Prepare
    const companyId = randomUUID();
    const writer = companyPrincipal(['categories:write'], companyId);
    const reader = companyPrincipal(['categories:read'], companyId);
    const created = await createCategoryOk(writer, { name: 'Vehicles' });
    // Act
    const listed = await listCategories(reader);
    const read = await getCategory(reader, created.id);
    // Assess
    expect(listed.statusCode).toBe(200);
    expect(listed.body.data).toEqual([created]);
    expect(read.statusCode).toBe(200);
  });

  it('responds 403 to an update with a key without categories:write, and changes nothing', async () => {
    // Prepare
    const companyId = randomUUID();
    const created = await createCategoryOk(companyPrincipal(undefined, companyId), { name: 'Vehicles' });
    const reader = companyPrincipal(['categories:read'], companyId);
    // Act
    const response = await putCategory(reader, created.id, { name: 'Renamed' });
    const readBack = await getCategory(reader, created.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect(readBack.body.name).toBe('Vehicles');
  });

  it('responds 403 to a list with a key without categories:read', async () => {
    // Act
    const response = await listCategories(companyPrincipal(['categories:write', 'objects:read']));
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'The API key lacks the permission categories:read',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.any(String),
    });
  });

  it('responds 403 COMPANY_ACCESS_DENIED to an App key, even one holding category permissions', async () => {
    // Prepare
    const principal = appPrincipal(['categories:read', 'categories:write']);
    // Act
    const created = await postCategory(principal, { name: 'Vehicles' });
    const listed = await listCategories(principal);
    // Assess
    expect(created.statusCode).toBe(403);
    expect(created.body).toEqual({
      error: 'This operation needs a key of a company',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.any(String),
    });
    expect(listed.statusCode).toBe(403);
    expect(listed.body.code).toBe('COMPANY_ACCESS_DENIED');
  });

  it('responds 401 UNAUTHORIZED when no principal reached the handler', async () => {
    // Act
    const response = await postCategory(undefined, { name: 'Vehicles' });
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual({
      error: 'Missing or invalid credentials',
      code: 'UNAUTHORIZED',
      timestamp: expect.any(String),
    });
  });
});
