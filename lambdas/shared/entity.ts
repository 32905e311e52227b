/**
 * One declaration per stored entity, as ElectroDB's `Entity` declares attributes once: each
 * attribute's schema (type and constraints) and how it is stored. From it derive the record type
 * ({@link RecordOf}), the item codec (`toItem` / `fromItem`), and, through {@link defineView},
 * the view the API shows and its response JSON Schema ({@link ViewOf}, `view.jsonSchema`).
 * Keys and index attributes are declared apart, in `lambdas/repositories/table-keys.ts`; a
 * repository spreads `toItem` beside them. A small helper of our own rather than a library, so
 * no function's bundle or init grows. Repositories call the codec inside their functions (`(item) => entity.fromItem(item)`, not
 * `= entity.fromItem` at module level), so that a bundle that never decodes an entity can drop
 * its declaration (package.json `sideEffects`).
 */
import type { JsonSchema, Schema } from './schema.js';

/** How one attribute is stored, read back and shown. */
export interface AttributeOptions<T = unknown> {
  /** Stored and read back, never shown in a view (tenancy, optimistic-lock versions, storage keys). */
  readonly hidden?: boolean;
  /**
   * `json`: stored as JSON text under `<name>Json`: it round-trips any JSON exactly (DynamoDB maps
   * would not). `set`: an array of strings stored as a DynamoDB string set, so that updates can
   * ADD and DELETE members one by one; an empty array is left out (DynamoDB has no empty set).
   */
  readonly storedAs?: 'json' | 'set';
  /**
   * An object value stored as one item attribute per member (member → attribute name), so that
   * updates can ADD to each member; a member the item lacks reads as that member of `missing`.
   */
  readonly storedAcross?: Readonly<Record<string, string>>;
  /** What an item written before the attribute existed reads as. */
  readonly missing?: T;
  /** The record may lack it; then the item lacks it too. */
  readonly optional?: boolean;
  /** Said for it in the views' JSON Schema (over the schema's own description). */
  readonly description?: string;
}

/** An attribute: its schema (`S`, kept as given, reads a `T`) and how it is stored. */
export interface Attribute<
  T,
  O extends AttributeOptions<T> = AttributeOptions<T>,
  S extends Schema<unknown> = Schema<T>,
> {
  readonly schema: S;
  readonly options: O;
}

type SchemaValue<S> = S extends Schema<infer T> ? T : never;

/**
 * Declares an attribute.
 *
 * @example
 * const version = attribute(integer({ min: 1 }), { hidden: true });
 */
export function attribute<
  S extends Schema<unknown>,
  const O extends AttributeOptions<SchemaValue<S>> = Record<never, never>,
>(schema: S, options?: O): Attribute<SchemaValue<S>, O, S> {
  return { schema, options: options ?? ({} as O) };
}

type Attributes = Record<string, Attribute<unknown>>;
type ValueOf<A> = A extends { readonly schema: Schema<infer T> } ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalNames<A extends Attributes> = {
  [K in keyof A]: A[K]['options']['optional'] extends true ? K : never;
}[keyof A];
type HiddenNames<A extends Attributes> = {
  [K in keyof A]: A[K]['options']['hidden'] extends true ? K : never;
}[keyof A];

/** The record of attributes `A`: what repositories return and services work with. */
type RecordOfAttributes<A extends Attributes> = Simplify<
  { -readonly [K in Exclude<keyof A, OptionalNames<A>>]: ValueOf<A[K]> } & {
    -readonly [K in OptionalNames<A>]?: ValueOf<A[K]>;
  }
>;

/** A stored entity: its `entity` item attribute, its attributes and their item codec. */
export interface Entity<A extends Attributes = Attributes> {
  readonly type: string;
  readonly attributes: A;
  /** The item attributes of a record: `entity`, then each attribute under its stored name. */
  toItem(record: RecordOfAttributes<A>): Record<string, unknown>;
  /** The record of an item, with `missing` values for attributes that older items lack. */
  fromItem(item: Record<string, unknown>): RecordOfAttributes<A>;
}

/** The record type of an entity. */
export type RecordOf<E extends Entity> = E extends Entity<infer A> ? RecordOfAttributes<A> : never;

const storedName = (name: string, options: AttributeOptions): string =>
  options.storedAs === 'json' ? `${name}Json` : name;

