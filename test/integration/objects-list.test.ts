/** List objects (spec 4.1): filters, sorts, pagination and validation, against DynamoDB Local. */
import type { Principal } from '../../lambdas/shared/principal';
import { givenCategory, givenSubcategory } from '../support/fixtures';
import {
  createObjectsInOrder,
  ISO_UTC,
  idsOf,
  listObjects,
  type ObjectBody,
  type ObjectPlace,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

/**
 * One company, two categories: A with subcategories A1 and A2, B with B1. Six objects, created
 * in this order; `tractor2` and `drone` are stolen; `anvil` was stolen and repaired.
 */
interface Catalogue {
  principal: Principal;
  categoryA: string;
  categoryB: string;
  placeA1: ObjectPlace;
  placeA2: ObjectPlace;
  placeB1: ObjectPlace;
  redTractor: ObjectBody;
  blueTractor: ObjectBody;
  harvester: ObjectBody;
  drone: ObjectBody;
  trailer: ObjectBody;
  anvil: ObjectBody;
}

async function givenCatalogue(): Promise<Catalogue> {
  const principal = companyPrincipal();
  const categoryA = (await givenCategory(principal)).id;
  const categoryB = (await givenCategory(principal)).id;
  const placeA1 = { categoryId: categoryA, subcategoryId: (await givenSubcategory(principal, categoryA)).id };
  const placeA2 = { categoryId: categoryA, subcategoryId: (await givenSubcategory(principal, categoryA)).id };
  const placeB1 = { categoryId: categoryB, subcategoryId: (await givenSubcategory(principal, categoryB)).id };
  const [redTractor, blueTractor, harvester, drone, trailer, anvil] = await createObjectsInOrder(principal, [
    { place: placeA1, body: { externalId: 'TR-001', name: 'Red Tractor', owner: 'Farm Alpha' } },
    { place: placeA1, body: { externalId: 'TR-002', name: 'blue tractor', owner: 'Farm Beta' } },
    { place: placeA2, body: { externalId: 'HV-001', name: 'Harvester', owner: 'alpha holdings' } },
    { place: placeB1, body: { externalId: 'DR-001', name: 'Drone', owner: 'Sky Co' } },
    { place: placeB1, body: { externalId: 'TT-001', name: 'Tractor Trailer' } },
    { place: placeA1, body: { externalId: 'AN-001', name: 'Anvil', owner: 'Smith' } },
  ]);
  const stolenBlueTractor = await updateObjectOk(principal, blueTractor.id, { action: 'report_stolen' });
  const stolenDrone = await updateObjectOk(principal, drone.id, { action: 'report_stolen' });
  await updateObjectOk(principal, anvil.id, { action: 'report_stolen' });
  const repairedAnvil = await updateObjectOk(principal, anvil.id, { action: 'repair' });
  return {
    principal,
    categoryA,
    categoryB,
    placeA1,
    placeA2,
    placeB1,
    redTractor,
    blueTractor: stolenBlueTractor,
    harvester,
    drone: stolenDrone,
    trailer,
    anvil: repairedAnvil,
  };
}

describe('list objects', () => {
  let catalogue: Catalogue;
  // Prepare (shared): the tests below only read it.
  beforeAll(async () => {
    catalogue = await givenCatalogue();
  });

  it('lists the active objects, newest first, 20 a page, by default', async () => {
    // Prepare
    const { principal, anvil, trailer, harvester, redTractor } = catalogue;
    // Act
    const response = await listObjects(principal);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      data: [anvil, trailer, harvester, redTractor],
      pagination: { limit: 20, offset: 0, total: 4, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });

  it('status=active gives the same response as the default', async () => {
    // Prepare
    const { principal } = catalogue;
    // Act
    const explicit = await listObjects(principal, { status: 'active', sort: 'createdAt:desc' });
    const implicit = await listObjects(principal);
    // Assess
    expect(explicit.body).toEqual(implicit.body);
  });

  it('status=inactive lists exactly the objects that are not active', async () => {
    // Prepare
    const { principal, drone, blueTractor } = catalogue;
    // Act
    const response = await listObjects(principal, { status: 'inactive' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toEqual([drone, blueTractor]);
    expect(response.body.data.map((object: ObjectBody) => object.status)).toEqual(['stolen', 'stolen']);
    expect(response.body.pagination.total).toBe(2);
  });

  it('status=all lists both, newest first', async () => {
    // Prepare
    const { principal, anvil, trailer, drone, harvester, blueTractor, redTractor } = catalogue;
    // Act
    const response = await listObjects(principal, { status: 'all' });
    // Assess
    expect(response.body.data).toEqual([anvil, trailer, drone, harvester, blueTractor, redTractor]);
    expect(response.body.pagination.total).toBe(6);
  });

  it.each([
    ['TRACTOR', 'active', ['trailer', 'redTractor']],
    ['tract', 'all', ['trailer', 'blueTractor', 'redTractor']],
    ['Blue Tractor', 'inactive', ['blueTractor']],
    ['r t', 'all', ['trailer']],
    ['zeppelin', 'all', []],
  ] as const)('name=%s (partial, case-insensitive) with status=%s', async (name, status, expected) => {
    // Prepare
    const { principal } = catalogue;
    // Act
    const response = await listObjects(principal, { name, status });
    // Assess
    expect(idsOf(response)).toEqual(expected.map((key) => catalogue[key].id));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('owner=alpha matches owners partially and case-insensitively', async () => {
    // Prepare
    const { principal, harvester, redTractor } = catalogue;
    // Act
    const response = await listObjects(principal, { owner: 'ALPHA' });
    // Assess
    expect(response.body.data).toEqual([harvester, redTractor]);
    expect(response.body.pagination.total).toBe(2);
  });

  it('externalId matches exactly: the whole id, in its case', async () => {
    // Prepare
    const { principal, redTractor } = catalogue;
    // Act
    const exact = await listObjects(principal, { externalId: 'TR-001' });
    const prefix = await listObjects(principal, { externalId: 'TR-00' });
    const otherCase = await listObjects(principal, { externalId: 'tr-001' });
    const longer = await listObjects(principal, { externalId: 'TR-0011' });
    // Assess
    expect(exact.body).toEqual({
      data: [redTractor],
      pagination: { limit: 20, offset: 0, total: 1, hasNext: false, hasPrevious: false, nextCursor: null },
    });
    for (const miss of [prefix, otherCase, longer]) {
      expect(miss.statusCode).toBe(200);
      expect(miss.body).toEqual({
        data: [],
        pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
      });
    }
  });

  it('externalId combines with the status and place filters', async () => {
    // Prepare
    const { principal, blueTractor, categoryA, categoryB } = catalogue;
    // Act
    const activeOnly = await listObjects(principal, { externalId: 'TR-002' });
    const all = await listObjects(principal, { externalId: 'TR-002', status: 'all' });
    const rightCategory = await listObjects(principal, {
      externalId: 'TR-002',
      status: 'all',
      categoryId: categoryA,
    });
    const wrongCategory = await listObjects(principal, {
      externalId: 'TR-002',
      status: 'all',
      categoryId: categoryB,
    });
    const wrongName = await listObjects(principal, { externalId: 'TR-002', status: 'all', name: 'red' });
    // Assess
    expect(activeOnly.body.data).toEqual([]);
    expect(activeOnly.body.pagination.total).toBe(0);
    expect(all.body.data).toEqual([blueTractor]);
    expect(rightCategory.body.data).toEqual([blueTractor]);
    expect(wrongCategory.body.pagination.total).toBe(0);
    expect(wrongName.body.pagination.total).toBe(0);
  });

  it('categoryId lists the objects of every subcategory of that category only', async () => {
    // Prepare
    const { principal, categoryA, categoryB, anvil, harvester, blueTractor, redTractor, trailer, drone } =
      catalogue;
    // Act
    const activeA = await listObjects(principal, { categoryId: categoryA });
    const allA = await listObjects(principal, { categoryId: categoryA, status: 'all' });
    const allB = await listObjects(principal, { categoryId: categoryB, status: 'all' });
    // Assess
    expect(activeA.body.data).toEqual([anvil, harvester, redTractor]);
    expect(activeA.body.pagination.total).toBe(3);
    expect(allA.body.data).toEqual([anvil, harvester, blueTractor, redTractor]);
    expect(allA.body.pagination.total).toBe(4);
    expect(allB.body.data).toEqual([trailer, drone]);
    expect(allB.body.pagination.total).toBe(2);
  });

  it('subcategoryId lists the objects of that subcategory only', async () => {
    // Prepare
    const { principal, placeA1, placeA2, anvil, redTractor, harvester } = catalogue;
    // Act
    const a1 = await listObjects(principal, { subcategoryId: placeA1.subcategoryId });
    const a2 = await listObjects(principal, { subcategoryId: placeA2.subcategoryId });
    // Assess
    expect(a1.body.data).toEqual([anvil, redTractor]);
    expect(a1.body.pagination.total).toBe(2);
    expect(a2.body.data).toEqual([harvester]);
    expect(a2.body.pagination.total).toBe(1);
  });

  it('combines subcategoryId with status=inactive', async () => {
    // Prepare
    const { principal, placeA1, placeA2, placeB1, blueTractor, drone } = catalogue;
    // Act
    const a1 = await listObjects(principal, { subcategoryId: placeA1.subcategoryId, status: 'inactive' });
    const a2 = await listObjects(principal, { subcategoryId: placeA2.subcategoryId, status: 'inactive' });
    const b1 = await listObjects(principal, { subcategoryId: placeB1.subcategoryId, status: 'inactive' });
    // Assess
    expect(a1.body.data).toEqual([blueTractor]);
    expect(a1.body.pagination.total).toBe(1);
    expect(a2.body.data).toEqual([]);
    expect(a2.body.pagination.total).toBe(0);
    expect(b1.body.data).toEqual([drone]);
  });

  it('combines categoryId with name', async () => {
    // Prepare
    const { principal, categoryA, categoryB, redTractor, blueTractor, trailer } = catalogue;
    // Act
    const activeA = await listObjects(principal, { categoryId: categoryA, name: 'tractor' });
    const allA = await listObjects(principal, { categoryId: categoryA, name: 'tractor', status: 'all' });
    const activeB = await listObjects(principal, { categoryId: categoryB, name: 'tractor' });
    // Assess
    expect(activeA.body.data).toEqual([redTractor]);
    expect(activeA.body.pagination.total).toBe(1);
    expect(allA.body.data).toEqual([blueTractor, redTractor]);
    expect(allA.body.pagination.total).toBe(2);
    expect(activeB.body.data).toEqual([trailer]);
  });

  it('combines a subcategoryId with the categoryId of another category into an empty list', async () => {
    // Prepare
    const { principal, placeA1, categoryB } = catalogue;
    // Act
    const response = await listObjects(principal, {
      subcategoryId: placeA1.subcategoryId,
      categoryId: categoryB,
      status: 'all',
    });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });

  it('combines categoryId, owner and status=all', async () => {
    // Prepare
    const { principal, categoryA, harvester, redTractor } = catalogue;
    // Act
    const response = await listObjects(principal, { categoryId: categoryA, owner: 'alpha', status: 'all' });
    // Assess
    expect(response.body.data).toEqual([harvester, redTractor]);
    expect(response.body.pagination.total).toBe(2);
  });

  it.each([
    ['createdAt:desc', ['anvil', 'trailer', 'drone', 'harvester', 'blueTractor', 'redTractor']],
    ['createdAt:asc', ['redTractor', 'blueTractor', 'harvester', 'drone', 'trailer', 'anvil']],
    ['name:asc', ['anvil', 'blueTractor', 'drone', 'harvester', 'redTractor', 'trailer']],
    ['name:desc', ['trailer', 'redTractor', 'harvester', 'drone', 'blueTractor', 'anvil']],
  ] as const)('sort=%s gives the exact order (names ignore case)', async (sort, expected) => {
    // Prepare
    const { principal } = catalogue;
    // Act
    const response = await listObjects(principal, { sort, status: 'all' });
    // Assess
    expect(idsOf(response)).toEqual(expected.map((key) => catalogue[key].id));
    expect(response.body.pagination.total).toBe(6);
  });

  it.each([
    ['createdAt:desc', ['anvil', 'harvester', 'blueTractor', 'redTractor']],
    ['createdAt:asc', ['redTractor', 'blueTractor', 'harvester', 'anvil']],
    ['name:asc', ['anvil', 'blueTractor', 'harvester', 'redTractor']],
    ['name:desc', ['redTractor', 'harvester', 'blueTractor', 'anvil']],
  ] as const)('sort=%s also orders a list filtered by categoryId', async (sort, expected) => {
    // Prepare
    const { principal, categoryA } = catalogue;
    // Act
    const response = await listObjects(principal, { sort, status: 'all', categoryId: categoryA });
    // Assess
    expect(idsOf(response)).toEqual(expected.map((key) => catalogue[key].id));
    expect(response.body.pagination.total).toBe(4);
  });

  it('sort=name:asc pages through the active objects with the exact total', async () => {
    // Prepare
    const { principal, anvil, harvester, redTractor, trailer } = catalogue;
    // Act
    const first = await listObjects(principal, { sort: 'name:asc', limit: '2' });
    const second = await listObjects(principal, { sort: 'name:asc', limit: '2', offset: '2' });
    // Assess
    expect(first.body).toEqual({
      data: [anvil, harvester],
      pagination: {
        limit: 2,
        offset: 0,
        total: 4,
        hasNext: true,
        hasPrevious: false,
        nextCursor: expect.any(String),
      },
    });
    expect(second.body).toEqual({
      data: [redTractor, trailer],
      pagination: { limit: 2, offset: 2, total: 4, hasNext: false, hasPrevious: true, nextCursor: null },
    });
  });

  it('sort=name:desc combines with a name filter and pages', async () => {
    // Prepare
    const { principal, trailer, redTractor, blueTractor } = catalogue;
    // Act
    const first = await listObjects(principal, {
      sort: 'name:desc',
      name: 'tractor',
      status: 'all',
      limit: '2',
    });
    const second = await listObjects(principal, {
      sort: 'name:desc',
      name: 'tractor',
      status: 'all',
      limit: '2',
      offset: '2',
    });
    // Assess
    expect(first.body.data).toEqual([trailer, redTractor]);
    expect(first.body.pagination).toEqual({
      limit: 2,
      offset: 0,
      total: 3,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(second.body.data).toEqual([blueTractor]);
    expect(second.body.pagination).toEqual({
      limit: 2,
      offset: 2,
      total: 3,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('a company never sees the objects of another company, whatever the filters', async () => {
    // Prepare
    const { categoryA, placeA1 } = catalogue;
    const other = companyPrincipal();
    // Act
    const responses = [
      await listObjects(other, { status: 'all' }),
      await listObjects(other, { status: 'all', categoryId: categoryA }),
      await listObjects(other, { status: 'all', subcategoryId: placeA1.subcategoryId }),
      await listObjects(other, { status: 'all', externalId: 'TR-001' }),
      await listObjects(other, { status: 'all', name: 'tractor' }),
      await listObjects(other, { status: 'all', sort: 'name:asc' }),
    ];
    // Assess
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toEqual({
        data: [],
        pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
      });
    }
  });
});

describe('list objects: pagination', () => {
  it('pages 7 objects 3 at a time with the exact total, hasNext and hasPrevious', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const place = {
      categoryId: category.id,
      subcategoryId: (await givenSubcategory(principal, category.id)).id,
    };
    const created = await createObjectsInOrder(
      principal,
      Array.from({ length: 7 }, (_, index) => ({ place, body: { name: `Object ${index + 1}` } })),
    );
    const newestFirst = [...created].reverse();
    // Act
    const pages = [
      await listObjects(principal, { limit: '3' }),
      await listObjects(principal, { limit: '3', offset: '3' }),
      await listObjects(principal, { limit: '3', offset: '6' }),
    ];
    const beyond = await listObjects(principal, { limit: '3', offset: '10' });
    const lastExactly = await listObjects(principal, { limit: '7' });
    const straddling = await listObjects(principal, { limit: '3', offset: '5', sort: 'createdAt:asc' });
    // Assess
    expect(pages.map((page) => page.body)).toEqual([
      {
        data: newestFirst.slice(0, 3),
        pagination: {
          limit: 3,
          offset: 0,
          total: 7,
          hasNext: true,
          hasPrevious: false,
          nextCursor: expect.any(String),
        },
      },
      {
        data: newestFirst.slice(3, 6),
        pagination: {
          limit: 3,
          offset: 3,
          total: 7,
          hasNext: true,
          hasPrevious: true,
          nextCursor: expect.any(String),
        },
      },
      {
        data: newestFirst.slice(6),
        pagination: { limit: 3, offset: 6, total: 7, hasNext: false, hasPrevious: true, nextCursor: null },
      },
    ]);
    expect(beyond.statusCode).toBe(200);
    expect(beyond.body).toEqual({
      data: [],
      pagination: { limit: 3, offset: 10, total: 7, hasNext: false, hasPrevious: true, nextCursor: null },
    });
    expect(lastExactly.body.data).toEqual(newestFirst);
    expect(lastExactly.body.pagination).toEqual({
      limit: 7,
      offset: 0,
      total: 7,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
    expect(straddling.body.data).toEqual(created.slice(5));
    expect(straddling.body.pagination).toEqual({
      limit: 3,
      offset: 5,
      total: 7,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('pages a filtered list with the exact number of matches as total', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const place = {
      categoryId: category.id,
      subcategoryId: (await givenSubcategory(principal, category.id)).id,
    };
    const created = await createObjectsInOrder(
      principal,
      Array.from({ length: 7 }, (_, index) => ({
        place,
        body: { name: index % 2 === 0 ? `Even ${index}` : `Odd ${index}` },
      })),
    );
    const evensNewestFirst = created.filter((_, index) => index % 2 === 0).reverse();
    // Act
    const first = await listObjects(principal, { name: 'even', limit: '3' });
    const second = await listObjects(principal, { name: 'even', limit: '3', offset: '3' });
    // Assess
    expect(first.body.data).toEqual(evensNewestFirst.slice(0, 3));
    expect(first.body.pagination).toEqual({
      limit: 3,
      offset: 0,
      total: 4,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(second.body.data).toEqual(evensNewestFirst.slice(3));
    expect(second.body.pagination).toEqual({
      limit: 3,
      offset: 3,
      total: 4,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('an empty company returns an empty first page', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await listObjects(principal);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });
});

describe('list objects: name sort of characters outside the Basic Multilingual Plane', () => {
  it('orders by name the same way with and without a categoryId filter', async () => {
    // Prepare: U+FF5E sorts before U+1F600 by code point (and in UTF-8, as DynamoDB compares),
    // but after it in UTF-16 code units (0xFF5E > 0xD83D), as a plain JavaScript `<` compares.
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const place = {
      categoryId: category.id,
      subcategoryId: (await givenSubcategory(principal, category.id)).id,
    };
    const [smile, wave] = await createObjectsInOrder(principal, [
      { place, body: { name: '😀 smile' } },
      { place, body: { name: '～ wave' } },
    ]);
    // Act
    const unfiltered = await listObjects(principal, { sort: 'name:asc' });
    const byCategory = await listObjects(principal, { sort: 'name:asc', categoryId: category.id });
    const bySubcategory = await listObjects(principal, {
      sort: 'name:asc',
      subcategoryId: place.subcategoryId,
    });
    // Assess
    expect(idsOf(unfiltered)).toEqual([wave.id, smile.id]);
    expect(idsOf(byCategory)).toEqual([wave.id, smile.id]);
    expect(idsOf(bySubcategory)).toEqual([wave.id, smile.id]);
  });
});

/** Query parameters the list refuses, each with the field code it reports. */
const invalidQueries: [name: string, value: string, code: string][] = [
  ['limit', '0', 'RANGE_INVALID'],
  ['limit', '101', 'RANGE_INVALID'],
  ['limit', 'abc', 'TYPE_INVALID'],
  ['limit', '1.5', 'TYPE_INVALID'],
  ['limit', '', 'TYPE_INVALID'],
  ['offset', '-1', 'RANGE_INVALID'],
  ['offset', 'x', 'TYPE_INVALID'],
  ['sort', 'name', 'ENUM_INVALID'],
  ['sort', 'createdAt', 'ENUM_INVALID'],
  ['sort', 'updatedAt:desc', 'ENUM_INVALID'],
  ['sort', 'NAME:ASC', 'ENUM_INVALID'],
  ['status', 'deleted', 'ENUM_INVALID'],
  ['status', 'stolen', 'ENUM_INVALID'],
  ['status', 'ACTIVE', 'ENUM_INVALID'],
  ['categoryId', 'x', 'FORMAT_INVALID'],
  ['subcategoryId', 'not-a-uuid', 'FORMAT_INVALID'],
  ['externalId', '', 'LENGTH_INVALID'],
  ['externalId', 'e'.repeat(101), 'LENGTH_INVALID'],
  ['name', 'n'.repeat(201), 'LENGTH_INVALID'],
  ['owner', 'o'.repeat(101), 'LENGTH_INVALID'],
];

describe('list objects: query validation', () => {
  it.each(
    invalidQueries.map(([name, value, code]) => [
      name,
      value.length > 20 ? `${value.length} characters` : JSON.stringify(value),
      value,
      code,
    ]),
  )('responds 400 VALIDATION_ERROR for %s=%s', async (name, _, value, code) => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await listObjects(principal, { [name]: value });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [{ field: name, code, message: expect.any(String) }],
    });
  });

  it('reports every invalid query parameter in one response', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await listObjects(principal, {
      limit: '0',
      offset: '-1',
      sort: 'name',
      status: 'deleted',
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors.map((issue: { field: string }) => issue.field).sort()).toEqual([
      'limit',
      'offset',
      'sort',
      'status',
    ]);
  });

  it.each([
    ['limit', '1'],
    ['limit', '100'],
    ['offset', '0'],
  ])('accepts the bound %s=%s', async (name, value) => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await listObjects(principal, { [name]: value });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.pagination[name]).toBe(Number(value));
  });
});
