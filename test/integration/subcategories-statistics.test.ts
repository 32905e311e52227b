/**
 * Statistics stay exact through subcategory create, DEACTIVATE and REMOVE (issue 4, point 4):
 * category `statistics` {subcategoryCount, objectCount}, the embedded subcategories'
 * `statistics.objectCount`, the company's object list totals, and the background removal.
 */
import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  findSubcategory,
  insertSubcategoryFileItem,
  listSubcategoryFiles,
  type SubcategoryFileRecord,
} from '../../lambdas/repositories/subcategory-repository';
import { readCounters, removingSubcategoriesOf } from '../../lambdas/repositories/tenant-counters';
import { observeAwsRequests } from '../../lambdas/shared/aws-requests';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenCategory, givenObject } from '../support/fixtures';
import {
  createObjectsInOrder,
  getObject,
  listObjects,
  type ObjectBody,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { fieldParts, putSubcategoryForm } from '../support/subcategory-multipart';
import {
  addressOf,
  createSubcategoryOk,
  getCategory,
  getSubcategory,
  listCategories,
} from '../support/subcategory-requests';

jest.setTimeout(120_000);

afterEach(async () => {
  jest.restoreAllMocks();
  await settleBackgroundJobs();
});

/** Everything a test reads to check the numbers: one category, the company list, each subcategory. */
async function snapshot(principal: Principal, categoryId: string) {
  const [category, listed, active, all, inactive] = await Promise.all([
    getCategory(principal, categoryId),
    listCategories(principal, { status: 'all', limit: '100' }),
    listObjects(principal, { limit: '100' }),
    listObjects(principal, { status: 'all', limit: '100' }),
    listObjects(principal, { status: 'inactive', limit: '100' }),
  ]);
  const listedCategory = listed.body.data.find((each: { id: string }) => each.id === categoryId);
  return {
    statistics: category.body.statistics,
    listedStatistics: listedCategory?.statistics,
    embedded: Object.fromEntries(
      category.body.subcategories.map((each: { id: string; status: string; statistics: unknown }) => [
        each.id,
        { status: each.status, statistics: each.statistics },
      ]),
    ),
    listedEmbedded: listedCategory?.subcategories,
    embeddedInGet: category.body.subcategories,
    activeTotal: active.body.pagination.total,
    activeIds: active.body.data.map((each: ObjectBody) => each.id).sort(),
    allTotal: all.body.pagination.total,
    allIds: all.body.data.map((each: ObjectBody) => each.id).sort(),
    inactiveTotal: inactive.body.pagination.total,
  };
}

const ids = (objects: readonly ObjectBody[]) => objects.map((each) => each.id).sort();

describe('subcategory statistics through create, DEACTIVATE and REMOVE', () => {
  it('keeps every count exact, and REMOVE leaves no readable object behind', async () => {
    // Prepare: one category, two subcategories, three objects (one of them stolen, so inactive)
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const otherCategory = await givenCategory(principal);
    const first = {
      categoryId: category.id,
      subcategoryId: await createSubcategoryOk(principal, category.id, { name: 'First' }),
    };
    const second = {
      categoryId: category.id,
      subcategoryId: await createSubcategoryOk(principal, category.id, { name: 'Second' }),
    };
    const elsewhere = {
      categoryId: otherCategory.id,
      subcategoryId: await createSubcategoryOk(principal, otherCategory.id, { name: 'Elsewhere' }),
    };
    const firstObjects = await createObjectsInOrder(principal, [{ place: first }, { place: first }] as const);
    const [secondObject] = await createObjectsInOrder(principal, [{ place: second }] as const);
    const [elsewhereObject] = await createObjectsInOrder(principal, [{ place: elsewhere }] as const);
    await updateObjectOk(principal, firstObjects[1].id, { action: 'report_stolen' });
    const everyObject = [...firstObjects, secondObject, elsewhereObject];

    // Act 1: after creation
    const created = await snapshot(principal, category.id);
    // Assess 1
    expect(created.statistics).toEqual({ subcategoryCount: 2, objectCount: 3 });
    expect(created.listedStatistics).toEqual(created.statistics);
    expect(created.embedded).toEqual({
      [first.subcategoryId]: { status: 'active', statistics: { objectCount: 2 } },
      [second.subcategoryId]: { status: 'active', statistics: { objectCount: 1 } },
    });
    expect(created.listedEmbedded).toEqual(created.embeddedInGet);
    expect(created.allTotal).toBe(4);
    expect(created.allIds).toEqual(ids(everyObject));
    expect(created.activeTotal).toBe(3);
    expect(created.inactiveTotal).toBe(1);

    // Act 2: DEACTIVATE the first subcategory
    const deactivation = await putSubcategoryForm(
      principal,
      addressOf(principal, first),
      fieldParts({ name: 'First', action: 'DEACTIVATE' }),
    );
    const deactivated = await snapshot(principal, category.id);
    const stillReadable = await getObject(principal, firstObjects[0].id);
    // Assess 2: nothing moves but the status
    expect(deactivation.statusCode).toBe(200);
    expect(deactivated.statistics).toEqual({ subcategoryCount: 2, objectCount: 3 });
    expect(deactivated.listedStatistics).toEqual(deactivated.statistics);
    expect(deactivated.embedded).toEqual({
      [first.subcategoryId]: { status: 'delisted', statistics: { objectCount: 2 } },
      [second.subcategoryId]: { status: 'active', statistics: { objectCount: 1 } },
    });
    expect([deactivated.activeTotal, deactivated.allTotal, deactivated.inactiveTotal]).toEqual([3, 4, 1]);
    expect(stillReadable.statusCode).toBe(200);

    // Act 3: REMOVE the first subcategory; read at once, then after the background removal
    const removal = await putSubcategoryForm(
      principal,
      addressOf(principal, first),
      fieldParts({ name: 'First', action: 'REMOVE' }),
    );
    const atOnce = await snapshot(principal, category.id);
    const objectsAtOnce = await Promise.all(firstObjects.map((object) => getObject(principal, object.id)));
    await settleBackgroundJobs();
    const settled = await snapshot(principal, category.id);
    const objectsSettled = await Promise.all(firstObjects.map((object) => getObject(principal, object.id)));
    const secondDetail = await getSubcategory(principal, addressOf(principal, second));
    const counters = await readCounters(principal.tenantId);
    // Assess 3: the counts drop by the removed subcategory's objects, at once and for good
    expect(removal.statusCode).toBe(200);
    for (const view of [atOnce, settled]) {
      expect(view.statistics).toEqual({ subcategoryCount: 1, objectCount: 1 });
      expect(view.listedStatistics).toEqual(view.statistics);
      expect(view.embedded).toEqual({
        [second.subcategoryId]: { status: 'active', statistics: { objectCount: 1 } },
      });
      expect(view.allIds).toEqual(ids([secondObject, elsewhereObject]));
      expect([view.activeTotal, view.allTotal, view.inactiveTotal]).toEqual([2, 2, 0]);
    }
    for (const response of [...objectsAtOnce, ...objectsSettled]) {
      expect(response.statusCode).toBe(404);
      expect(response.body.code).toBe('OBJECT_NOT_FOUND');
    }
    expect(secondDetail.body.data.statistics.totalObjects).toBe(1);
    expect(removingSubcategoriesOf(counters).size).toBe(0);
    const otherCategoryView = await getCategory(principal, otherCategory.id);
    expect(otherCategoryView.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 1 });
  });

  it('removes a subcategory of more objects than one removal round takes (100), leaving none behind', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const place = {
      categoryId: category.id,
      subcategoryId: await createSubcategoryOk(principal, category.id, { name: 'Big' }),
    };
    const kept = {
      categoryId: category.id,
      subcategoryId: await createSubcategoryOk(principal, category.id, { name: 'Kept' }),
    };
    for (let start = 0; start < 130; start += 10) {
      await Promise.all(Array.from({ length: 10 }, () => givenObject(principal, place)));
    }
    const keptObject = await givenObject(principal, kept);
    // Act
    await putSubcategoryForm(principal, addressOf(principal, place), fieldParts({ action: 'REMOVE' }));
    await settleBackgroundJobs();
    const view = await snapshot(principal, category.id);
    // Assess
    expect(view.statistics).toEqual({ subcategoryCount: 1, objectCount: 1 });
    expect(view.allIds).toEqual([keptObject.id]);
    expect([view.activeTotal, view.allTotal]).toEqual([1, 1]);
    expect(await findSubcategory(principal.tenantId, category.id, place.subcategoryId)).toBeUndefined();
  });
});

