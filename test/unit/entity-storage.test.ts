/**
 * The entity helper's storage forms and view placement added for wallets and import jobs: string
 * sets, objects stored across several attributes, computed fields placed `after` another, and
 * the closed `objectOf` schema. Offline: no network, no DynamoDB.
 */
import { walletEntity } from '../../lambdas/repositories/wallet-entity';
import { attribute, computed, defineEntity, defineView } from '../../lambdas/shared/entity';
import type { FieldIssue } from '../../lambdas/shared/errors';
import { arrayOf, integer, objectOf, string } from '../../lambdas/shared/schema';

const jobEntity = defineEntity('job', {
  id: attribute(string()),
  counts: attribute(objectOf({ total: integer({ min: 0 }), failed: integer({ min: 0 }) }), {
    storedAcross: { total: 'totalCount', failed: 'failedCount' },
    missing: { total: 0, failed: 0 },
  }),
  marks: attribute(arrayOf(string()), { optional: true, storedAs: 'set' }),
  note: attribute(string()),
});

describe('storedAcross', () => {
  it('stores each member under its own attribute and reads them back', () => {
    // Prepare
    const record = { id: 'j1', counts: { total: 5, failed: 2 }, note: 'n' };

    // Act
    const item = jobEntity.toItem(record);

    // Assess
    expect(item).toEqual({ entity: 'job', id: 'j1', totalCount: 5, failedCount: 2, note: 'n' });
    expect(jobEntity.fromItem(item)).toEqual(record);
  });

  it('reads a member the item lacks as that member of missing', () => {
    expect(jobEntity.fromItem({ id: 'j1', totalCount: 3, note: 'n' }).counts).toEqual({
      total: 3,
      failed: 0,
    });
  });
});

describe("storedAs: 'set'", () => {
  it('stores a string set and reads it back as an array', () => {
    const item = jobEntity.toItem({
      id: 'j1',
      counts: { total: 0, failed: 0 },
      note: 'n',
      marks: ['a', 'b'],
    });

    expect(item.marks).toEqual(new Set(['a', 'b']));
    expect(jobEntity.fromItem(item).marks).toEqual(['a', 'b']);
  });

  it('leaves an empty or absent array out of the item (DynamoDB has no empty set)', () => {
    const base = { id: 'j1', counts: { total: 0, failed: 0 }, note: 'n' };

    expect(jobEntity.toItem({ ...base, marks: [] })).not.toHaveProperty('marks');
    expect(jobEntity.toItem(base)).not.toHaveProperty('marks');
    expect(jobEntity.fromItem({ id: 'j1', note: 'n' })).not.toHaveProperty('marks');
  });

  it('stores a wallet item with its metadata as JSON and its absent dates as null', () => {
    const item = walletEntity.toItem({
      id: 'w',
      username: 'alice',
      appId: 'a',
      status: 'active',
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      lastLoginAt: null,
      loginCount: 0,
      apiCallCount: 0,
      lastApiCallAt: null,
      passwordHash: 'h',
      sessionVersion: 1,
      version: 1,
    });

    expect(item).toMatchObject({ metadataJson: '{}', lastLoginAt: null, lastApiCallAt: null });
  });
});

describe('computed after', () => {
  const view = defineView(jobEntity, {
    name: 'Job',
    fields: {
      processed: computed(integer({ min: 0 }), { after: 'counts' }),
      path: computed(string()),
    },
  });

  it('places the field right after the one it follows, in the schema and the view', () => {
    // Act
    const shown = view.toView(
      { id: 'j1', counts: { total: 1, failed: 0 }, note: 'n' },
      { processed: 1, path: '/j1' },
    );

    // Assess
    expect(Object.keys(view.jsonSchema.properties as object)).toEqual([
      'id',
      'counts',
      'processed',
      'marks',
      'note',
      'path',
    ]);
    // `marks` is optional and absent: left out.
    expect(Object.keys(shown)).toEqual(['id', 'counts', 'processed', 'note', 'path']);
  });

  it('refuses to follow a field the view does not show', () => {
    expect(() =>
      defineView(jobEntity, {
        name: 'Bad',
        omit: ['note'],
        fields: { x: computed(string(), { after: 'note' }) },
      }),
    ).toThrow('follows note');
  });
});

describe('objectOf', () => {
  const failure = objectOf({ code: string(), message: string() }, { description: 'why' });

  it('says a closed object with every member required', () => {
    expect(failure.jsonSchema).toEqual({
      type: 'object',
      description: 'why',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
      additionalProperties: false,
    });
  });

  it('reads each member with its schema and reports the issues under the member path', () => {
    const issues: FieldIssue[] = [];

    expect(failure.read({ code: 'A', message: 'm' }, 'error', issues)).toEqual({ code: 'A', message: 'm' });
    expect(failure.read({ code: 1 }, 'error', issues)).toBeUndefined();
    expect(issues.map((issue) => issue.field)).toEqual(['error.code', 'error.message']);
    expect(failure.read([], 'error', [])).toBeUndefined();
  });
});
