/** Get subcategory in detail (spec 4.9, 2.4 detail shape) through the handler, against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { handler as updateCategoryHandler } from '../../lambdas/handlers/categories/update-category';
import { APP_PERMISSIONS, type Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { givenCategory, givenSubcategoryPath } from '../support/fixtures';
import { createObjectsInOrder, ISO_UTC } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { PNG_1X1 } from '../support/subcategory-images';
import { imagePart, putSubcategoryForm } from '../support/subcategory-multipart';
import { addressOf, createSubcategoryOk, getSubcategory } from '../support/subcategory-requests';

describe('get subcategory: the response', () => {
  it('responds 200 { status, data, timestamp } with every field of the 2.4 detail shape', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal, 'Vehicles');
    const subcategoryId = await createSubcategoryOk(principal, category.id, {
      name: 'Trucks',
      description: 'Heavy vehicles',
    });
    // Act
    const response = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId }),
    );
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: {
        id: subcategoryId,
        name: 'Trucks',
        status: 'active',
        path: 'Vehicles/Trucks',
        description: 'Heavy vehicles',
        imageId: null,
        createDate: expect.stringMatching(ISO_UTC),
        categoryId: category.id,
        files: [],
        statistics: { totalObjects: 0, lastObjectCreated: null, averageObjectsPerDay: 0 },
      },
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('shows the image as imageId and its file with id, name, title, mimeType and uploadDate', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const subcategoryId = await createSubcategoryOk(principal, category.id, {
      name: 'Pictured',
      image: PNG_1X1.toString('base64'),
    });
    // Act
    const response = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId }),
    );
    // Assess
    const { imageId, files, createDate } = response.body.data;
    expect(files).toEqual([
      {
        id: imageId,
        name: `${imageId}.png`,
        title: 'image.png',
        mimeType: 'image/png',
        uploadDate: expect.stringMatching(ISO_UTC),
      },
    ]);
    expect(files[0].uploadDate <= createDate).toBe(true);
  });

  it('lists the files oldest first, with the latest image as imageId', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const address = addressOf(principal, place);
    const first = await putSubcategoryForm(principal, address, [
      imagePart('first.png', 'image/png', PNG_1X1),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await putSubcategoryForm(principal, address, [
      imagePart('second.png', 'image/png', PNG_1X1),
    ]);
    // Act
    const response = await getSubcategory(principal, address);
    // Assess
    expect(response.body.data.imageId).toBe(second.body.data.imageId);
    expect(
      response.body.data.files.map((file: { id: string; title: string }) => [file.id, file.title]),
    ).toEqual([
      [first.body.data.imageId, 'first.png'],
      [second.body.data.imageId, 'second.png'],
    ]);
  });

  it('builds path from the current category name', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal, 'Old name');
    const subcategoryId = await createSubcategoryOk(principal, category.id, { name: 'Leaf' });
    await invoke(updateCategoryHandler, {
      method: 'PUT',
      path: `/v2/categories/${category.id}`,
      principal,
      pathParameters: { categoryId: category.id },
      body: { name: 'New name' },
    });
    // Act
    const response = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId }),
    );
    // Assess
    expect(response.body.data.path).toBe('New name/Leaf');
  });

  it('accepts the ids of the path in upper case', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await getSubcategory(principal, {
      companyId: principal.tenantId.toUpperCase(),
      categoryId: place.categoryId.toUpperCase(),
      subcategoryId: place.subcategoryId.toUpperCase(),
    });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.data.id).toBe(place.subcategoryId);
  });
});

describe('get subcategory: statistics', () => {
  it('counts the objects, shows the createdAt of the latest one and the objects per day', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const objects = await createObjectsInOrder(principal, [{ place }, { place }, { place }] as const);
    // Act
    const response = await getSubcategory(principal, addressOf(principal, place));
    // Assess
    // A subcategory younger than a day counts as one day old: the average is the object count.
    expect(response.body.data.statistics).toEqual({
      totalObjects: 3,
      lastObjectCreated: objects[2].createdAt,
      averageObjectsPerDay: 3,
    });
  });

  it('shows lastObjectCreated null and 0 per day before the first object, then the first object', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const address = addressOf(principal, place);
    const before = await getSubcategory(principal, address);
    const [object] = await createObjectsInOrder(principal, [{ place }] as const);
    // Act
    const after = await getSubcategory(principal, address);
    // Assess
    expect(before.body.data.statistics).toEqual({
      totalObjects: 0,
      lastObjectCreated: null,
      averageObjectsPerDay: 0,
    });
    expect(after.body.data.statistics).toEqual({
      totalObjects: 1,
      lastObjectCreated: object.createdAt,
      averageObjectsPerDay: 1,
    });
  });

  it("does not count another subcategory's objects", async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const siblingId = await createSubcategoryOk(principal, place.categoryId, { name: 'Sibling' });
    await createObjectsInOrder(principal, [
      { place: { categoryId: place.categoryId, subcategoryId: siblingId } },
    ] as const);
    // Act
    const response = await getSubcategory(principal, addressOf(principal, place));
    // Assess
    expect(response.body.data.statistics).toEqual({
      totalObjects: 0,
      lastObjectCreated: null,
      averageObjectsPerDay: 0,
    });
  });
});

describe('get subcategory: refusals', () => {
  it('responds 403 COMPANY_ACCESS_DENIED for a companyId other than the key’s company', async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const place = await givenSubcategoryPath(owner);
    // Act
    const foreignPath = await getSubcategory(intruder, addressOf(owner, place));
    const unknownCompany = await getSubcategory(owner, {
      ...addressOf(owner, place),
      companyId: randomUUID(),
    });
    // Assess
    for (const response of [foreignPath, unknownCompany]) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toEqual({
        error: 'The API key does not belong to this company',
        code: 'COMPANY_ACCESS_DENIED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    }
  });

  it("responds 404 SUBCATEGORY_NOT_FOUND for another company's subcategory under one's own company id", async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const place = await givenSubcategoryPath(owner);
    // Act
    const response = await getSubcategory(intruder, addressOf(intruder, place));
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('SUBCATEGORY_NOT_FOUND');
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND for an unknown subcategory', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const unknownId = randomUUID();
    // Act
    const response = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: unknownId }),
    );
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No subcategory ${unknownId} in this category`,
      code: 'SUBCATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND under another category of the same company, or an unknown one', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const otherCategory = await givenCategory(principal);
    // Act
    const wrongCategory = await getSubcategory(
      principal,
      addressOf(principal, { ...place, categoryId: otherCategory.id }),
    );
    const unknownCategory = await getSubcategory(
      principal,
      addressOf(principal, { ...place, categoryId: randomUUID() }),
    );
    // Assess
    expect(wrongCategory.statusCode).toBe(404);
    expect(wrongCategory.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect(unknownCategory.statusCode).toBe(404);
    expect(unknownCategory.body.code).toBe('SUBCATEGORY_NOT_FOUND');
  });

  it.each(['companyId', 'categoryId', 'subcategoryId'] as const)(
    'responds 400 VALIDATION_ERROR with details.%s when it is not a UUID',
    async (field) => {
      // Prepare
      const principal = companyPrincipal();
      const place = await givenSubcategoryPath(principal);
      // Act
      const response = await getSubcategory(principal, {
        ...addressOf(principal, place),
        [field]: 'not-a-uuid',
      });
      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toEqual({
        error: 'The request is not valid',
        code: 'VALIDATION_ERROR',
        timestamp: expect.stringMatching(ISO_UTC),
        details: { [field]: [`${field} must be a UUID`] },
      });
    },
  );

  it('responds 403 COMPANY_ACCESS_DENIED to a key without categories:read, and to an App key', async () => {
    // Prepare
    const owner = companyPrincipal();
    const place = await givenSubcategoryPath(owner);
    const writeOnly: Principal = {
      ...owner,
      permissions: new Set(['objects:read', 'categories:write'] as const),
    };
    const app: Principal = { ...owner, type: 'app', permissions: new Set(APP_PERMISSIONS) };
    // Act
    const withoutPermission = await getSubcategory(writeOnly, addressOf(owner, place));
    const appKey = await getSubcategory(app, addressOf(owner, place));
    // Assess
    expect(withoutPermission.statusCode).toBe(403);
    expect(withoutPermission.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect(appKey.statusCode).toBe(403);
    expect(appKey.body.code).toBe('COMPANY_ACCESS_DENIED');
  });
});