describe('subcategory REMOVE against concurrent writes and service limits', () => {
  it('counts an object created between the REMOVE read and its write out of the statistics', async () => {
    // Prepare: an object creation slips in right before the REMOVE transaction is sent.
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const place = {
      categoryId: category.id,
      subcategoryId: await createSubcategoryOk(principal, category.id, { name: 'Racy' }),
    };
    await givenObject(principal, place);
    const send = dynamoDb.send.bind(dynamoDb);
    let slippedIn: Promise<unknown> | undefined;
    jest.spyOn(dynamoDb, 'send').mockImplementation((async (command: unknown) => {
      if (
        slippedIn === undefined &&
        command instanceof TransactWriteCommand &&
        JSON.stringify(command.input).includes('"removed"')
      ) {
        slippedIn = givenObject(principal, place);
        await slippedIn;
      }
      return send(command as never);
    }) as never);
    // Act
    const removal = await putSubcategoryForm(
      principal,
      addressOf(principal, place),
      fieldParts({ action: 'REMOVE' }),
    );
    jest.restoreAllMocks();
    await settleBackgroundJobs();
    const view = await snapshot(principal, category.id);
    // Assess
    expect(removal.statusCode).toBe(200);
    await expect(slippedIn).resolves.toBeDefined();
    expect(view.allIds).toEqual([]);
    expect([view.activeTotal, view.allTotal]).toEqual([0, 0]);
    expect(view.statistics).toEqual({ subcategoryCount: 0, objectCount: 0 });
  });

  it('deletes the images of a subcategory of more than 1000 files in S3 calls of at most 1000 keys', async () => {
    // Prepare: 1001 image records (as 1001 CHANGE updates with a file would leave), written directly.
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const subcategoryId = await createSubcategoryOk(principal, category.id, { name: 'Gallery' });
    const files: SubcategoryFileRecord[] = Array.from({ length: 1001 }, (_, index) => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      subcategoryId,
      name: `${index}.png`,
      title: `${index}.png`,
      mimeType: 'image/png',
      size: 1,
      uploadDate: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, index)).toISOString(),
      storageKey: `companies/${principal.tenantId}/subcategories/${subcategoryId}/images/${index}`,
    }));
    const items = files.map(
      (file) => insertSubcategoryFileItem(principal.tenantId, category.id, file).Put?.Item,
    );
    for (let start = 0; start < items.length; start += 25) {
      await dynamoDb.send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName()]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
          },
        }),
      );
    }
    // S3 refuses a DeleteObjects of more than 1000 keys (MalformedXML); s3rver does not, so the
    // limit is checked on the requests sent.
    const deleteCallSizes: number[] = [];
    const stopObserving = observeAwsRequests((request) => {
      if (request.operation === 'DeleteObjects')
        deleteCallSizes.push(String(request.body).match(/<Object>/g)?.length ?? 0);
      return () => undefined;
    });
    const address = addressOf(principal, { categoryId: category.id, subcategoryId });
    // Act
    const removal = await putSubcategoryForm(principal, address, fieldParts({ action: 'REMOVE' }));
    await settleBackgroundJobs();
    stopObserving();
    const remainingFiles = await listSubcategoryFiles(principal.tenantId, category.id, subcategoryId);
    const record = await findSubcategory(principal.tenantId, category.id, subcategoryId);
    const counters = await readCounters(principal.tenantId);
    // Assess
    expect(removal.statusCode).toBe(200);
    expect(Math.max(...deleteCallSizes)).toBeLessThanOrEqual(1000);
    expect(deleteCallSizes.reduce((sum, size) => sum + size, 0)).toBe(1001);
    expect(remainingFiles).toEqual([]);
    expect(record).toBeUndefined();
    expect(removingSubcategoriesOf(counters).has(subcategoryId)).toBe(false);
  });
});
