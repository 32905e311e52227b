/**
 * A small schema library, written once per request shape, that gives the three things the
 * service needs from one declaration: runtime validation with the spec's `validationErrors`
 * codes, the TypeScript type of the parsed value, and the JSON Schema used in the OpenAPI
 * document. We do not use zod here because the spec counts lengths in characters (code
 * points), while zod counts UTF-16 units, and because we need our own issue codes.
 */
import { type FieldIssue, ValidationError } from './errors.js';
import { characterCount, isUnicodeText } from './text.js';

export type JsonSchema = Record<string, unknown>;

/** Reads one present value; pushes issues and returns `undefined` when it is not valid. */
export interface Schema<T> {
  read(input: unknown, field: string, issues: FieldIssue[]): T | undefined;
  readonly jsonSchema: JsonSchema;
}

type Presence = 'required' | 'optional' | 'defaulted';

/** A property of an object schema: its schema and whether it must be given. */
export interface Field<T, P extends Presence = Presence> {
  readonly schema: Schema<T>;
  readonly presence: P;
  readonly defaultValue?: T;
  readonly description?: string;
}

/** The field must be given (absent or `null` gives `REQUIRED`). */
export const required = <T>(schema: Schema<T>, description?: string): Field<T, 'required'> => ({
  schema,
  presence: 'required',
  description,
});

/** The field may be left out; `null` counts as left out. */
export const optional = <T>(schema: Schema<T>, description?: string): Field<T, 'optional'> => ({
  schema,
  presence: 'optional',
  description,
});

/** The field may be left out, and then takes `defaultValue`. */
export const defaulted = <T>(
  schema: Schema<T>,
  defaultValue: T,
  description?: string,
): Field<T, 'defaulted'> => ({
  schema,
  presence: 'defaulted',
  defaultValue,
  description,
});

type Shape = Record<string, Field<unknown>>;
type OutputOf<F> = F extends Field<infer T> ? T : never;
type RequiredKeys<S extends Shape> = {
  [K in keyof S]: S[K]['presence'] extends 'optional' ? never : K;
}[keyof S];
type OptionalKeys<S extends Shape> = Exclude<keyof S, RequiredKeys<S>>;

/** The parsed type of an object schema's shape. */
export type Infer<S extends Shape> = { [K in RequiredKeys<S>]: OutputOf<S[K]> } & {
  [K in OptionalKeys<S>]?: OutputOf<S[K]>;
};

const describeType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/**
 * A string of `min` to `max` characters (code points), optionally of a given format or matching
 * a pattern (said in the JSON Schema as `pattern`, its source).
 */
