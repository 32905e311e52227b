/**
 * Cursor pagination (extension): every list returns `pagination.nextCursor`, `?cursor=` reads
 * the next page, and a cursor that was altered, forged or made for another list, filter, sort
 * or tenant is 400 VALIDATION_ERROR. Against DynamoDB Local.
 */
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { createCategoriesInOrder, listCategories } from '../support/category-requests';
import { listFiles, uploadSampleOk } from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenCategory, givenSubcategory } from '../support/fixtures';
import {
  createObjectOk,
  createObjectsInOrder,
  idsOf,
  listObjectEvents,
  listObjects,
  listSubcategoryObjects,
  type ObjectPlace,
  updateObjectOk,
} from '../support/object-requests';
import { appPrincipal, companyPrincipal } from '../support/principals';

interface ListResponse {
  statusCode: number;
  body: {
    data: { id: string }[];
    pagination: { offset: number; total: number; hasNext: boolean; nextCursor: string | null };
  };
}
type ListCall = (query: Record<string, string>) => Promise<ListResponse>;

/** Follows nextCursor from page 1 to the end; returns every page. */
async function walkByCursor(list: ListCall, query: Record<string, string>): Promise<ListResponse[]> {
  const first = await list(query);
  const pages = [first];
  for (let cursor = first.body.pagination.nextCursor; cursor !== null; ) {
    const page = await list({ ...query, cursor });
    expect(page.statusCode).toBe(200);
    pages.push(page);
    cursor = page.body.pagination.nextCursor;
    if (pages.length > 50) throw new Error('the walk does not end');
  }
  return pages;
}

/** Reads every page by offset, the spec's way. */
async function walkByOffset(list: ListCall, query: Record<string, string>, limit: number) {
  const first = await list({ ...query, limit: String(limit) });
  const pages = [first];
  for (let offset = limit; offset < first.body.pagination.total; offset += limit) {
    pages.push(await list({ ...query, limit: String(limit), offset: String(offset) }));
  }
  return pages;
}

const allIds = (pages: ListResponse[]) => pages.flatMap(idsOf);

function expectRefusedCursor(response: { statusCode: number; body: unknown }) {
  expect(response.statusCode).toBe(400);
  expect(response.body).toMatchObject({
    code: 'VALIDATION_ERROR',
    validationErrors: [expect.objectContaining({ field: 'cursor', code: 'FORMAT_INVALID' })],
  });
}

