/** Subcategories as the API shows them (spec 2.4: the shape inside categories, and the detail). */
import {
  SUBCATEGORY_STATUSES,
  type SubcategoryFileRecord,
  type SubcategoryRecord,
  subcategoryEntity,
  subcategoryFileEntity,
} from '#repositories/subcategory-entity.js';
import { computed, defineView, embedded, group, shownAs, type ViewOf } from '#shared/entity.js';
import { arrayOf, number, oneOf, string } from '#shared/schema.js';

const DAY_MS = 86_400_000;

/**
 * Objects created per day since the subcategory was created, counting at least one day (so a
 * new subcategory does not show a huge rate), rounded to two decimals.
 */
export function averageObjectsPerDay(objectCount: number, createdAt: string, now = Date.now()): number {
  const days = Math.max(1, (now - Date.parse(createdAt)) / DAY_MS);
  return Math.round((objectCount / days) * 100) / 100;
}

/** Removed subcategories are never shown, so views say only the other statuses. */
const shownStatus = oneOf(SUBCATEGORY_STATUSES.filter((status) => status !== 'removed'));

/** A subcategory in the shape category responses embed (spec 2.4, first shape). */
export const subcategorySummaryView = defineView(subcategoryEntity, {
  name: 'SubcategorySummary',
  description: 'A subcategory inside a category (spec 2.4, first shape)',
  omit: ['imageId', 'lastObjectCreated'],
  fields: {
    status: shownAs('status', { schema: shownStatus, description: 'removed subcategories are never shown' }),
    statistics: group(['objectCount']),
  },
});
export type SubcategorySummary = ViewOf<typeof subcategorySummaryView>;

export const toSubcategorySummary = (record: SubcategoryRecord): SubcategorySummary =>
  subcategorySummaryView.toView(record);

/** A file of the detail's `files`. */
const subcategoryFileView = defineView(subcategoryFileEntity, { name: 'SubcategoryFile' });

/** The single-subcategory detail (spec 2.4, second shape). */
export const subcategoryDetailView = defineView(subcategoryEntity, {
  name: 'SubcategoryDetail',
  description: 'The single-subcategory detail (spec 2.4, second shape)',
  omit: ['metadata', 'updatedAt'],
  fields: {
    status: shownAs('status', { schema: shownStatus }),
    path: computed(string(), { description: '`<category name>/<subcategory name>`' }),
    createDate: 'createdAt',
    files: computed(arrayOf(embedded(subcategoryFileView)), {
      description: 'every image the subcategory has had',
    }),
    statistics: group({
      totalObjects: 'objectCount',
      lastObjectCreated: 'lastObjectCreated',
      averageObjectsPerDay: computed(number({ min: 0 }), {
        description: 'objects ÷ days since creation (at least one), 2 decimals',
      }),
    }),
  },
});
export type SubcategoryDetail = ViewOf<typeof subcategoryDetailView>;

export function toSubcategoryDetail(
  record: SubcategoryRecord,
  categoryName: string,
  files: SubcategoryFileRecord[],
): SubcategoryDetail {
  return subcategoryDetailView.toView(record, {
    path: `${categoryName}/${record.name}`,
    files: files.map((file) => subcategoryFileView.toView(file)),
    statistics: { averageObjectsPerDay: averageObjectsPerDay(record.objectCount, record.createdAt) },
  });
}