export function string(
  options: { min?: number; max?: number; format?: 'uuid'; pattern?: RegExp } = {},
): Schema<string> {
  const { min = 0, max, format, pattern } = options;
  return {
    read(input, field, issues) {
      if (typeof input !== 'string') {
        issues.push({
          field,
          code: 'TYPE_INVALID',
          message: `${field} must be a string, not ${describeType(input)}`,
        });
        return undefined;
      }
      const length = characterCount(input);
      if (length < min || (max !== undefined && length > max)) {
        const range = max === undefined ? `at least ${min}` : min > 0 ? `${min} to ${max}` : `at most ${max}`;
        issues.push({ field, code: 'LENGTH_INVALID', message: `${field} must be ${range} characters long` });
        return undefined;
      }
      if (!isUnicodeText(input)) {
        issues.push({
          field,
          code: 'FORMAT_INVALID',
          message: `${field} must be Unicode text (it holds a lone UTF-16 surrogate)`,
        });
        return undefined;
      }
      if (format === 'uuid') {
        if (!UUID_PATTERN.test(input)) {
          issues.push({ field, code: 'FORMAT_INVALID', message: `${field} must be a UUID` });
          return undefined;
        }
        // UUIDs are case-insensitive on input (RFC 9562); ids are stored in lower case.
        return input.toLowerCase();
      }
      if (pattern && !pattern.test(input)) {
        issues.push({ field, code: 'FORMAT_INVALID', message: `${field} must match ${pattern.source}` });
        return undefined;
      }
      return input;
    },
    jsonSchema: {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
      ...(format ? { format } : {}),
      ...(pattern ? { pattern: pattern.source } : {}),
    },
  };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of a fixed list of strings. */
export function oneOf<const V extends string>(values: readonly V[]): Schema<V> {
  return {
    read(input, field, issues) {
      if (typeof input !== 'string' || !(values as readonly string[]).includes(input)) {
        issues.push({
          field,
          code: 'ENUM_INVALID',
          message: `${field} must be one of: ${values.join(', ')}`,
        });
        return undefined;
      }
      return input as V;
    },
    jsonSchema: { type: 'string', enum: [...values] },
  };
}

/** A JSON boolean, or in a query string `true` / `false`. */
export function boolean(options: { fromQueryString?: boolean } = {}): Schema<boolean> {
  return {
    read(input, field, issues) {
      if (typeof input === 'boolean') return input;
      if (options.fromQueryString && (input === 'true' || input === 'false')) return input === 'true';
      issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be true or false` });
      return undefined;
    },
    jsonSchema: { type: 'boolean' },
  };
}

/**
 * A whole number from `min` to `max`. With `fromQueryString` it is read from its decimal
 * text (query strings carry only strings); `'1.5'`, `'abc'`, `''` and `'1e3'` are refused.
 */
export function integer(options: {
  min?: number;
  max?: number;
  fromQueryString?: boolean;
  /** A JSON number, or its decimal text (form fields that come as JSON or as multipart text). */
  fromJsonOrText?: boolean;
}): Schema<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER, fromJsonOrText = false } = options;
  const fromText = options.fromQueryString === true || fromJsonOrText;
  return {
    read(input, field, issues) {
      let value: number | undefined;
      if (typeof input === 'number' && (!fromText || fromJsonOrText)) value = input;
      else if (typeof input === 'string' && fromText && /^[+-]?\d{1,16}$/.test(input.trim())) {
        value = Number(input.trim());
      }
      if (value === undefined || !Number.isInteger(value)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a whole number` });
        return undefined;
      }
      if (value < min || value > max) {
        const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
        issues.push({ field, code: 'RANGE_INVALID', message: `${field} must be ${range}` });
        return undefined;
      }
      return value;
    },
    jsonSchema: {
      type: 'integer',
      ...(min !== Number.MIN_SAFE_INTEGER ? { minimum: min } : {}),
      ...(max !== Number.MAX_SAFE_INTEGER ? { maximum: max } : {}),
    },
  };
}

/** Free key-value pairs, as the spec's `metadata`. */
export type Metadata = Record<string, unknown>;

/** The largest `metadata` we store: its JSON text in UTF-8 (DynamoDB items stop at 400 KB). */
export const METADATA_MAX_BYTES = 16_384;
/** Deepest nesting of objects and arrays inside `metadata`. */
export const METADATA_MAX_DEPTH = 16;

function nestingDepth(value: unknown, limit: number): number {
  // Stops descending past the limit, so a hostile body cannot exhaust the stack.
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, nestingDepth(child, limit - 1));
  return deepest + 1;
}

