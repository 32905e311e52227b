/** The subcategory views (spec 2.4: the shape inside categories, and the detail) and their request schemas. */
import {
  createSubcategoryBody,
  updateSubcategoryFields,
} from '../../lambdas/domain/subcategories/subcategory-schemas';
import {
  averageObjectsPerDay,
  toSubcategoryDetail,
  toSubcategorySummary,
} from '../../lambdas/domain/subcategories/subcategory-view';
import type { SubcategoryRecord } from '../../lambdas/repositories/subcategory-repository';
import { ValidationError } from '../../lambdas/shared/errors';

const DAY_MS = 86_400_000;

const record: SubcategoryRecord = {
  id: '6f1c1f8e-8a2b-4c3d-9e4f-0a1b2c3d4e5f',
  companyId: '11111111-2222-4333-8444-555555555555',
  categoryId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  name: 'Trucks',
  description: 'Heavy vehicles',
  status: 'delisted',
  imageId: '99999999-8888-4777-8666-555555555555',
  metadata: { colour: 'red' },
  createdAt: '2024-03-01T10:00:00.000Z',
  updatedAt: '2024-03-05T10:00:00.000Z',
  version: 4,
  objectCount: 7,
  activeObjectCount: 5,
  lastObjectCreated: '2024-03-04T09:30:00.000Z',
  eventCount: 4,
  lastTxId: 'f'.repeat(64),
};

describe('averageObjectsPerDay', () => {
  const createdAt = '2024-01-01T00:00:00.000Z';
  const at = (days: number) => Date.parse(createdAt) + days * DAY_MS;

  it.each([
    ['no objects', 0, 10, 0],
    ['30 objects over 10 days', 30, 10, 3],
    ['1 object over 3 days, rounded to two decimals', 1, 3, 0.33],
    ['2 objects over 3 days, rounded half up', 2, 3, 0.67],
    ['5 objects in the first hour: counted as one day', 5, 1 / 24, 5],
    ['5 objects at exactly one day', 5, 1, 5],
    ['3 objects over a day and a half', 3, 1.5, 2],
  ])('%s', (_, objectCount, days, expected) => {
    expect(averageObjectsPerDay(objectCount, createdAt, at(days))).toBe(expected);
  });

  it('never divides by less than one day, even for a creation time in the future (clock skew)', () => {
    expect(averageObjectsPerDay(4, createdAt, at(-1))).toBe(4);
  });
});

describe('toSubcategorySummary (2.4, shape in category responses)', () => {
  it('has exactly id, name, description, status, categoryId, metadata, createdAt, updatedAt, statistics.objectCount', () => {
    expect(toSubcategorySummary(record)).toEqual({
      id: record.id,
      name: 'Trucks',
      description: 'Heavy vehicles',
      status: 'delisted',
      categoryId: record.categoryId,
      metadata: { colour: 'red' },
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-03-05T10:00:00.000Z',
      statistics: { objectCount: 7 },
    });
  });
});

describe('toSubcategoryDetail (2.4, detail shape)', () => {
  it('has exactly the detail fields, with path "Category/Subcategory" and createDate', () => {
    // Prepare
    const files = [
      {
        id: record.imageId as string,
        subcategoryId: record.id,
        name: `${record.imageId}.png`,
        title: 'truck.png',
        mimeType: 'image/png',
        size: 67,
        uploadDate: '2024-03-02T00:00:00.000Z',
        storageKey: 'companies/x/subcategories/y/images/z',
      },
    ];
    // Act
    const detail = toSubcategoryDetail(record, 'Vehicles', files);
    // Assess
    expect(detail).toEqual({
      id: record.id,
      name: 'Trucks',
      status: 'delisted',
      path: 'Vehicles/Trucks',
      description: 'Heavy vehicles',
      imageId: record.imageId,
      createDate: '2024-03-01T10:00:00.000Z',
      categoryId: record.categoryId,
      files: [
        {
          id: record.imageId,
          name: `${record.imageId}.png`,
          title: 'truck.png',
          mimeType: 'image/png',
          uploadDate: '2024-03-02T00:00:00.000Z',
        },
      ],
      statistics: {
        totalObjects: 7,
        lastObjectCreated: '2024-03-04T09:30:00.000Z',
        averageObjectsPerDay: expect.any(Number),
      },
    });
  });
});

describe('subcategory request schemas', () => {
  const issuesOf = (parse: () => unknown) => {
    try {
      parse();
    } catch (error) {
      return (error as ValidationError).issues;
    }
    return [];
  };

  it('create: name required, 2-100 characters; description at most 2048; image a string', () => {
    expect(issuesOf(() => createSubcategoryBody.parse({}))).toEqual([
      { field: 'name', code: 'REQUIRED', message: 'name is required' },
    ]);
    expect(issuesOf(() => createSubcategoryBody.parse({ name: 'x' }))[0]?.code).toBe('LENGTH_INVALID');
    expect(
      issuesOf(() => createSubcategoryBody.parse({ name: 'ok', description: 'd'.repeat(2049) }))[0]?.field,
    ).toBe('description');
    expect(issuesOf(() => createSubcategoryBody.parse({ name: 'ok', image: 5 }))[0]?.field).toBe('image');
    expect(createSubcategoryBody.parse({ name: 'ok', description: 'd'.repeat(2048), extra: 1 })).toEqual({
      name: 'ok',
      description: 'd'.repeat(2048),
    });
  });

  it('update: every field optional, the same name and description bounds, action free text', () => {
    expect(updateSubcategoryFields.parse({})).toEqual({});
    expect(updateSubcategoryFields.parse({ action: 'whatever' })).toEqual({ action: 'whatever' });
    expect(issuesOf(() => updateSubcategoryFields.parse({ name: 'n'.repeat(101) }))[0]?.code).toBe(
      'LENGTH_INVALID',
    );
    expect(issuesOf(() => updateSubcategoryFields.parse({ description: 'd'.repeat(2049) }))[0]?.code).toBe(
      'LENGTH_INVALID',
    );
  });

  it('throws ValidationError, which the details format groups by field', () => {
    expect(() => createSubcategoryBody.parse({ name: 1 })).toThrow(ValidationError);
  });
});
