/** The category as the API shows it (spec 2.3). */
import { type CategoryRecord, categoryEntity } from '#repositories/category-entity.js';
import { computed, defineView, group, type ViewOf, viewRef } from '#shared/entity.js';
import { arrayOf } from '#shared/schema.js';
import { type SubcategorySummary, subcategorySummaryView } from '../subcategories/subcategory-view.js';

export const categoryView = defineView(categoryEntity, {
  name: 'Category',
  description: 'Spec 2.3',
  fields: {
    statistics: group(['subcategoryCount', 'objectCount']),
    subcategories: computed(arrayOf(viewRef(subcategorySummaryView))),
  },
});
export type CategoryView = ViewOf<typeof categoryView>;

export const toCategoryView = (
  record: CategoryRecord,
  subcategories: SubcategorySummary[] = [],
): CategoryView => categoryView.toView(record, { subcategories });