/** Flips one character of the signed part (or of the position) of a cursor. */
function altered(cursor: string, part: 0 | 1): string {
  const pieces = cursor.split('.');
  const text = pieces[part] ?? '';
  const index = Math.floor(text.length / 2);
  pieces[part] = `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
  return pieces.join('.');
}

describe('cursor pagination of the object list', () => {
  const principal = companyPrincipal();
  let place: ObjectPlace;
  let otherPlace: ObjectPlace;
  let createdIds: string[] = [];

  beforeAll(async () => {
    const categoryId = (await givenCategory(principal)).id;
    place = { categoryId, subcategoryId: (await givenSubcategory(principal, categoryId)).id };
    otherPlace = { categoryId, subcategoryId: (await givenSubcategory(principal, categoryId)).id };
    const names = ['Kilo', 'alpha', 'Hotel', 'echo', 'Bravo', 'golf', 'Delta'];
    const created = await createObjectsInOrder(
      principal,
      names.map((name, index) => ({ place: index % 2 === 0 ? place : otherPlace, body: { name } })),
    );
    createdIds = created.map((object) => object.id);
  });

  it('walks the whole list by cursor, with the same pages as by offset and nextCursor null at the end', async () => {
    // Act
    const byCursor = await walkByCursor((query) => listObjects(principal, query), { limit: '3' });
    const byOffset = await walkByOffset((query) => listObjects(principal, query), {}, 3);
    // Assess
    expect(byCursor.map((page) => page.body.data)).toEqual(byOffset.map((page) => page.body.data));
    expect(allIds(byCursor)).toEqual([...createdIds].reverse());
    expect(byCursor.map((page) => page.body.pagination)).toEqual([
      expect.objectContaining({ offset: 0, total: 7, hasNext: true, hasPrevious: false }),
      expect.objectContaining({ offset: 3, total: 7, hasNext: true, hasPrevious: true }),
      expect.objectContaining({ offset: 6, total: 7, hasNext: false, hasPrevious: true, nextCursor: null }),
    ]);
    expect(byOffset[0]?.body.pagination.nextCursor).toEqual(expect.any(String));
  });

  it.each([
    ['name sort', { sort: 'name:asc' }],
    ['name filter', { name: 'o', status: 'all' }],
    ['subcategory filter sorted by name in memory', { subcategoryId: '<place>', sort: 'name:desc' }],
    ['oldest first', { sort: 'createdAt:asc' }],
  ])('walks a list with a %s by cursor like by offset', async (_, given) => {
    // Prepare
    const query = Object.fromEntries(
      Object.entries(given).map(([name, value]) => [name, value === '<place>' ? place.subcategoryId : value]),
    );
    // Act
    const byCursor = await walkByCursor((q) => listObjects(principal, q), { ...query, limit: '2' });
    const byOffset = await walkByOffset((q) => listObjects(principal, q), query, 2);
    // Assess
    expect(allIds(byCursor)).toEqual(allIds(byOffset));
    expect(byCursor.at(-1)?.body.pagination.nextCursor).toBeNull();
    expect(byCursor.map((page) => page.body.pagination.total)).toEqual(
      byOffset.map((page) => page.body.pagination.total),
    );
  });

  it('keeps its place when a new object arrives during the walk (an offset walk would repeat one)', async () => {
    // Prepare
    const owner = companyPrincipal();
    const categoryId = (await givenCategory(owner)).id;
    const ownPlace = { categoryId, subcategoryId: (await givenSubcategory(owner, categoryId)).id };
    const older = await createObjectsInOrder(owner, [
      { place: ownPlace },
      { place: ownPlace },
      { place: ownPlace },
    ]);
    const first = await listObjects(owner, { limit: '2' });
    await createObjectOk(owner, ownPlace);
    // Act
    const second = await listObjects(owner, {
      limit: '2',
      cursor: first.body.pagination.nextCursor as string,
    });
    // Assess
    expect(idsOf(first)).toEqual([older[2].id, older[1].id]);
    expect(idsOf(second)).toEqual([older[0].id]);
  });

  it('refuses a cursor that was altered, forged or truncated', async () => {
    // Prepare
    const cursor = (await listObjects(principal, { limit: '2' })).body.pagination.nextCursor as string;
    const forgedPosition = Buffer.from(JSON.stringify({ o: 4 })).toString('base64url');
    // Act
    const responses = await Promise.all(
      [
        altered(cursor, 0),
        altered(cursor, 1),
        `${forgedPosition}.${cursor.split('.')[1]}`,
        cursor.slice(0, -3),
        'not-a-cursor',
        `${cursor}.x`,
      ].map((bad) => listObjects(principal, { limit: '2', cursor: bad })),
    );
    // Assess
    for (const response of responses) expectRefusedCursor(response);
  });

  it('refuses a cursor with other filters, another sort, another tenant or another list', async () => {
    // Prepare
    const cursor = (await listObjects(principal, { limit: '2' })).body.pagination.nextCursor as string;
    const stranger = companyPrincipal();
    // Act
    const responses = await Promise.all([
      listObjects(principal, { limit: '2', cursor, status: 'all' }),
      listObjects(principal, { limit: '2', cursor, sort: 'createdAt:asc' }),
      listObjects(principal, { limit: '2', cursor, name: 'a' }),
      listObjects(stranger, { limit: '2', cursor }),
      listSubcategoryObjects(principal, place, { limit: '2', cursor }),
      listCategories(principal, { limit: '2', cursor }),
    ]);
    // Assess
    for (const response of responses) expectRefusedCursor(response);
  });

  it('takes another page size with the same cursor', async () => {
    // Prepare
    const cursor = (await listObjects(principal, { limit: '2' })).body.pagination.nextCursor as string;
    // Act
    const next = await listObjects(principal, { limit: '4', cursor });
    // Assess
    expect(idsOf(next)).toEqual([...createdIds].reverse().slice(2, 6));
    expect(next.body.pagination).toMatchObject({ limit: 4, offset: 2, total: 7, hasNext: true });
  });

  it('refuses a cursor together with an offset', async () => {
    // Prepare
    const cursor = (await listObjects(principal, { limit: '2' })).body.pagination.nextCursor as string;
    // Act
    const response = await listObjects(principal, { limit: '2', cursor, offset: '2' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      validationErrors: [expect.objectContaining({ field: 'offset' })],
    });
  });

  it('walks a subcategory’s objects and an object’s events by cursor', async () => {
    // Prepare
    const [objectId = '', secondId = ''] = createdIds;
    for (const description of ['one', 'two', 'three', 'four']) {
      await updateObjectOk(principal, objectId, { action: 'update', description });
    }
    // Act
    const objects = await walkByCursor((q) => listSubcategoryObjects(principal, place, q), { limit: '3' });
    const events = await walkByCursor((q) => listObjectEvents(principal, objectId, q), { limit: '2' });
    const foreignEvents = await listObjectEvents(principal, secondId, {
      limit: '2',
      cursor: events[0]?.body.pagination.nextCursor as string,
    });
    // Assess
    expect(allIds(objects)).toEqual([createdIds[6], createdIds[4], createdIds[2], createdIds[0]]);
    const sequences = events.flatMap((page) =>
      page.body.data.map((event) => (event as { sequence?: number }).sequence),
    );
    expect(sequences).toEqual([1, 2, 3, 4, 5]);
    expectRefusedCursor(foreignEvents);
  });
});

describe('cursor pagination of categories, wallets and files', () => {
  it('walks the categories by cursor', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createCategoriesInOrder(principal, ['Cars', 'boats', 'Planes', 'trains', 'Bikes']);
    // Act
    const byCursor = await walkByCursor((q) => listCategories(principal, q) as Promise<ListResponse>, {
      limit: '2',
      sort: 'name:asc',
    });
    // Assess
    expect(
      byCursor.flatMap((page) => page.body.data.map((category) => (category as { name?: string }).name)),
    ).toEqual(['Bikes', 'boats', 'Cars', 'Planes', 'trains']);
    expect(byCursor).toHaveLength(3);
    expect(created).toHaveLength(5);
  });

  it('walks an App’s wallets by cursor; a wallet’s own cursor does not read its App’s list', async () => {
    // Prepare
    const app: Principal = appPrincipal();
    for (const username of ['anna', 'bert', 'carl', 'dora', 'emil']) {
      const created = await invoke(createWalletHandler, {
        method: 'POST',
        path: '/v2/wallets',
        principal: app,
        body: { username, password: `password of ${username}` },
      });
      expect(created.statusCode).toBe(201);
    }
    const list: ListCall = (query) =>
      invoke(listWalletsHandler, { method: 'GET', path: '/v2/wallets', principal: app, query });
    // Act
    const byCursor = await walkByCursor(list, { limit: '2', sort: 'username:desc' });
    const otherApp = await invoke(listWalletsHandler, {
      method: 'GET',
      path: '/v2/wallets',
      principal: appPrincipal(),
      query: { limit: '2', sort: 'username:desc', cursor: byCursor[0]?.body.pagination.nextCursor as string },
    });
    // Assess
    expect(
      byCursor.flatMap((page) => page.body.data.map((wallet) => (wallet as { username?: string }).username)),
    ).toEqual(['emil', 'dora', 'carl', 'bert', 'anna']);
    expectRefusedCursor(otherApp);
  });

  it('walks an object’s files by cursor, by id or by externalId alike', async () => {
    // Prepare
    const principal = companyPrincipal();
    const categoryId = (await givenCategory(principal)).id;
    const place = { categoryId, subcategoryId: (await givenSubcategory(principal, categoryId)).id };
    const object = await createObjectOk(principal, place);
    const uploaded = [];
    for (const name of ['photo.png', 'manual.pdf', 'notes.txt']) {
      uploaded.push(await uploadSampleOk(principal, object.id, sample(name)));
    }
    // Act
    const byId = await walkByCursor(
      (q) => listFiles(principal, object.id, { query: q }) as Promise<ListResponse>,
      {
        limit: '2',
      },
    );
    const byExternalId = await listFiles(principal, object.externalId, {
      query: { limit: '2', cursor: byId[0]?.body.pagination.nextCursor as string },
    });
    // Assess
    expect(allIds(byId)).toEqual(uploaded.map((file) => file.id).reverse());
    expect(idsOf(byExternalId as ListResponse)).toEqual([uploaded[0]?.id]);
  });
});
