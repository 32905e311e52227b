/**
 * The entity declaration helper: the item codec (stored names, JSON text, defaults for older
 * items), views (groups, renames, narrowed attributes, computed values) and their JSON Schema,
 * and the schema kinds responses need. Offline: no network, no DynamoDB.
 */
import { categoryEntity } from '../../lambdas/repositories/category-entity';
import { ledgerEventEntity } from '../../lambdas/repositories/ledger-event-entity';
import {
  attribute,
  computed,
  defineEntity,
  defineView,
  embedded,
  group,
  type RecordOf,
  shownAs,
  viewRef,
} from '../../lambdas/shared/entity';
import type { FieldIssue } from '../../lambdas/shared/errors';
import {
  arrayOf,
  dateTime,
  integer,
  metadata,
  nullable,
  number,
  oneOf,
  type Schema,
  string,
} from '../../lambdas/shared/schema';

const noteEntity = defineEntity('note', {
  id: attribute(string({ format: 'uuid' })),
  companyId: attribute(string(), { hidden: true }),
  title: attribute(string({ min: 1, max: 20 }), { description: 'the title' }),
  status: attribute(oneOf(['open', 'closed', 'deleted'] as const)),
  metadata: attribute(metadata(), { storedAs: 'json' }),
  createdAt: attribute(dateTime()),
  likeCount: attribute(integer({ min: 0 }), { missing: 0 }),
  tags: attribute(arrayOf(string()), { missing: [] }),
  archivedAt: attribute(nullable(dateTime()), { missing: null }),
  storageVersionId: attribute(string(), { hidden: true, optional: true }),
});
type NoteRecord = RecordOf<typeof noteEntity>;

const note: NoteRecord = {
  id: '6f1c1f8e-8a2b-4c3d-9e4f-0a1b2c3d4e5f',
  companyId: 'company-1',
  title: 'Hello',
  status: 'open',
  metadata: { nested: { n: 1.5 }, '': 'empty key' },
  createdAt: '2024-03-01T10:00:00.000Z',
  likeCount: 3,
  tags: ['a'],
  archivedAt: null,
};

const read = <T>(schema: Schema<T>, input: unknown) => {
  const issues: FieldIssue[] = [];
  return { value: schema.read(input, 'field', issues), codes: issues.map((issue) => issue.code) };
};

describe('defineEntity: the item codec', () => {
  it('writes entity, every attribute under its stored name, JSON text for storedAs json, nulls as nulls', () => {
    // Act
    const item = noteEntity.toItem(note);
    // Assess
    expect(item).toEqual({
      entity: 'note',
      id: note.id,
      companyId: 'company-1',
      title: 'Hello',
      status: 'open',
      metadataJson: JSON.stringify(note.metadata),
      createdAt: note.createdAt,
      likeCount: 3,
      tags: ['a'],
      archivedAt: null,
    });
    expect(Object.hasOwn(item, 'storageVersionId')).toBe(false);
    expect(Object.hasOwn(item, 'metadata')).toBe(false);
  });

  it('reads back the same record (round trip), with an optional attribute when present', () => {
    const withVersion = { ...note, storageVersionId: 'v1' };
    expect(noteEntity.fromItem(noteEntity.toItem(withVersion))).toEqual(withVersion);
    expect(noteEntity.fromItem({ pk: 'x', sk: 'y', ...noteEntity.toItem(note) })).toEqual(note);
  });

  it('gives older items their missing defaults, each record its own copy', () => {
    // Prepare
    const { likeCount: _likes, tags: _tags, archivedAt: _archived, ...older } = noteEntity.toItem(note);
    // Act
    const first = noteEntity.fromItem(older);
    const second = noteEntity.fromItem(older);
    first.tags.push('changed');
    // Assess
    expect(second).toEqual({ ...note, likeCount: 0, tags: [], archivedAt: null });
  });

  it('stores a category exactly as before the declaration (attribute names and JSON metadata)', () => {
    const category = {
      id: note.id,
      companyId: 'c',
      name: 'Cars',
      description: '',
      status: 'active' as const,
      metadata: { a: 1 },
      createdAt: note.createdAt,
      updatedAt: note.createdAt,
      version: 1,
      subcategoryCount: 0,
      objectCount: 0,
    };
    expect(Object.keys(categoryEntity.toItem(category)).sort()).toEqual(
      [
        'entity',
        'id',
        'companyId',
        'name',
        'description',
        'status',
        'metadataJson',
        'createdAt',
        'updatedAt',
        'version',
        'subcategoryCount',
        'objectCount',
      ].sort(),
    );
  });

  it('stores a ledger event with its changes as JSON text under changesJson', () => {
    const event = {
      chainId: 'object:c:o',
      sequence: 1,
      action: 'create',
      changes: { name: { from: null, to: 'x' } },
      eventDescription: null,
      performedBy: null,
      principal: 'apiKey:k',
      timestamp: note.createdAt,
      prevHash: '0'.repeat(64),
      hash: 'a'.repeat(64),
    };
    const item = ledgerEventEntity.toItem(event);
    expect(item.changesJson).toBe('{"name":{"from":null,"to":"x"}}');
    expect(item.entity).toBe('ledgerEvent');
    expect(ledgerEventEntity.fromItem(item)).toEqual(event);
  });
});

