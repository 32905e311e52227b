/**
 * The keys of a stored entity, as ElectroDB declares `indexes` beside attributes: the table key
 * and each global secondary index it writes, as templates over named parts
 * (`T#{companyId}#OBJECT#{id}`). `table-keys.ts` declares every entity's; repositories build
 * every key from them, so no key format is written twice; `data-model.ts` says which access
 * pattern reads which, and `docs/data-model.md` is generated from both.
 *
 * A part is an attribute or a value derived from attributes (`{nameKey}`: the comparable name);
 * callers pass it formatted (padded numbers, comparable names), as it is stored.
 */
import type { IndexName } from './table-definition.js';

/** The names of the `{part}`s of a template. */
export type PartsOf<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PartsOf<Rest>
  : never;

/** The values a template's parts take. */
type PartValues<T extends string> = { readonly [K in PartsOf<T>]: string };

/** A partition and sort key, as templates. */
export interface KeyTemplates {
  readonly pk: string;
  readonly sk: string;
}

/** The indexes an entity may write: each a partition and sort key template. */
export type IndexTemplates = { readonly [N in IndexName]?: KeyTemplates };

export interface KeyDeclaration<T extends KeyTemplates, I extends IndexTemplates> {
  /** The `entity` attribute of the items (an attribute declaration's `type`, when there is one). */
  readonly entity: string;
  readonly table: T;
  readonly indexes?: I;
}

type IndexParts<I> = {
  [N in keyof I]: I[N] extends KeyTemplates ? PartsOf<I[N]['pk'] | I[N]['sk']> : never;
}[keyof I];

/** The key builders of one entity. */
export interface EntityKeys<T extends KeyTemplates, I extends IndexTemplates> extends KeyDeclaration<T, I> {
  /** The item's table key. */
  key(values: PartValues<T['pk'] | T['sk']>): { pk: string; sk: string };
  /** The table partition (a Query's `pk`). */
  partition(values: PartValues<T['pk']>): string;
  /** The start of the partition up to the first part not given (`T#*#LEDGER#`, for an IAM condition). */
  partitionPrefix(values?: Partial<PartValues<T['pk']>>): string;
  /** The table sort key. */
  sortKey(values: PartValues<T['sk']>): string;
  /**
   * The start of the sort key up to the first part not given (a `begins_with` or range bound):
   * `SUBCATEGORY_FILE#{subcategoryId}#{fileId}` with `subcategoryId` gives `SUBCATEGORY_FILE#<id>#`.
   */
  sortKeyPrefix(values?: Partial<PartValues<T['sk']>>): string;
  /** The index attributes of the item (`gsi1pk`, `gsi1sk`, ...), of every declared index or of `only`. */
  indexKeys(
    values: PartValues<IndexParts<I>>,
    only?: readonly (keyof I & IndexName)[],
  ): Record<string, string>;
  /** An index's partition (a Query's `gsiNpk`). */
  indexPartition<N extends keyof I & IndexName>(
    index: N,
    values: PartValues<I[N] extends KeyTemplates ? I[N]['pk'] : never>,
  ): string;
  /** The names of the indexes it writes. */
  readonly indexNames: readonly (keyof I & IndexName)[];
}

const PART = /\{([A-Za-z0-9]+)\}/g;

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PART, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Key template ${template}: no value for {${name}}`);
    return value;
  });
}

function prefix(template: string, values: Readonly<Record<string, string | undefined>>): string {
  let text = '';
  let last = 0;
  for (const match of template.matchAll(PART)) {
    text += template.slice(last, match.index);
    const value = values[match[1] as string];
    if (value === undefined) return text;
    text += value;
    last = match.index + match[0].length;
  }
  return text + template.slice(last);
}

/**
 * Declares an entity's keys and returns their builders.
 *
 * @example
 * export const noteKeys = defineKeys({
 *   entity: 'note',
 *   table: { pk: 'T#{companyId}#NOTE#{id}', sk: 'NOTE' },
 *   indexes: { gsi1: { pk: 'T#{companyId}#NOTES', sk: '{createdAt}#{id}' } },
 * });
 * noteKeys.key({ companyId, id }); // { pk: 'T#<companyId>#NOTE#<id>', sk: 'NOTE' }
 */
export function defineKeys<
  const T extends KeyTemplates,
  const I extends IndexTemplates = Record<never, never>,
>(declaration: KeyDeclaration<T, I>): EntityKeys<T, I> {
  const indexes = (declaration.indexes ?? {}) as Readonly<Record<string, KeyTemplates>>;
  const indexNames = Object.keys(indexes) as (keyof I & IndexName)[];
  return {
    ...declaration,
    indexNames,
    key: (values) => ({ pk: fill(declaration.table.pk, values), sk: fill(declaration.table.sk, values) }),
    partition: (values) => fill(declaration.table.pk, values),
    partitionPrefix: (values = {}) => prefix(declaration.table.pk, values),
    sortKey: (values) => fill(declaration.table.sk, values),
    sortKeyPrefix: (values = {}) => prefix(declaration.table.sk, values),
    indexKeys(values, only = indexNames) {
      const attributes: Record<string, string> = {};
      for (const name of only) {
        const templates = indexes[name] as KeyTemplates;
        attributes[`${name}pk`] = fill(templates.pk, values);
        attributes[`${name}sk`] = fill(templates.sk, values);
      }
      return attributes;
    },
    indexPartition: (index, values) => fill((indexes[index] as KeyTemplates).pk, values),
  };
}