/** Whether every key and string of a JSON value is Unicode text (its depth was bounded before). */
function isUnicodeJson(value: unknown): boolean {
  if (typeof value === 'string') return isUnicodeText(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(isUnicodeJson);
  return Object.entries(value).every(([key, each]) => isUnicodeText(key) && isUnicodeJson(each));
}

/**
 * A JSON object of free key-value pairs, at most {@link METADATA_MAX_BYTES} as JSON and
 * {@link METADATA_MAX_DEPTH} levels deep, holding Unicode text only.
 */
export function metadata(): Schema<Metadata> {
  return {
    read(input, field, issues) {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a JSON object` });
        return undefined;
      }
      if (nestingDepth(input, METADATA_MAX_DEPTH + 1) > METADATA_MAX_DEPTH) {
        issues.push({
          field,
          code: 'SIZE_INVALID',
          message: `${field} may nest at most ${METADATA_MAX_DEPTH} levels`,
        });
        return undefined;
      }
      if (!isUnicodeJson(input)) {
        issues.push({
          field,
          code: 'FORMAT_INVALID',
          message: `${field} must hold Unicode text only (a key or value holds a lone UTF-16 surrogate)`,
        });
        return undefined;
      }
      if (Buffer.byteLength(JSON.stringify(input), 'utf8') > METADATA_MAX_BYTES) {
        issues.push({
          field,
          code: 'SIZE_INVALID',
          message: `${field} must be at most ${METADATA_MAX_BYTES} bytes as JSON`,
        });
        return undefined;
      }
      return input as Metadata;
    },
    jsonSchema: {
      type: 'object',
      additionalProperties: true,
      description: `at most ${METADATA_MAX_BYTES} bytes as UTF-8 JSON, nested at most ${METADATA_MAX_DEPTH} levels`,
      // JSON Schema cannot bound an object's serialized size: said for generators and readers.
      [METADATA_MAX_BYTES_KEYWORD]: METADATA_MAX_BYTES,
      [METADATA_MAX_DEPTH_KEYWORD]: METADATA_MAX_DEPTH,
    },
  };
}

/** Vendor keywords of the JSON Schema of {@link metadata} (the OpenAPI document's readers know them). */
export const METADATA_MAX_BYTES_KEYWORD = 'x-max-json-bytes';
export const METADATA_MAX_DEPTH_KEYWORD = 'x-max-depth';

/**
 * The same schema, documented with more JSON Schema (an `enum` of the values a service checks
 * itself, a description): reading is unchanged.
 *
 * @example
 * const action = documented(string({ max: 50 }), { enum: ['CHANGE', 'REMOVE'] });
 */
export function documented<T>(schema: Schema<T>, jsonSchema: JsonSchema): Schema<T> {
  return { read: schema.read, jsonSchema: { ...schema.jsonSchema, ...jsonSchema } };
}

/**
 * A property schema that also takes `null` (an optional field given as `null` means "not
 * given"), as JSON Schema 2020-12 says it: `null` among the types, and in the `enum` if any.
 */
function nullableJsonSchema(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type !== 'string') return { anyOf: [schema, { type: 'null' }] };
  return {
    ...schema,
    type: [type, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
  };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** A UTC instant as ISO 8601 text (`2026-01-31T12:00:00.000Z`), as every timestamp we store. */
export function dateTime(): Schema<string> {
  return {
    read(input, field, issues) {
      if (typeof input !== 'string' || !ISO_DATE_TIME.test(input) || Number.isNaN(Date.parse(input))) {
        issues.push({ field, code: 'FORMAT_INVALID', message: `${field} must be an ISO 8601 UTC date-time` });
        return undefined;
      }
      return input;
    },
    jsonSchema: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, milliseconds' },
  };
}

/** A JSON number (not only whole) of at least `min`. */
export function number(options: { min?: number } = {}): Schema<number> {
  const { min } = options;
  return {
    read(input, field, issues) {
      if (typeof input !== 'number' || !Number.isFinite(input)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a number` });
        return undefined;
      }
      if (min !== undefined && input < min) {
        issues.push({ field, code: 'RANGE_INVALID', message: `${field} must be at least ${min}` });
        return undefined;
      }
      return input;
    },
    jsonSchema: { type: 'number', ...(min !== undefined ? { minimum: min } : {}) },
  };
}

/**
 * The same schema, also taking `null` (a stored value that may be absent, such as an image id):
 * unlike an optional request field, `null` is a value here and reads as `null`.
 */
export function nullable<T>(schema: Schema<T>): Schema<T | null> & { readonly nonNull: Schema<T> } {
  return {
    read: (input, field, issues) => (input === null ? null : schema.read(input, field, issues)),
    jsonSchema: nullableJsonSchema(schema.jsonSchema),
    // A request field that may be left out takes the schema without null (`optional` reads null as absent).
    nonNull: schema,
  };
}

/** A JSON array whose every item reads with `items`. */
export function arrayOf<T>(items: Schema<T>): Schema<T[]> {
  return {
    read(input, field, issues) {
      if (!Array.isArray(input)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be an array` });
        return undefined;
      }
      const issueCountBefore = issues.length;
      const output = input.map((item, index) => items.read(item, `${field}[${index}]`, issues));
      return issues.length === issueCountBefore ? (output as T[]) : undefined;
    },
    jsonSchema: { type: 'array', items: items.jsonSchema },
  };
}

/**
 * A value the service writes itself and never reads from a caller (a ledger event's `changes`):
 * only its JSON Schema is said, and reading takes any value as it is.
 *
 * @example
 * const changes = writtenByService<FieldChanges>({ type: 'object', additionalProperties: true });
 */
export function writtenByService<T>(jsonSchema: JsonSchema): Schema<T> {
  return { read: (input) => input as T, jsonSchema };
}

/** The value a schema reads. */
export type SchemaValue<S> = S extends Schema<infer T> ? T : never;

/**
 * A closed JSON object of exactly these members, all required (a nested value that responses
 * show, such as an import job's `counts`): each member reads with its schema.
 *
 * @example
 * const failure = objectOf({ code: string(), message: string() }, { description: 'why it failed' });
 */
export function objectOf<const M extends Record<string, Schema<unknown>>>(
  members: M,
  options: { description?: string } = {},
): Schema<{ -readonly [K in keyof M]: SchemaValue<M[K]> }> {
  return {
    read(input, field, issues) {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a JSON object` });
        return undefined;
      }
      const source = input as Record<string, unknown>;
      const issueCountBefore = issues.length;
      const output = Object.fromEntries(
        Object.entries(members).map(([name, member]) => [
          name,
          member.read(source[name], `${field}.${name}`, issues),
        ]),
      );
      return issues.length === issueCountBefore ? (output as never) : undefined;
    },
    jsonSchema: {
      type: 'object',
      ...(options.description ? { description: options.description } : {}),
      properties: Object.fromEntries(
        Object.entries(members).map(([name, member]) => [name, member.jsonSchema]),
      ),
      required: Object.keys(members),
      additionalProperties: false,
    },
  };
}

