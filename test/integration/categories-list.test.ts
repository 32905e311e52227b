/** List categories (spec 4.5, 2.1, 8) through the handler, against DynamoDB Local. */
import {
  createCategoriesInOrder,
  createCategoryOk,
  listCategories,
  putCategory,
  setCategoryStatus,
} from '../support/category-requests';
import { companyPrincipal } from '../support/principals';

const namesOf = (body: { data: { name: string }[] }) => body.data.map((category) => category.name);

describe('list categories: filters', () => {
  it('lists only active categories by default', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [, inactive, archived] = await createCategoriesInOrder(principal, [
      'Active one',
      'Inactive one',
      'Archived one',
    ]);
    await setCategoryStatus(principal, inactive!.id, 'inactive');
    await setCategoryStatus(principal, archived!.id, 'archived');
    // Act
    const response = await listCategories(principal);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(namesOf(response.body)).toEqual(['Active one']);
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 1,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('lists only inactive categories with status=inactive', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [, inactive, archived] = await createCategoriesInOrder(principal, [
      'Active one',
      'Inactive one',
      'Archived one',
    ]);
    await setCategoryStatus(principal, inactive!.id, 'inactive');
    await setCategoryStatus(principal, archived!.id, 'archived');
    // Act
    const response = await listCategories(principal, { status: 'inactive' });
    // Assess
    expect(namesOf(response.body)).toEqual(['Inactive one']);
    expect(response.body.data[0].status).toBe('inactive');
    expect(response.body.pagination.total).toBe(1);
  });

  it('lists every category, whatever its status, with status=all', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [, inactive, archived] = await createCategoriesInOrder(principal, [
      'Active one',
      'Inactive one',
      'Archived one',
    ]);
    await setCategoryStatus(principal, inactive!.id, 'inactive');
    await setCategoryStatus(principal, archived!.id, 'archived');
    // Act
    const response = await listCategories(principal, { status: 'all' });
    // Assess
    expect(namesOf(response.body)).toEqual(['Archived one', 'Inactive one', 'Active one']);
    expect(response.body.data.map((category: { status: string }) => category.status)).toEqual([
      'archived',
      'inactive',
      'active',
    ]);
    expect(response.body.pagination.total).toBe(3);
  });

  it('matches part of the name, ignoring case, with an exact total', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, ['Motor Vehicles', 'Tools', 'vehicle parts', 'Bicycles']);
    // Act
    const response = await listCategories(principal, { name: 'VEHICLE' });
    // Assess
    expect(namesOf(response.body)).toEqual(['vehicle parts', 'Motor Vehicles']);
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 2,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('combines the name filter with the status filter', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [, parts] = await createCategoriesInOrder(principal, ['Motor Vehicles', 'Vehicle parts', 'Tools']);
    await setCategoryStatus(principal, parts!.id, 'inactive');
    // Act
    const active = await listCategories(principal, { name: 'vehicle' });
    const all = await listCategories(principal, { name: 'vehicle', status: 'all', sort: 'name:asc' });
    // Assess
    expect(namesOf(active.body)).toEqual(['Motor Vehicles']);
    expect(namesOf(all.body)).toEqual(['Motor Vehicles', 'Vehicle parts']);
    expect(all.body.pagination.total).toBe(2);
  });

  it('gives an empty page with total 0 when no name matches', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoryOk(principal, { name: 'Tools' });
    // Act
    const response = await listCategories(principal, { name: 'zzz' });
    // Assess
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });

  it('treats an empty name filter as no filter', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, ['Tools', 'Vehicles']);
    // Act
    const response = await listCategories(principal, { name: '' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(namesOf(response.body)).toEqual(['Vehicles', 'Tools']);
    expect(response.body.pagination.total).toBe(2);
  });

  it('returns each category in the full shape of spec 2.3', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoryOk(principal, {
      name: 'Tools',
      description: 'd',
      metadata: { k: 'v' },
    });
    // Act
    const response = await listCategories(principal);
    // Assess
    expect(response.body.data).toEqual([created]);
  });

  it('never shows a company the categories of another company', async () => {
    // Prepare
    const first = companyPrincipal();
    const second = companyPrincipal();
    await createCategoriesInOrder(first, ['Vehicles', 'Tools']);
    await createCategoryOk(second, { name: 'Vehicles' });
    // Act
    const firstAll = await listCategories(first, { status: 'all' });
    const secondAll = await listCategories(second, { status: 'all', name: 'o' });
    // Assess
    expect(namesOf(firstAll.body)).toEqual(['Tools', 'Vehicles']);
    expect(firstAll.body.pagination.total).toBe(2);
    expect(namesOf(secondAll.body)).toEqual([]);
    expect(secondAll.body.pagination.total).toBe(0);
  });

  it('gives a new company an empty list', async () => {
    // Act
    const response = await listCategories(companyPrincipal());
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });
});

