/** The rules of categories (spec 4.5-4.7): creation, change, reading and listing. */
import { randomUUID } from 'node:crypto';
import {
  type CategoryRecord,
  insertCategory,
  listCategories as listCategoryRecords,
  replaceCategory,
  StaleCategoryError,
} from '#repositories/category-repository.js';
import {
  findCategoryWithSubcategories,
  listSubcategoriesOf,
  type SubcategoryRecord,
} from '#repositories/subcategory-repository.js';
import { nextTimestamp, nowIso } from '#shared/clock.js';
import { categoryNotFound } from '#shared/errors.js';
import { retryLostRaces } from '#shared/lost-race-retry.js';
import { type CursorPage, type PageScope, pagePositionOf, toCursorPage } from '#shared/page-cursor.js';
import type { Infer } from '#shared/schema.js';
import { toSubcategorySummary } from '../subcategories/subcategory-view.js';
import type { createCategoryBody, listCategoriesQuery, updateCategoryBody } from './category-schemas.js';
import { type CategoryView, toCategoryView } from './category-view.js';

type CreateCategoryInput = Infer<typeof createCategoryBody.shape>;
type UpdateCategoryInput = Infer<typeof updateCategoryBody.shape>;
type ListCategoriesInput = Infer<typeof listCategoriesQuery.shape>;

/** The category with its live subcategories (one Query, skipped when it has none). */
async function withSubcategories(record: CategoryRecord): Promise<CategoryView> {
  if (record.subcategoryCount <= 0) return toCategoryView(record);
  return viewWith(record, await listSubcategoriesOf(record.companyId, record.id));
}

const viewWith = (record: CategoryRecord, subcategories: SubcategoryRecord[]): CategoryView =>
  toCategoryView(
    record,
    subcategories.filter((subcategory) => subcategory.status !== 'removed').map(toSubcategorySummary),
  );

/**
 * Creates an `active` category with zero statistics.
 *
 * @example
 * const category = await createCategory(companyId, { name: 'Vehicles' });
 * category.statistics // { subcategoryCount: 0, objectCount: 0 }
 */
export async function createCategory(companyId: string, input: CreateCategoryInput): Promise<CategoryView> {
  const createdAt = nowIso();
  const record: CategoryRecord = {
    id: randomUUID(),
    companyId,
    name: input.name,
    description: input.description ?? '',
    status: 'active',
    metadata: input.metadata ?? {},
    createdAt,
    updatedAt: createdAt,
    version: 1,
    subcategoryCount: 0,
    objectCount: 0,
  };
  await insertCategory(record);
  return toCategoryView(record);
}

/** Reads one category of the company; 404 `CATEGORY_NOT_FOUND` for unknown and foreign ids. */
export async function getCategory(companyId: string, categoryId: string): Promise<CategoryView> {
  // One Query of the category's partition: the category and its subcategories are neighbours.
  const { category, subcategories } = await findCategoryWithSubcategories(companyId, categoryId);
  if (!category) throw categoryNotFound(categoryId);
  return viewWith(category, subcategories);
}

/**
 * Applies the given fields (omitted ones stay) and moves `updatedAt`. `metadata`, when given,
 * replaces the stored metadata.
 */
export async function updateCategory(
  companyId: string,
  categoryId: string,
  changes: UpdateCategoryInput,
): Promise<CategoryView> {
  return retryLostRaces(
    'category',
    (error) => error instanceof StaleCategoryError,
    async () => {
      // The subcategories are read with the category, before the write, which does not change them.
      const { category: before, subcategories } = await findCategoryWithSubcategories(companyId, categoryId);
      if (!before) throw categoryNotFound(categoryId);
      const after: CategoryRecord = {
        ...before,
        name: changes.name ?? before.name,
        description: changes.description ?? before.description,
        status: changes.status ?? before.status,
        metadata: changes.metadata ?? before.metadata,
        updatedAt: nextTimestamp(before.updatedAt),
        version: before.version + 1,
      };
      await replaceCategory(before, after);
      return viewWith(after, subcategories);
    },
  );
}

/** A page of the company's categories, filtered and sorted as asked. */
export async function listCategories(
  companyId: string,
  query: ListCategoriesInput,
): Promise<CursorPage<CategoryView>> {
  const scope: PageScope = {
    tenantId: companyId,
    list: 'categories',
    parameters: { status: query.status, name: query.name, sort: query.sort },
  };
  const position = await pagePositionOf(query, scope);
  const { records, total, lastKey } = await listCategoryRecords(companyId, {
    status: query.status,
    nameContains: query.name,
    sort: query.sort,
    limit: position.limit,
    offset: position.offset,
    startAfter: position.startAfter,
  });
  return toCursorPage(await Promise.all(records.map(withSubcategories)), position, total, scope, lastKey);
}
