/** Subcategories as the API shows them (spec 2.4: the shape inside categories, and the detail). */
import type { SubcategoryFileRecord, SubcategoryRecord } from '#repositories/subcategory-repository.js';
import type { SubcategorySummary } from '../categories/category-view.js';

const DAY_MS = 86_400_000;

/**
 * Objects created per day since the subcategory was created, counting at least one day (so a
 * new subcategory does not show a huge rate), rounded to two decimals.
 */
export function averageObjectsPerDay(objectCount: number, createdAt: string, now = Date.now()): number {
  const days = Math.max(1, (now - Date.parse(createdAt)) / DAY_MS);
  return Math.round((objectCount / days) * 100) / 100;
}

export function toSubcategorySummary(record: SubcategoryRecord): SubcategorySummary {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    status: record.status,
    categoryId: record.categoryId,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    statistics: { objectCount: record.objectCount },
  };
}

export interface SubcategoryDetail {
  id: string;
  name: string;
  status: string;
  path: string;
  description: string;
  imageId: string | null;
  createDate: string;
  categoryId: string;
  files: Array<{ id: string; name: string; title: string; mimeType: string; uploadDate: string }>;
  statistics: { totalObjects: number; lastObjectCreated: string | null; averageObjectsPerDay: number };
}

export function toSubcategoryDetail(
  record: SubcategoryRecord,
  categoryName: string,
  files: SubcategoryFileRecord[],
): SubcategoryDetail {
  return {
    id: record.id,
    name: record.name,
    status: record.status,
    path: `${categoryName}/${record.name}`,
    description: record.description,
    imageId: record.imageId,
    createDate: record.createdAt,
    categoryId: record.categoryId,
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      title: file.title,
      mimeType: file.mimeType,
      uploadDate: file.uploadDate,
    })),
    statistics: {
      totalObjects: record.objectCount,
      lastObjectCreated: record.lastObjectCreated,
      averageObjectsPerDay: averageObjectsPerDay(record.objectCount, record.createdAt),
    },
  };
}