describe('defineView', () => {
  const summaryView = defineView(noteEntity, {
    name: 'NoteSummary',
    description: 'A note',
    omit: ['tags', 'archivedAt'],
    fields: {
      status: shownAs('status', { schema: oneOf(['open', 'closed'] as const), description: 'never deleted' }),
      created: 'createdAt',
      statistics: group(['likeCount']),
    },
  });
  const detailView = defineView(noteEntity, {
    name: 'NoteDetail',
    fields: {
      path: computed(string(), { description: 'where it is' }),
      summary: computed(viewRef(summaryView)),
      inline: computed(arrayOf(embedded(summaryView))),
      statistics: group({
        likes: 'likeCount',
        likesPerDay: computed(number({ min: 0 })),
      }),
    },
  });

  it('shows the attributes not hidden or omitted, renamed and grouped ones in their place', () => {
    // Act
    const shown = summaryView.toView(note);
    // Assess
    expect(shown).toEqual({
      id: note.id,
      title: 'Hello',
      status: 'open',
      metadata: note.metadata,
      created: note.createdAt,
      statistics: { likeCount: 3 },
    });
    expect(Object.keys(shown)).toEqual(['id', 'title', 'status', 'metadata', 'created', 'statistics']);
  });

  it('takes computed values from the caller, nested as their groups', () => {
    const summary = summaryView.toView(note);
    const shown = detailView.toView(note, {
      path: 'a/b',
      summary,
      inline: [summary],
      statistics: { likesPerDay: 0.5 },
    });
    expect(shown).toEqual({
      id: note.id,
      title: 'Hello',
      status: 'open',
      metadata: note.metadata,
      createdAt: note.createdAt,
      tags: ['a'],
      archivedAt: null,
      statistics: { likes: 3, likesPerDay: 0.5 },
      path: 'a/b',
      summary,
      inline: [summary],
    });
  });

  it('gives a closed JSON Schema with every field required and the descriptions carried', () => {
    expect(summaryView.jsonSchema).toEqual({
      type: 'object',
      description: 'A note',
      properties: {
        id: { type: 'string', format: 'uuid' },
        title: { type: 'string', minLength: 1, maxLength: 20, description: 'the title' },
        status: { type: 'string', enum: ['open', 'closed'], description: 'never deleted' },
        metadata: metadata().jsonSchema,
        created: dateTime().jsonSchema,
        statistics: {
          type: 'object',
          properties: { likeCount: { type: 'integer', minimum: 0 } },
          required: ['likeCount'],
          additionalProperties: false,
        },
      },
      required: ['id', 'title', 'status', 'metadata', 'created', 'statistics'],
      additionalProperties: false,
    });
  });

  it('refers to another view by its component name, or writes it out in place', () => {
    const properties = detailView.jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.summary).toEqual({ $ref: '#/components/schemas/NoteSummary' });
    expect(properties.inline?.items).toMatchObject({ type: 'object', additionalProperties: false });
    expect(properties.inline?.items).not.toHaveProperty('description');
    expect(properties.path).toEqual({ type: 'string', description: 'where it is' });
    expect(properties.archivedAt).toEqual({
      type: ['string', 'null'],
      format: 'date-time',
      description: 'ISO 8601 UTC, milliseconds',
    });
  });

  it('shows an optional attribute only when the record has it, and does not require it', () => {
    // Prepare
    const jobEntity = defineEntity('job', {
      id: attribute(string()),
      completedAt: attribute(dateTime(), { optional: true }),
    });
    const jobView = defineView(jobEntity, { name: 'Job' });
    // Act
    const running = jobView.toView({ id: 'a' });
    const done = jobView.toView({ id: 'b', completedAt: note.createdAt });
    // Assess
    expect(Object.keys(running)).toEqual(['id']);
    expect(done).toEqual({ id: 'b', completedAt: note.createdAt });
    expect(jobView.jsonSchema.required).toEqual(['id']);
  });

  it('refuses a field that names no attribute', () => {
    expect(() => defineView(noteEntity, { name: 'Broken', fields: { x: 'nope' as 'id' } })).toThrow(
      /nope is not an attribute of note/,
    );
  });
});

describe('schema kinds for responses', () => {
  it('dateTime takes ISO 8601 UTC only', () => {
    expect(read(dateTime(), '2024-03-01T10:00:00.000Z')).toEqual({
      value: '2024-03-01T10:00:00.000Z',
      codes: [],
    });
    expect(read(dateTime(), '2024-03-01').codes).toEqual(['FORMAT_INVALID']);
    expect(read(dateTime(), '2024-13-45T10:00:00Z').codes).toEqual(['FORMAT_INVALID']);
  });

  it('nullable takes null as a value, and keeps the schema without null', () => {
    const schema = nullable(string({ max: 3 }));
    expect(read(schema, null)).toEqual({ value: null, codes: [] });
    expect(read(schema, 'abcd').codes).toEqual(['LENGTH_INVALID']);
    expect(schema.jsonSchema).toEqual({ type: ['string', 'null'], maxLength: 3 });
    expect(schema.nonNull.jsonSchema).toEqual({ type: 'string', maxLength: 3 });
  });

  it('arrayOf reads every item, naming the bad one', () => {
    const issues: FieldIssue[] = [];
    expect(arrayOf(integer({ min: 0 })).read([1, -1], 'counts', issues)).toBeUndefined();
    expect(issues.map((issue) => issue.field)).toEqual(['counts[1]']);
    expect(read(arrayOf(string()), ['a']).value).toEqual(['a']);
  });

  it('number takes fractions and a lower bound; string takes a pattern', () => {
    expect(read(number({ min: 0 }), 0.25).value).toBe(0.25);
    expect(read(number({ min: 0 }), -1).codes).toEqual(['RANGE_INVALID']);
    expect(read(string({ pattern: /^[0-9a-f]{4}$/ }), 'abcg').codes).toEqual(['FORMAT_INVALID']);
    expect(string({ pattern: /^[0-9a-f]{4}$/ }).jsonSchema).toEqual({
      type: 'string',
      pattern: '^[0-9a-f]{4}$',
    });
  });
});
