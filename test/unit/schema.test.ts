/**
 * The schema DSL: lengths in code points, the spec's issue codes, query-string integers and the
 * bounds of `metadata`. Offline: no network, no DynamoDB.
 */
import {
  createCategoryBody,
  listCategoriesQuery,
  updateCategoryBody,
} from '../../lambdas/domain/categories/category-schemas';
import { type FieldIssue, ValidationError } from '../../lambdas/shared/errors';
import {
  boolean,
  defaulted,
  documented,
  integer,
  METADATA_MAX_BYTES,
  METADATA_MAX_BYTES_KEYWORD,
  METADATA_MAX_DEPTH,
  METADATA_MAX_DEPTH_KEYWORD,
  metadata,
  object,
  oneOf,
  optional,
  required,
  string,
} from '../../lambdas/shared/schema';

/** The issues a parse throws, or fails the test when it does not throw a ValidationError. */
function issuesOf(parse: () => unknown): FieldIssue[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError, but the input was accepted');
}

/** Reads one value with a schema, returning the value and the issues pushed. */
function readWith<T>(
  schema: { read(input: unknown, field: string, issues: FieldIssue[]): T | undefined },
  input: unknown,
) {
  const issues: FieldIssue[] = [];
  const value = schema.read(input, 'field', issues);
  return { value, issues };
}

/** `depth` objects nested in one another: depth 1 is `{}`. */
function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level++) value = { child: value };
  return value;
}

const emoji = '😀';

describe('string()', () => {
  it('counts an emoji as one character, so 100 emoji are a valid category name', () => {
    // Prepare
    const name = emoji.repeat(100);
    // Act
    const parsed = createCategoryBody.parse({ name });
    // Assess
    expect(name.length).toBe(200); // UTF-16 units: a UTF-16 count would refuse it
    expect(parsed).toEqual({ name });
  });

  it('refuses 101 emoji as a category name with LENGTH_INVALID', () => {
    // Prepare
    const name = emoji.repeat(101);
    // Act
    const issues = issuesOf(() => createCategoryBody.parse({ name }));
    // Assess
    expect(issues).toEqual([
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
    ]);
  });

  it('refuses a one-character name, even one of two UTF-16 units', () => {
    // Prepare
    const name = emoji;
    // Act
    const issues = issuesOf(() => createCategoryBody.parse({ name }));
    // Assess
    expect(issues).toEqual([
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
    ]);
  });

  it('accepts a 500-character description and refuses 501 with "at most 500"', () => {
    // Prepare
    const longest = 'é'.repeat(500);
    // Act
    const accepted = createCategoryBody.parse({ name: 'Tools', description: longest });
    const issues = issuesOf(() => createCategoryBody.parse({ name: 'Tools', description: `${longest}x` }));
    // Assess
    expect(accepted.description).toBe(longest);
    expect(issues).toEqual([
      {
        field: 'description',
        code: 'LENGTH_INVALID',
        message: 'description must be at most 500 characters long',
      },
    ]);
  });

  it('refuses a number where a string is expected with TYPE_INVALID', () => {
    // Act
    const { value, issues } = readWith(string({ max: 10 }), 42);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      { field: 'field', code: 'TYPE_INVALID', message: 'field must be a string, not number' },
    ]);
  });

  it('names arrays and null by what they are in TYPE_INVALID messages', () => {
    // Act
    const fromArray = readWith(string(), ['a']);
    const fromObject = readWith(string(), { a: 1 });
    // Assess
    expect(fromArray.issues[0]?.message).toBe('field must be a string, not array');
    expect(fromObject.issues[0]?.message).toBe('field must be a string, not object');
  });

  it('reports a minimum-only range as "at least"', () => {
    // Act
    const { issues } = readWith(string({ min: 3 }), 'ab');
    // Assess
    expect(issues).toEqual([
      { field: 'field', code: 'LENGTH_INVALID', message: 'field must be at least 3 characters long' },
    ]);
  });

  it.each([
    ['a lone high surrogate', 'ab\uD800'],
    ['a lone low surrogate', '\uDC00cd'],
    ['two high surrogates', '\uD800\uD800x'],
  ])('refuses %s with FORMAT_INVALID (not Unicode text)', (_, text) => {
    // Act
    const { value, issues } = readWith(string({ max: 10 }), text);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      {
        field: 'field',
        code: 'FORMAT_INVALID',
        message: 'field must be Unicode text (it holds a lone UTF-16 surrogate)',
      },
    ]);
  });

  it('accepts surrogate pairs (emoji) as Unicode text', () => {
    // Act
    const { value, issues } = readWith(string({ max: 10 }), `a${emoji}\u{10FFFF}`);
    // Assess
    expect(issues).toEqual([]);
    expect(value).toBe(`a${emoji}\u{10FFFF}`);
  });

  it('checks the uuid format with FORMAT_INVALID, case-insensitively', () => {
    // Prepare
    const schema = string({ format: 'uuid' });
    // Act
    const lower = readWith(schema, '0b4f2a52-5b7c-4d0e-9a43-6f8e3c2d1a00');
    const upper = readWith(schema, '0B4F2A52-5B7C-4D0E-9A43-6F8E3C2D1A00');
    const wrong = readWith(schema, 'not-a-uuid');
    // Assess
    expect(lower).toEqual({ value: '0b4f2a52-5b7c-4d0e-9a43-6f8e3c2d1a00', issues: [] });
    expect(upper.issues).toEqual([]);
    expect(wrong).toEqual({
      value: undefined,
      issues: [{ field: 'field', code: 'FORMAT_INVALID', message: 'field must be a UUID' }],
    });
  });

  it('describes its bounds in its JSON schema', () => {
    // Assess
    expect(string({ min: 2, max: 100 }).jsonSchema).toEqual({ type: 'string', minLength: 2, maxLength: 100 });
    expect(string({ format: 'uuid' }).jsonSchema).toEqual({ type: 'string', format: 'uuid' });
  });
});

