/** Request shapes of the category operations (spec 4.5-4.7, limits in section 8). */
import { categoryEntity } from '#repositories/category-entity.js';
import { pageQueryFields } from '#shared/pagination.js';
import { defaulted, object, oneOf, optional, required, string } from '#shared/schema.js';

const LIST_SORTS = ['createdAt:desc', 'createdAt:asc', 'name:asc', 'name:desc'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

const categoryName = categoryEntity.attributes.name.schema;
const categoryDescription = categoryEntity.attributes.description.schema;

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
  metadata: optional(categoryEntity.attributes.metadata.schema),
});

export const updateCategoryBody = object({
  name: optional(categoryName),
  description: optional(categoryDescription),
  status: optional(categoryEntity.attributes.status.schema),
  metadata: optional(categoryEntity.attributes.metadata.schema, 'replaces the stored metadata'),
});
