/** List the objects of a subcategory (spec 4.2) through the handler, against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { givenCategory, givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import {
  createObjectOk,
  createObjectsInOrder,
  ISO_UTC,
  listSubcategoryObjects,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

describe('list objects of a subcategory', () => {
  it('lists newest first, 20 a page by default, with the exact total', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const created = await createObjectsInOrder(
      principal,
      Array.from({ length: 22 }, (_, index) => ({ place, body: { name: `Object ${index + 1}` } })),
    );
    const newestFirst = [...created].reverse();
    // Act
    const first = await listSubcategoryObjects(principal, place);
    const second = await listSubcategoryObjects(principal, place, { offset: '20' });
    // Assess
    expect(first.statusCode).toBe(200);
    expect(first.body).toEqual({
      data: newestFirst.slice(0, 20),
      pagination: {
        limit: 20,
        offset: 0,
        total: 22,
        hasNext: true,
        hasPrevious: false,
        nextCursor: expect.any(String),
      },
    });
    expect(second.body).toEqual({
      data: newestFirst.slice(20),
      pagination: { limit: 20, offset: 20, total: 22, hasNext: false, hasPrevious: true, nextCursor: null },
    });
  });

  it('pages with limit and offset', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const created = await createObjectsInOrder(
      principal,
      Array.from({ length: 5 }, () => ({ place })),
    );
    const newestFirst = [...created].reverse();
    // Act
    const middle = await listSubcategoryObjects(principal, place, { limit: '2', offset: '2' });
    const beyond = await listSubcategoryObjects(principal, place, { limit: '2', offset: '5' });
    // Assess
    expect(middle.body).toEqual({
      data: newestFirst.slice(2, 4),
      pagination: {
        limit: 2,
        offset: 2,
        total: 5,
        hasNext: true,
        hasPrevious: true,
        nextCursor: expect.any(String),
      },
    });
    expect(beyond.body).toEqual({
      data: [],
      pagination: { limit: 2, offset: 5, total: 5, hasNext: false, hasPrevious: true, nextCursor: null },
    });
  });

  it('lists only the objects of that subcategory, stolen ones included', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const sibling = {
      categoryId: place.categoryId,
      subcategoryId: (await givenSubcategory(principal, place.categoryId)).id,
    };
    const [kept, stolen] = await createObjectsInOrder(principal, [{ place }, { place }]);
    await createObjectOk(principal, sibling);
    const stolenNow = await updateObjectOk(principal, stolen.id, { action: 'report_stolen' });
    // Act
    const response = await listSubcategoryObjects(principal, place);
    // Assess
    expect(response.body.data).toEqual([stolenNow, kept]);
    expect(response.body.pagination.total).toBe(2);
  });

  it('returns an empty page for a subcategory without objects', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await listSubcategoryObjects(principal, place);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND for an unknown subcategory', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const unknownId = randomUUID();
    // Act
    const response = await listSubcategoryObjects(principal, {
      categoryId: category.id,
      subcategoryId: unknownId,
    });
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No subcategory ${unknownId} in this category`,
      code: 'SUBCATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 SUBCATEGORY_NOT_FOUND under the wrong category and for another company's subcategory", async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    await createObjectOk(principal, place);
    const otherCategory = await givenCategory(principal);
    // Act
    const wrongCategory = await listSubcategoryObjects(principal, {
      categoryId: otherCategory.id,
      subcategoryId: place.subcategoryId,
    });
    const otherCompany = await listSubcategoryObjects(companyPrincipal(), place);
    // Assess
    expect(wrongCategory.statusCode).toBe(404);
    expect(wrongCategory.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect(otherCompany.statusCode).toBe(404);
    expect(otherCompany.body.code).toBe('SUBCATEGORY_NOT_FOUND');
  });

  it.each([
    ['limit', '101', 'RANGE_INVALID'],
    ['limit', '0', 'RANGE_INVALID'],
    ['limit', 'ten', 'TYPE_INVALID'],
    ['offset', '-1', 'RANGE_INVALID'],
  ])('responds 400 VALIDATION_ERROR for %s=%s', async (name, value, code) => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await listSubcategoryObjects(principal, place, { [name]: value });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.validationErrors).toEqual([{ field: name, code, message: expect.any(String) }]);
  });

  it('responds 400 VALIDATION_ERROR for path ids that are not UUIDs', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await listSubcategoryObjects(principal, { categoryId: 'x', subcategoryId: 'y' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors.map((issue: { field: string }) => issue.field)).toEqual([
      'categoryId',
      'subcategoryId',
    ]);
  });
});
