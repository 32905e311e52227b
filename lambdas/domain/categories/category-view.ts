/** The category as the API shows it (spec 2.3). */
import type { CategoryRecord } from '#repositories/category-repository.js';

/** A subcategory in the shape category responses embed (spec 2.4, first shape). */
export interface SubcategorySummary {
  id: string;
  name: string;
  description: string;
  status: string;
  categoryId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  statistics: { objectCount: number };
}

export interface CategoryView {
  id: string;
  name: string;
  description: string;
  status: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  statistics: { subcategoryCount: number; objectCount: number };
  subcategories: SubcategorySummary[];
}

export function toCategoryView(
  record: CategoryRecord,
  subcategories: SubcategorySummary[] = [],
): CategoryView {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    status: record.status,
    metadata: record.metadata,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    statistics: { subcategoryCount: record.subcategoryCount, objectCount: record.objectCount },
    subcategories,
  };
}
