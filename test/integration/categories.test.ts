import { handler as createCategory } from '../../lambdas/handlers/categories/create-category';
import { handler as listCategories } from '../../lambdas/handlers/categories/list-categories';
import { handler as updateCategory } from '../../lambdas/handlers/categories/update-category';
import { invoke } from '../support/api-events';
import { companyPrincipal } from '../support/principals';

describe('categories against DynamoDB Local', () => {
  it('creates a category and lists it', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const created = await invoke(createCategory, {
      method: 'POST',
      path: '/v2/categories',
      principal,
      body: { name: 'Vehicles' },
    });
    const listed = await invoke(listCategories, { method: 'GET', path: '/v2/categories', principal });
    // Assess
    expect(created.statusCode).toBe(201);
    expect(created.headers.Location).toBe(`/test/v2/categories/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: 'Vehicles',
      status: 'active',
      statistics: { subcategoryCount: 0, objectCount: 0 },
      subcategories: [],
    });
    expect(listed.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 1,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('moves updatedAt on PUT', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await invoke(createCategory, {
      method: 'POST',
      path: '/v2/categories',
      principal,
      body: { name: 'Tools' },
    });
    // Act
    const updated = await invoke(updateCategory, {
      method: 'PUT',
      path: `/v2/categories/${created.body.id}`,
      principal,
      pathParameters: { categoryId: created.body.id },
      body: { status: 'archived' },
    });
    // Assess
    expect(updated.statusCode).toBe(200);
    expect(updated.body.status).toBe('archived');
    expect(updated.body.updatedAt > created.body.updatedAt).toBe(true);
  });
});