describe('list categories: sorts', () => {
  // Created in this order; names chosen so that neither name order matches the creation order.
  const creationOrder = ['banana', 'Cherry', 'apple', 'Date'];

  it.each([
    ['createdAt:desc', ['Date', 'apple', 'Cherry', 'banana']],
    ['createdAt:asc', ['banana', 'Cherry', 'apple', 'Date']],
    ['name:asc', ['apple', 'banana', 'Cherry', 'Date']],
    ['name:desc', ['Date', 'Cherry', 'banana', 'apple']],
  ])('sorts by %s', async (sort, expected) => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, creationOrder);
    // Act
    const response = await listCategories(principal, { sort });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(namesOf(response.body)).toEqual(expected);
  });

  it.each([
    ['createdAt:desc', ['Date', 'apple', 'Cherry', 'banana']],
    ['name:asc', ['apple', 'banana', 'Cherry', 'Date']],
  ])('sorts status=all by %s across statuses', async (sort, expected) => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoriesInOrder(principal, creationOrder);
    await setCategoryStatus(principal, created[1]!.id, 'archived');
    await setCategoryStatus(principal, created[2]!.id, 'inactive');
    // Act
    const response = await listCategories(principal, { sort, status: 'all' });
    // Assess
    expect(namesOf(response.body)).toEqual(expected);
  });

  it('sorts by createdAt:desc by default', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, creationOrder);
    // Act
    const response = await listCategories(principal);
    // Assess
    expect(namesOf(response.body)).toEqual(['Date', 'apple', 'Cherry', 'banana']);
  });

  it('keeps the creation order of a renamed category and moves it in the name order', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoriesInOrder(principal, creationOrder);
    const renamed = await putCategory(principal, created[0]!.id, { name: 'zucchini' });
    // Act
    const byCreation = await listCategories(principal, { sort: 'createdAt:asc' });
    const byName = await listCategories(principal, { sort: 'name:asc' });
    // Assess
    expect(renamed.statusCode).toBe(200);
    expect(namesOf(byCreation.body)).toEqual(['zucchini', 'Cherry', 'apple', 'Date']);
    expect(namesOf(byName.body)).toEqual(['apple', 'Cherry', 'Date', 'zucchini']);
  });
});