/** A field required only when another field has a given value (`owner` when `action` is `transfer`). */
export interface RequiredWhen {
  field: string;
  equals: string;
}

/** An object schema: properties not in the shape are ignored. */
export interface ObjectSchema<S extends Shape> extends Schema<Infer<S>> {
  readonly shape: S;
  /** Parses a whole request part, throwing {@link ValidationError} with every issue found. */
  parse(input: unknown, field?: string): Infer<S>;
}

/**
 * An object schema. `requiredWhen` names fields that must be given, and not empty, when another
 * field has a value; the JSON Schema says it as `if`/`then`.
 */
export function object<S extends Shape>(
  shape: S,
  options: { requiredWhen?: { [K in keyof S]?: RequiredWhen } } = {},
): ObjectSchema<S> {
  const conditions = Object.entries(options.requiredWhen ?? {}) as Array<[string, RequiredWhen]>;
  const read = (input: unknown, field: string, issues: FieldIssue[]): Infer<S> | undefined => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a JSON object` });
      return undefined;
    }
    const source = input as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    const issueCountBefore = issues.length;
    for (const [name, property] of Object.entries(shape)) {
      const value = Object.hasOwn(source, name) ? source[name] : undefined;
      if (value === undefined || value === null) {
        if (property.presence === 'required') {
          issues.push({ field: name, code: 'REQUIRED', message: `${name} is required` });
        } else if (property.presence === 'defaulted') {
          output[name] = property.defaultValue;
        }
        continue;
      }
      const parsed = property.schema.read(value, name, issues);
      if (parsed !== undefined) output[name] = parsed;
    }
    for (const [name, condition] of conditions) {
      const given = Object.hasOwn(source, name) ? source[name] : undefined;
      if (
        source[condition.field] === condition.equals &&
        (given === undefined || given === null || given === '')
      ) {
        issues.push({
          field: name,
          code: 'REQUIRED',
          message: `${name} is required when ${condition.field} is ${condition.equals}`,
        });
      }
    }
    return issues.length === issueCountBefore ? (output as Infer<S>) : undefined;
  };
  const requiredNames = Object.entries(shape)
    .filter(([, property]) => property.presence === 'required')
    .map(([name]) => name);
  return {
    shape,
    read,
    parse(input, field = 'body') {
      const issues: FieldIssue[] = [];
      const parsed = read(input, field, issues);
      if (parsed === undefined) throw new ValidationError(issues);
      return parsed;
    },
    jsonSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(shape).map(([name, property]) => [
          name,
          {
            // `null` is taken for every field that may be left out (it reads as "not given").
            ...(property.presence === 'required'
              ? property.schema.jsonSchema
              : nullableJsonSchema(property.schema.jsonSchema)),
            ...(property.description ? { description: property.description } : {}),
            ...(property.presence === 'defaulted' ? { default: property.defaultValue } : {}),
          },
        ]),
      ),
      ...(requiredNames.length > 0 ? { required: requiredNames } : {}),
      ...(conditions.length > 0
        ? {
            allOf: conditions.map(([name, condition]) => ({
              if: {
                properties: { [condition.field]: { const: condition.equals } },
                required: [condition.field],
              },
              // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then`, never awaited
              then: { required: [name], properties: { [name]: { type: 'string', minLength: 1 } } },
            })),
          }
        : {}),
    },
  };
}