describe('object()', () => {
  it('reports REQUIRED for a missing required field', () => {
    // Act
    const issues = issuesOf(() => createCategoryBody.parse({}));
    // Assess
    expect(issues).toEqual([{ field: 'name', code: 'REQUIRED', message: 'name is required' }]);
  });

  it('reports REQUIRED for a required field given as null', () => {
    // Act
    const issues = issuesOf(() => createCategoryBody.parse({ name: null }));
    // Assess
    expect(issues).toEqual([{ field: 'name', code: 'REQUIRED', message: 'name is required' }]);
  });

  it('treats null as left out for an optional field', () => {
    // Act
    const parsed = createCategoryBody.parse({ name: 'Tools', description: null, metadata: null });
    // Assess
    expect(parsed).toEqual({ name: 'Tools' });
  });

  it('reports every issue of a body at once, in the order of the shape', () => {
    // Act
    const issues = issuesOf(() => updateCategoryBody.parse({ name: 'x', description: 7, status: 'gone' }));
    // Assess
    expect(issues).toEqual([
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
      { field: 'description', code: 'TYPE_INVALID', message: 'description must be a string, not number' },
      { field: 'status', code: 'ENUM_INVALID', message: 'status must be one of: active, inactive, archived' },
    ]);
  });

  it('drops properties that are not in the shape', () => {
    // Act
    const parsed = createCategoryBody.parse({ name: 'Tools', id: 'forged', status: 'archived' });
    // Assess
    expect(parsed).toEqual({ name: 'Tools' });
  });

  it('does not read inherited properties', () => {
    // Prepare
    const input = Object.create({ name: 'Inherited' }) as Record<string, unknown>;
    // Act
    const issues = issuesOf(() => createCategoryBody.parse(input));
    // Assess
    expect(issues).toEqual([{ field: 'name', code: 'REQUIRED', message: 'name is required' }]);
  });

  it.each([
    ['an array', []],
    ['a string', 'name'],
    ['a number', 12],
    ['null', null],
  ])('refuses %s as the whole body with TYPE_INVALID on "body"', (_label, input) => {
    // Act
    const issues = issuesOf(() => createCategoryBody.parse(input));
    // Assess
    expect(issues).toEqual([{ field: 'body', code: 'TYPE_INVALID', message: 'body must be a JSON object' }]);
  });

  it('fills in defaults for defaulted fields', () => {
    // Prepare
    const schema = object({ page: defaulted(integer({ min: 1 }), 1), label: optional(string()) });
    // Act
    const parsed = schema.parse({});
    // Assess
    expect(parsed).toEqual({ page: 1 });
  });

  it('lists required fields and defaults in its JSON schema', () => {
    // Prepare
    const schema = object({
      name: required(string({ min: 1 }), 'the name'),
      size: defaulted(integer({ min: 0, max: 9 }), 3),
    });
    // Assess
    expect(schema.jsonSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'the name' },
        size: { type: ['integer', 'null'], minimum: 0, maximum: 9, default: 3 },
      },
      required: ['name'],
    });
  });

  it('types every field that may be left out as nullable, enums with null among the values', () => {
    // Prepare
    const schema = object({
      note: optional(string({ max: 5 })),
      colour: optional(oneOf(['red', 'blue'] as const)),
      extra: optional(metadata()),
    });
    // Act
    const parsed = schema.parse({ note: null, colour: null, extra: null });
    // Assess
    expect(parsed).toEqual({});
    expect(schema.jsonSchema.properties).toMatchObject({
      note: { type: ['string', 'null'], maxLength: 5 },
      colour: { type: ['string', 'null'], enum: ['red', 'blue', null] },
      extra: { type: ['object', 'null'] },
    });
  });

  it('requires a field when another has a value (requiredWhen), and says so with if/then', () => {
    // Prepare
    const schema = object(
      { action: required(oneOf(['move', 'stay'] as const)), to: optional(string({ max: 10 })) },
      { requiredWhen: { to: { field: 'action', equals: 'move' } } },
    );
    // Act
    const missing = (() => {
      try {
        schema.parse({ action: 'move', to: '' });
        return [];
      } catch (error) {
        return (error as ValidationError).issues;
      }
    })();
    const stay = schema.parse({ action: 'stay' });
    // Assess
    expect(missing).toEqual([
      { field: 'to', code: 'REQUIRED', message: 'to is required when action is move' },
    ]);
    expect(stay).toEqual({ action: 'stay' });
    expect(schema.jsonSchema.allOf).toEqual([
      {
        if: { properties: { action: { const: 'move' } }, required: ['action'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then`, never awaited
        then: { required: ['to'], properties: { to: { type: 'string', minLength: 1 } } },
      },
    ]);
  });
});

describe('metadata() and documented()', () => {
  it('declares the size and depth bounds as keywords a generator can read', () => {
    // Assess
    expect(metadata().jsonSchema).toMatchObject({
      [METADATA_MAX_BYTES_KEYWORD]: METADATA_MAX_BYTES,
      [METADATA_MAX_DEPTH_KEYWORD]: METADATA_MAX_DEPTH,
    });
  });

  it('documents values a service checks itself, reading as before', () => {
    // Prepare
    const action = documented(string({ max: 10 }), { enum: ['GO'] });
    // Act
    const { value, issues } = readWith(action, 'go');
    // Assess
    expect(value).toBe('go');
    expect(issues).toEqual([]);
    expect(action.jsonSchema).toEqual({ type: 'string', maxLength: 10, enum: ['GO'] });
  });
});

describe('oneOf()', () => {
  it('accepts a listed value', () => {
    // Act
    const { value, issues } = readWith(oneOf(['a', 'b'] as const), 'b');
    // Assess
    expect(value).toBe('b');
    expect(issues).toEqual([]);
  });

  it.each([['Active'], ['deleted'], [1], [true]])('refuses %p with ENUM_INVALID', (input) => {
    // Act
    const { value, issues } = readWith(oneOf(['active', 'inactive'] as const), input);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      { field: 'field', code: 'ENUM_INVALID', message: 'field must be one of: active, inactive' },
    ]);
  });
});

describe('boolean()', () => {
  it('reads JSON booleans, and true/false text only from query strings', () => {
    // Act
    const fromJson = readWith(boolean(), false);
    const fromQuery = readWith(boolean({ fromQueryString: true }), 'true');
    const textInJson = readWith(boolean(), 'true');
    // Assess
    expect(fromJson).toEqual({ value: false, issues: [] });
    expect(fromQuery).toEqual({ value: true, issues: [] });
    expect(textInJson.issues).toEqual([
      { field: 'field', code: 'TYPE_INVALID', message: 'field must be true or false' },
    ]);
  });
});

describe('integer() from a query string', () => {
  const limit = integer({ min: 1, max: 100, fromQueryString: true });
  const offset = integer({ min: 0, fromQueryString: true });

  it.each([
    ['1', 1],
    ['100', 100],
    [' 42 ', 42],
    ['007', 7],
  ])('reads limit %p as %p', (input, expected) => {
    // Act
    const { value, issues } = readWith(limit, input);
    // Assess
    expect(value).toBe(expected);
    expect(issues).toEqual([]);
  });

  it.each([['1.5'], ['abc'], [''], ['1e3'], ['0x10'], ['12abc']])('refuses %p with TYPE_INVALID', (input) => {
    // Act
    const { value, issues } = readWith(limit, input);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      { field: 'field', code: 'TYPE_INVALID', message: 'field must be a whole number' },
    ]);
  });

  it.each([['0'], ['101']])('refuses limit %p with RANGE_INVALID', (input) => {
    // Act
    const { value, issues } = readWith(limit, input);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      { field: 'field', code: 'RANGE_INVALID', message: 'field must be from 1 to 100' },
    ]);
  });

  it('refuses offset -1 with RANGE_INVALID "at least 0"', () => {
    // Act
    const { value, issues } = readWith(offset, '-1');
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([{ field: 'field', code: 'RANGE_INVALID', message: 'field must be at least 0' }]);
  });

  it('refuses a JSON number where query text is expected', () => {
    // Act
    const { issues } = readWith(limit, 5);
    // Assess
    expect(issues).toEqual([
      { field: 'field', code: 'TYPE_INVALID', message: 'field must be a whole number' },
    ]);
  });
});

describe('integer() from JSON', () => {
  it('reads whole numbers and refuses fractions and numeric text', () => {
    // Prepare
    const schema = integer({ min: 0, max: 10 });
    // Act
    const whole = readWith(schema, 10);
    const fraction = readWith(schema, 2.5);
    const text = readWith(schema, '3');
    // Assess
    expect(whole).toEqual({ value: 10, issues: [] });
    expect(fraction.issues[0]?.code).toBe('TYPE_INVALID');
    expect(text.issues[0]?.code).toBe('TYPE_INVALID');
  });
});

describe('listCategoriesQuery', () => {
  it('defaults limit 20, offset 0, status active and sort createdAt:desc when no query is given', () => {
    // Act
    const parsed = listCategoriesQuery.parse({});
    // Assess
    expect(parsed).toEqual({ limit: 20, offset: 0, status: 'active', sort: 'createdAt:desc' });
  });

  it('reads every parameter given', () => {
    // Act
    const parsed = listCategoriesQuery.parse({
      limit: '3',
      offset: '6',
      status: 'all',
      name: 'veh',
      sort: 'name:asc',
    });
    // Assess
    expect(parsed).toEqual({ limit: 3, offset: 6, status: 'all', name: 'veh', sort: 'name:asc' });
  });

  it('refuses status archived, which the list filter does not accept', () => {
    // Act
    const issues = issuesOf(() => listCategoriesQuery.parse({ status: 'archived' }));
    // Assess
    expect(issues).toEqual([
      { field: 'status', code: 'ENUM_INVALID', message: 'status must be one of: active, inactive, all' },
    ]);
  });

  it('reports the issues of every bad parameter at once', () => {
    // Act
    const issues = issuesOf(() => listCategoriesQuery.parse({ limit: '0', offset: '-1', sort: 'bogus' }));
    // Assess
    expect(issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['limit', 'RANGE_INVALID'],
      ['offset', 'RANGE_INVALID'],
      ['sort', 'ENUM_INVALID'],
    ]);
  });
});

describe('metadata()', () => {
  it('accepts a nested object and returns it unchanged', () => {
    // Prepare
    const input = { color: 'red', size: 3, tags: ['a', 'b'], nested: { ok: true, none: null } };
    // Act
    const { value, issues } = readWith(metadata(), input);
    // Assess
    expect(value).toBe(input);
    expect(issues).toEqual([]);
  });

  it.each([
    ['a value', { note: 'x\uD800' }],
    ['a key', { '\uDC00': 1 }],
    ['a nested array item', { list: [1, { deep: ['ok', '\uD83D'] }] }],
  ])('refuses a lone surrogate in %s with FORMAT_INVALID', (_label, input) => {
    // Act
    const { value, issues } = readWith(metadata(), input);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      {
        field: 'field',
        code: 'FORMAT_INVALID',
        message: 'field must hold Unicode text only (a key or value holds a lone UTF-16 surrogate)',
      },
    ]);
  });

  it.each([
    ['an array', [1, 2]],
    ['null', null],
    ['a string', '{"a":1}'],
    ['a number', 3],
  ])('refuses %s with TYPE_INVALID', (_label, input) => {
    // Act
    const { value, issues } = readWith(metadata(), input);
    // Assess
    expect(value).toBeUndefined();
    expect(issues).toEqual([
      { field: 'field', code: 'TYPE_INVALID', message: 'field must be a JSON object' },
    ]);
  });

  it('treats metadata: null in an update body as left out', () => {
    // Act
    const parsed = updateCategoryBody.parse({ metadata: null });
    // Assess
    expect(parsed).toEqual({});
  });

  it(`accepts exactly ${METADATA_MAX_BYTES} bytes of JSON and refuses one byte more`, () => {
    // Prepare: {"a":"..."} is 8 bytes around the value
    const largest = { a: 'x'.repeat(METADATA_MAX_BYTES - 8) };
    const tooLarge = { a: 'x'.repeat(METADATA_MAX_BYTES - 7) };
    // Act
    const accepted = readWith(metadata(), largest);
    const refused = readWith(metadata(), tooLarge);
    // Assess
    expect(Buffer.byteLength(JSON.stringify(largest))).toBe(16_384);
    expect(accepted.issues).toEqual([]);
    expect(refused.issues).toEqual([
      { field: 'field', code: 'SIZE_INVALID', message: 'field must be at most 16384 bytes as JSON' },
    ]);
  });

  it('counts the size in UTF-8 bytes, not characters', () => {
    // Prepare: 4100 emoji are 4100 characters but 16400 bytes
    const input = { a: emoji.repeat(4100) };
    // Act
    const { issues } = readWith(metadata(), input);
    // Assess
    expect(issues.map((issue) => issue.code)).toEqual(['SIZE_INVALID']);
  });

  it(`accepts ${METADATA_MAX_DEPTH} levels of nesting and refuses ${METADATA_MAX_DEPTH + 1}`, () => {
    // Act
    const deepest = readWith(metadata(), nestedObject(16));
    const tooDeep = readWith(metadata(), nestedObject(17));
    // Assess
    expect(deepest.issues).toEqual([]);
    expect(tooDeep.issues).toEqual([
      { field: 'field', code: 'SIZE_INVALID', message: 'field may nest at most 16 levels' },
    ]);
  });

  it('counts arrays as nesting levels', () => {
    // Prepare: 1 object level + 16 array levels
    let value: unknown = [];
    for (let level = 1; level < 16; level++) value = [value];
    // Act
    const { issues } = readWith(metadata(), { list: value });
    // Assess
    expect(issues.map((issue) => issue.code)).toEqual(['SIZE_INVALID']);
  });

  it('refuses very deep nesting without exhausting the stack', () => {
    // Prepare
    const input = nestedObject(100_000);
    // Act
    const { issues } = readWith(metadata(), input);
    // Assess
    expect(issues.map((issue) => issue.code)).toEqual(['SIZE_INVALID']);
  });
});