describe('list categories: pagination', () => {
  const sevenNames = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];

  it('pages 7 categories in pages of 3 with exact totals and flags', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, sevenNames);
    // Act
    const first = await listCategories(principal, { limit: '3', offset: '0', sort: 'name:asc' });
    const second = await listCategories(principal, { limit: '3', offset: '3', sort: 'name:asc' });
    const third = await listCategories(principal, { limit: '3', offset: '6', sort: 'name:asc' });
    // Assess
    expect(namesOf(first.body)).toEqual(['c1', 'c2', 'c3']);
    expect(first.body.pagination).toEqual({
      limit: 3,
      offset: 0,
      total: 7,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(namesOf(second.body)).toEqual(['c4', 'c5', 'c6']);
    expect(second.body.pagination).toEqual({
      limit: 3,
      offset: 3,
      total: 7,
      hasNext: true,
      hasPrevious: true,
      nextCursor: expect.any(String),
    });
    expect(namesOf(third.body)).toEqual(['c7']);
    expect(third.body.pagination).toEqual({
      limit: 3,
      offset: 6,
      total: 7,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('pages in createdAt:desc order as well', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, sevenNames);
    // Act
    const second = await listCategories(principal, { limit: '3', offset: '3' });
    // Assess
    expect(namesOf(second.body)).toEqual(['c4', 'c3', 'c2']);
    expect(second.body.pagination).toEqual({
      limit: 3,
      offset: 3,
      total: 7,
      hasNext: true,
      hasPrevious: true,
      nextCursor: expect.any(String),
    });
  });

  it('ends exactly at the total without a next page', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, sevenNames.slice(0, 6));
    // Act
    const response = await listCategories(principal, { limit: '3', offset: '3', sort: 'name:asc' });
    // Assess
    expect(namesOf(response.body)).toEqual(['c4', 'c5', 'c6']);
    expect(response.body.pagination).toEqual({
      limit: 3,
      offset: 3,
      total: 6,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('gives an empty page past the end, with the total and hasPrevious', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, sevenNames);
    // Act
    const response = await listCategories(principal, { limit: '3', offset: '10' });
    // Assess
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 3, offset: 10, total: 7, hasNext: false, hasPrevious: true, nextCursor: null },
    });
  });

  it('pages a name-filtered list with the exact number of matches', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, ['x-a1', 'y-b1', 'x-a2', 'y-b2', 'x-a3', 'x-a4', 'y-b3']);
    // Act
    const response = await listCategories(principal, {
      name: 'X-',
      limit: '2',
      offset: '2',
      sort: 'name:asc',
    });
    // Assess
    expect(namesOf(response.body)).toEqual(['x-a3', 'x-a4']);
    expect(response.body.pagination).toEqual({
      limit: 2,
      offset: 2,
      total: 4,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('accepts limit 100, the largest page size', async () => {
    // Prepare
    const principal = companyPrincipal();
    await createCategoriesInOrder(principal, ['a1', 'a2']);
    // Act
    const response = await listCategories(principal, { limit: '100' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.pagination).toEqual({
      limit: 100,
      offset: 0,
      total: 2,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });
});

describe('list categories: invalid query parameters', () => {
  it.each([
    ['limit', '0', 'RANGE_INVALID', 'limit must be from 1 to 100'],
    ['limit', '101', 'RANGE_INVALID', 'limit must be from 1 to 100'],
    ['limit', 'abc', 'TYPE_INVALID', 'limit must be a whole number'],
    ['limit', '2.5', 'TYPE_INVALID', 'limit must be a whole number'],
    ['offset', '-1', 'RANGE_INVALID', 'offset must be at least 0'],
    ['offset', 'x', 'TYPE_INVALID', 'offset must be a whole number'],
    [
      'sort',
      'bogus',
      'ENUM_INVALID',
      'sort must be one of: createdAt:desc, createdAt:asc, name:asc, name:desc',
    ],
    ['status', 'bogus', 'ENUM_INVALID', 'status must be one of: active, inactive, all'],
    ['status', 'archived', 'ENUM_INVALID', 'status must be one of: active, inactive, all'],
    ['name', 'n'.repeat(101), 'LENGTH_INVALID', 'name must be at most 100 characters long'],
  ])('responds 400 VALIDATION_ERROR for %s=%s', async (field, value, code, message) => {
    // Act
    const response = await listCategories(companyPrincipal(), { [field]: value });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.any(String),
      validationErrors: [{ field, code, message }],
    });
  });

  it('ignores query parameters it does not know', async () => {
    // Act
    const response = await listCategories(companyPrincipal(), { page: '2', foo: 'bar' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 0,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });
});