/**
 * Declares an entity. `type` is the `entity` attribute of its items (the table stream and the
 * tools tell items apart by it).
 *
 * @example
 * const noteEntity = defineEntity('note', {
 *   id: attribute(string({ format: 'uuid' })),
 *   companyId: attribute(string(), { hidden: true }),
 *   metadata: attribute(metadata(), { storedAs: 'json' }),
 *   likeCount: attribute(integer({ min: 0 }), { missing: 0 }),
 * });
 * type NoteRecord = RecordOf<typeof noteEntity>;
 * const item = { ...noteKey(record), ...noteEntity.toItem(record) }; // metadataJson, entity: 'note'
 */
export function defineEntity<const A extends Attributes>(type: string, attributes: A): Entity<A> {
  const entries = Object.entries(attributes);
  return {
    type,
    attributes,
    toItem(record) {
      const item: Record<string, unknown> = { entity: type };
      for (const [name, { options }] of entries) {
        const value = (record as Record<string, unknown>)[name];
        // Left out rather than stored as undefined (the client drops undefined values anyway).
        if (value === undefined) continue;
        if (options.storedAcross) {
          for (const [member, stored] of Object.entries(options.storedAcross)) {
            item[stored] = (value as Record<string, unknown>)[member];
          }
        } else if (options.storedAs === 'set') {
          if ((value as string[]).length > 0) item[name] = new Set(value as string[]);
        } else {
          item[storedName(name, options)] = options.storedAs === 'json' ? JSON.stringify(value) : value;
        }
      }
      return item;
    },
    fromItem(item) {
      const record: Record<string, unknown> = {};
      for (const [name, { options }] of entries) {
        if (options.storedAcross) {
          const missing = (options.missing ?? {}) as Record<string, unknown>;
          record[name] = Object.fromEntries(
            Object.entries(options.storedAcross).map(([member, stored]) => [
              member,
              item[stored] ?? missing[member],
            ]),
          );
          continue;
        }
        const stored = item[storedName(name, options)];
        let value: unknown;
        if (stored !== undefined) {
          if (options.storedAs === 'json') value = JSON.parse(stored as string);
          else if (options.storedAs === 'set') value = [...(stored as Set<string>)];
          else value = stored;
        }
        // A copy, so that records never share a default array or object.
        else if (typeof options.missing === 'object' && options.missing !== null) {
          value = structuredClone(options.missing);
        } else value = options.missing;
        if (value !== undefined) record[name] = value;
      }
      return record as RecordOfAttributes<A>;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Views

/** A view field whose value the caller gives to `toView` (it is not in the record). */
export interface Computed<T> {
  readonly kind: 'computed';
  readonly schema: Schema<T>;
  readonly description?: string;
  /** The top-level field it follows, instead of coming last. */
  readonly after?: string;
}

/** An attribute shown under a field's name, with a narrower schema or its own description. */
export interface Shown<N extends string, T> {
  readonly kind: 'attribute';
  readonly attribute: N;
  readonly schema?: Schema<T>;
  readonly description?: string;
}

/** A nested object of view fields. */
export interface Group<M extends ViewFields> {
  readonly kind: 'group';
  readonly members: M;
  readonly description?: string;
}

/** A view field: an attribute's name (shown under the field's name), a group, or a computed value. */
type ViewField = string | Shown<string, unknown> | Group<ViewFields> | Computed<unknown>;
export type ViewFields = { readonly [field: string]: ViewField };

/**
 * A view field the caller computes (a category's subcategories, a detail's `path`).
 *
 * @example
 * subcategories: computed(arrayOf(viewRef(subcategorySummaryView)))
 */
export const computed = <T>(
  schema: Schema<T>,
  options: { description?: string; after?: string } = {},
): Computed<T> => ({
  kind: 'computed',
  schema,
  description: options.description,
  after: options.after,
});

/**
 * An attribute shown with a narrower schema than it is stored with (the caller shows only
 * records whose value fits, e.g. never a removed subcategory), or with a view's own description.
 *
 * @example
 * status: shownAs('status', { schema: oneOf(['active', 'delisted']) })
 */
export function shownAs<const N extends string, T = never>(
  attributeName: N,
  options: { schema?: Schema<T>; description?: string },
): Shown<N, T> {
  return { kind: 'attribute', attribute: attributeName, ...options };
}

/**
 * A nested object: attribute names (an array, shown under their own names) or view fields.
 *
 * @example
 * statistics: group(['subcategoryCount', 'objectCount'])
 * blockchain: group({ totalObjects: 'objectCount', averageObjectsPerDay: computed(number()) })
 */
export function group<const M extends ViewFields | readonly string[]>(
  members: M,
  options: { description?: string } = {},
): Group<M extends readonly string[] ? { [K in M[number]]: K } : M> {
  const fields = Array.isArray(members)
    ? Object.fromEntries((members as readonly string[]).map((name) => [name, name]))
    : members;
  return { kind: 'group', members: fields as never, description: options.description };
}

type FieldValue<A extends Attributes, F> = F extends keyof A
  ? ValueOf<A[F]>
  : F extends Shown<infer N, infer T>
    ? [T] extends [never]
      ? ValueOf<A[N]>
      : T
    : F extends Computed<infer T>
      ? T
      : F extends Group<infer M>
        ? Simplify<{ -readonly [K in keyof M]: FieldValue<A, M[K]> }>
        : never;

type SourceNames<F> = {
  [K in keyof F]: F[K] extends string
    ? F[K]
    : F[K] extends Shown<infer N, unknown>
      ? N
      : F[K] extends Group<infer M>
        ? SourceNames<M>
        : never;
}[keyof F];

type ComputedNames<F> = {
  [K in keyof F]: F[K] extends Computed<unknown>
    ? K
    : F[K] extends Group<infer M>
      ? [ComputedNames<M>] extends [never]
        ? never
        : K
      : never;
}[keyof F];

/** The values a view's computed fields take, nested as their groups are. */
type ComputedOf<F> = Simplify<{
  -readonly [K in ComputedNames<F>]: F[K] extends Computed<infer T>
    ? T
    : F[K] extends Group<infer M>
      ? ComputedOf<M>
      : never;
}>;

type ShownNames<A extends Attributes, F, Omitted extends string> = Exclude<
  keyof A,
  HiddenNames<A> | SourceNames<F> | keyof F | Omitted
>;

// An optional attribute shown under its own name is optional in the view too.
type ViewShape<A extends Attributes, F, Omitted extends string> = Simplify<
  { -readonly [K in Exclude<ShownNames<A, F, Omitted>, OptionalNames<A>>]: ValueOf<A[K]> } & {
    -readonly [K in Extract<ShownNames<A, F, Omitted>, OptionalNames<A>>]?: ValueOf<A[K]>;
  } & {
    -readonly [K in keyof F]: FieldValue<A, F[K]>;
  }
>;

/** A view of an entity: how a record is shown, and the JSON Schema of what it shows. */
export interface View<A extends Attributes, F extends ViewFields, Shape> {
  /** Its name in the OpenAPI document's `components.schemas`. */
  readonly name: string;
  readonly entity: Entity<A>;
  /** A closed object: every field required, `additionalProperties: false`. */
  readonly jsonSchema: JsonSchema;
  toView(
    record: RecordOfAttributes<A>,
    ...computed: [ComputedNames<F>] extends [never] ? [] : [ComputedOf<F>]
  ): Shape;
}

/** The type of what a view shows. */
export type ViewOf<V> = V extends { toView(...args: never[]): infer Shape } ? Shape : never;

/** What embedding a view needs of it: its name and JSON Schema. */
type AnyView = { readonly name: string; readonly jsonSchema: JsonSchema; toView(...args: never[]): unknown };

/**
 * The schema of a view's response as a reference to its named component schema (for a field that
 * embeds another view). Reading takes any JSON object: views are written, not read.
 */
export function viewRef<V extends AnyView>(view: V): Schema<ViewOf<V>> {
  return { read: (input) => input as ViewOf<V>, jsonSchema: { $ref: `#/components/schemas/${view.name}` } };
}

/** The schema of a view's response written out in place (a shape with no component name of its own). */
export function embedded<V extends AnyView>(view: V): Schema<ViewOf<V>> {
  const { description: _description, ...inline } = view.jsonSchema;
  return { read: (input) => input as ViewOf<V>, jsonSchema: inline };
}

function closedObject(
  properties: Record<string, JsonSchema>,
  description: string | undefined,
  optional: ReadonlySet<string> = new Set(),
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    additionalProperties: false,
  };
}

const described = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description ? { ...schema, description } : schema;

/**
 * Declares a view of an entity: by default its attributes that are not hidden, under their own
 * names and in their order. `fields` adds or reshapes: an attribute's name under another field
 * name (a rename), a {@link group} (a nested object), a {@link computed} value. A renamed or
 * grouped attribute takes the place of the first attribute it shows; computed fields come last.
 * `omit` leaves attributes out (a summary of a larger entity).
 *
 * @example
 * export const categoryView = defineView(categoryEntity, {
 *   name: 'Category',
 *   description: 'Spec 2.3',
 *   fields: {
 *     statistics: group(['subcategoryCount', 'objectCount']),
 *     subcategories: computed(arrayOf(viewRef(subcategorySummaryView))),
 *   },
 * });
 * export type CategoryView = ViewOf<typeof categoryView>;
 * categoryView.toView(record, { subcategories: [] });
 */
export function defineView<
  A extends Attributes,
  const F extends ViewFields = Record<never, never>,
  const Omitted extends Extract<keyof A, string> = never,
>(
  entity: Entity<A>,
  declaration: { name: string; description?: string; fields?: F; omit?: readonly Omitted[] },
): View<A, F, ViewShape<A, F, Omitted>> {
  const fields: ViewFields = declaration.fields ?? {};
  const sources = new Map<string, string>(); // attribute name → the top-level field that shows it
  const collectSources = (field: ViewField, topLevel: string) => {
    if (typeof field === 'string') sources.set(field, sources.get(field) ?? topLevel);
    else if (field.kind === 'attribute')
      sources.set(field.attribute, sources.get(field.attribute) ?? topLevel);
    else if (field.kind === 'group')
      for (const member of Object.values(field.members)) collectSources(member, topLevel);
  };
  for (const [name, field] of Object.entries(fields)) collectSources(field, name);
  const omitted = new Set<string>(declaration.omit ?? []);

  // The field order: attributes in declaration order, each reshaped field at its first source.
  const order: string[] = [];
  for (const [name, { options }] of Object.entries(entity.attributes)) {
    const shownBy = sources.get(name) ?? (Object.hasOwn(fields, name) ? name : undefined);
    if (shownBy !== undefined) {
      if (!order.includes(shownBy)) order.push(shownBy);
    } else if (!options.hidden && !omitted.has(name)) order.push(name);
  }
  for (const name of Object.keys(fields)) if (!order.includes(name)) order.push(name);
  // A computed field placed `after` another moves there (a shape older than its declaration).
  for (const [name, field] of Object.entries(fields)) {
    if (typeof field === 'string' || field.kind !== 'computed' || field.after === undefined) continue;
    if (!order.includes(field.after)) {
      throw new Error(`View ${declaration.name}: ${name} follows ${field.after}, which it does not show`);
    }
    order.splice(order.indexOf(name), 1);
    order.splice(order.indexOf(field.after) + 1, 0, name);
  }

  const attributeOf = (name: string) => {
    const declared = entity.attributes[name];
    if (!declared) throw new Error(`View ${declaration.name}: ${name} is not an attribute of ${entity.type}`);
    return declared;
  };
  const schemaOf = (field: ViewField): JsonSchema => {
    if (typeof field === 'string') {
      const declared = attributeOf(field);
      return described(declared.schema.jsonSchema, declared.options.description);
    }
    if (field.kind === 'attribute') {
      const declared = attributeOf(field.attribute);
      return described(
        (field.schema ?? declared.schema).jsonSchema,
        field.description ?? declared.options.description,
      );
    }
    if (field.kind === 'computed') return described(field.schema.jsonSchema, field.description);
    return closedObject(
      Object.fromEntries(Object.entries(field.members).map(([name, member]) => [name, schemaOf(member)])),
      field.description,
    );
  };
  const fieldOf = (name: string): ViewField => fields[name] ?? name;

  const shownValue = (
    field: ViewField,
    name: string,
    record: Record<string, unknown>,
    given: unknown,
  ): unknown => {
    if (typeof field === 'string') return record[field];
    if (field.kind === 'attribute') return record[field.attribute];
    const givenValues = (given ?? {}) as Record<string, unknown>;
    if (field.kind === 'computed') return givenValues[name];
    return Object.fromEntries(
      Object.entries(field.members).map(([member, memberField]) => [
        member,
        shownValue(memberField, member, record, givenValues[name]),
      ]),
    );
  };

  return {
    name: declaration.name,
    entity,
    jsonSchema: closedObject(
      Object.fromEntries(order.map((name) => [name, schemaOf(fieldOf(name))])),
      declaration.description,
      new Set(
        order.filter((name) => fields[name] === undefined && entity.attributes[name]?.options.optional),
      ),
    ),
    toView(record, ...computedValues) {
      const given = computedValues[0];
      const shown: Record<string, unknown> = {};
      for (const name of order) {
        const value = shownValue(fieldOf(name), name, record as Record<string, unknown>, given);
        // An optional attribute the record lacks is left out, as the schema allows.
        if (value !== undefined || fields[name] !== undefined) shown[name] = value;
      }
      return shown as ViewShape<A, F, Omitted>;
    },
  };
}
