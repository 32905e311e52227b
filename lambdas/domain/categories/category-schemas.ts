/** Request shapes of the category operations (spec 4.5-4.7, limits in section 8). */
import { pageQueryFields } from '#shared/pagination.js';
import { defaulted, metadata, object, oneOf, optional, required, string } from '#shared/schema.js';

export const CATEGORY_STATUSES = ['active', 'inactive', 'archived'] as const;
export type CategoryStatus = (typeof CATEGORY_STATUSES)[number];

export const LIST_SORTS = ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

const categoryName = string({ min: 2, max: 100 });
const categoryDescription = string({ max: 500 });

export const categoryIdPath = object({
  categoryId: required(string({ format: 'uuid' })),
});

export const listCategoriesQuery = object({
  ...pageQueryFields(),
  status: defaulted(oneOf(['active', 'inactive', 'all'] as const), 'active', 'status filter'),
  name: optional(string({ max: 100 }), 'case-insensitive partial match on the name'),
  sort: defaulted(oneOf(LIST_SORTS), 'createdAt:desc'),
});

export const createCategoryBody = object({
  name: required(categoryName, 'unique within the company, ignoring case'),
  description: optional(categoryDescription),
  metadata: optional(metadata()),
});

export const updateCategoryBody = object({
  name: optional(categoryName),
  description: optional(categoryDescription),
  status: optional(oneOf(CATEGORY_STATUSES)),
  metadata: optional(metadata(), 'replaces the stored metadata'),
});
