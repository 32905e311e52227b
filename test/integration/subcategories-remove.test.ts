import { verifyLedger } from '../../lambdas/domain/ledger/ledger-audit';
import { handler as getCategory } from '../../lambdas/handlers/categories/get-category';
import { handler as getObject } from '../../lambdas/handlers/objects/get-object';
import { handler as listObjects } from '../../lambdas/handlers/objects/list-objects';
import { handler as getSubcategory } from '../../lambdas/handlers/subcategories/get-subcategory';
import { handler as updateSubcategory } from '../../lambdas/handlers/subcategories/update-subcategory';
import { invoke } from '../support/api-events';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenObject, givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';

const detailPath = (companyId: string, categoryId: string, subcategoryId: string) =>
  `/api/v2/object/${companyId}/category/${categoryId}/subcategory/${subcategoryId}`;

describe('REMOVE of a subcategory', () => {
  it('hides the subcategory and its objects at once, removes their data, and keeps the ledger valid', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const kept = await givenSubcategory(principal, place.categoryId);
    const removedObjects = [await givenObject(principal, place), await givenObject(principal, place)];
    const keptObject = await givenObject(principal, { categoryId: place.categoryId, subcategoryId: kept.id });
    const pathParameters = {
      companyId: principal.tenantId,
      categoryId: place.categoryId,
      subcategoryId: place.subcategoryId,
    };
    // Act
    const removal = await invoke(updateSubcategory, {
      method: 'PUT',
      path: detailPath(principal.tenantId, place.categoryId, place.subcategoryId),
      principal,
      pathParameters,
      body: { name: place.subcategoryName, action: 'REMOVE' },
    });
    const listedAtOnce = await invoke(listObjects, { method: 'GET', path: '/v2/objects', principal });
    const objectAtOnce = await invoke(getObject, {
      method: 'GET',
      path: `/v2/objects/${removedObjects[0].id}`,
      principal,
      pathParameters: { objectId: removedObjects[0].id },
    });
    await settleBackgroundJobs();
    const listedAfter = await invoke(listObjects, { method: 'GET', path: '/v2/objects', principal });
    const detail = await invoke(getSubcategory, {
      method: 'GET',
      path: detailPath(principal.tenantId, place.categoryId, place.subcategoryId),
      principal,
      pathParameters,
    });
    const category = await invoke(getCategory, {
      method: 'GET',
      path: `/v2/categories/${place.categoryId}`,
      principal,
      pathParameters: { categoryId: place.categoryId },
    });
    const audits = await Promise.all(removedObjects.map((object) => verifyLedger({ objectId: object.id })));
    // Assess
    expect(removal.statusCode).toBe(200);
    expect(removal.body.changes).toEqual({});
    expect(listedAtOnce.body.data.map((object: { id: string }) => object.id)).toEqual([keptObject.id]);
    expect(listedAtOnce.body.pagination.total).toBe(1);
    expect(objectAtOnce.statusCode).toBe(404);
    expect(listedAfter.body.pagination.total).toBe(1);
    expect(detail.statusCode).toBe(404);
    expect(detail.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect(category.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 1 });
    expect(category.body.subcategories.map((subcategory: { id: string }) => subcategory.id)).toEqual([
      kept.id,
    ]);
    for (const audit of audits)
      expect(audit).toMatchObject({ valid: true, chainsChecked: 1, eventsChecked: 1 });
  });
});
