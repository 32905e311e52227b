/**
 * Where import rows go. The company's categories and subcategories are read once per run (a
 * company has few, next to the rows of an import), then each row's target is looked up in
 * memory: by `subcategoryId` when it is one of this company's, else by the names `category`
 * and `subcategory` (compared ignoring case, as the names are unique). An exported row moved
 * to another company carries ids that are not this company's and names: its category and
 * subcategory are created by name where missing, so an export imports into an empty company.
 * With `createMissing`, rows that give names only create them too; otherwise an unknown name
 * is `SUBCATEGORY_NOT_FOUND`, like an unknown id.
 */
import { listCategories } from '#repositories/category-repository.js';
import { listSubcategoriesOf, type SubcategoryRecord } from '#repositories/subcategory-repository.js';
import type { ApiError, FieldIssue } from '#shared/errors.js';
import type { Principal } from '#shared/principal.js';
import { comparableName } from '#shared/text.js';
import { createCategoryBody } from '../categories/category-schemas.js';
import { createCategory } from '../categories/category-service.js';
import { createSubcategoryBody } from '../subcategories/subcategory-schemas.js';
import { createSubcategory } from '../subcategories/subcategory-service.js';
import type { RowTarget } from './import-row.js';

export interface ResolvedTarget {
  categoryId: string;
  subcategoryId: string;
}

type Resolution = { target: ResolvedTarget } | { issues: FieldIssue[] };

interface KnownCategory {
  id: string;
  subcategoriesByName: Map<string, SubcategoryRecord>;
}

const notFound = (field: string, message: string): Resolution => ({
  issues: [{ field, code: 'SUBCATEGORY_NOT_FOUND', message }],
});

export class ImportTargets {
  private readonly subcategoriesById = new Map<string, SubcategoryRecord>();
  private readonly categoriesByName = new Map<string, KnownCategory>();
  /** Creations run one at a time, so that two rows never create the same name twice. */
  private creations: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly principal: Principal,
    private readonly options: { createMissing: boolean; defaults: RowTarget },
  ) {}

  /** Reads the company's categories and subcategories. */
  static async load(
    principal: Principal,
    options: { createMissing: boolean; defaults: RowTarget },
  ): Promise<ImportTargets> {
    const targets = new ImportTargets(principal, options);
    const companyId = principal.tenantId;
    let startAfter: Record<string, unknown> | undefined;
    let offset = 0;
    for (;;) {
      const page = await listCategories(companyId, {
        status: 'all',
        sort: 'createdAt:asc',
        limit: 100,
        offset,
        startAfter,
      });
      const subcategoryLists = await Promise.all(
        page.records.map((category) => listSubcategoriesOf(companyId, category.id)),
      );
      page.records.forEach((category, at) => {
        targets.remember(category.id, category.name, subcategoryLists[at]!);
      });
      offset += page.records.length;
      startAfter = page.lastKey;
      if (page.records.length === 0 || !startAfter || offset >= page.total) break;
    }
    return targets;
  }

  private remember(
    categoryId: string,
    categoryName: string,
    subcategories: SubcategoryRecord[],
  ): KnownCategory {
    const known = this.categoriesByName.get(comparableName(categoryName)) ?? {
      id: categoryId,
      subcategoriesByName: new Map<string, SubcategoryRecord>(),
    };
    this.categoriesByName.set(comparableName(categoryName), known);
    for (const subcategory of subcategories) {
      this.subcategoriesById.set(subcategory.id, subcategory);
      if (subcategory.status !== 'removed')
        known.subcategoriesByName.set(comparableName(subcategory.name), subcategory);
    }
    return known;
  }

  /** A row's subcategory, or why it has none. */
  async resolve(row: RowTarget): Promise<Resolution> {
    const given = Object.values(row).some((value) => value !== undefined) ? row : this.options.defaults;
    const byId = given.subcategoryId ? this.subcategoriesById.get(given.subcategoryId) : undefined;
    if (byId && byId.status !== 'removed') {
      if (given.categoryId && given.categoryId !== byId.categoryId) {
        return notFound(
          'subcategoryId',
          `No subcategory ${given.subcategoryId} in category ${given.categoryId}`,
        );
      }
      return this.active(byId);
    }
    if (given.category === undefined || given.subcategory === undefined) {
      if (given.subcategoryId)
        return notFound('subcategoryId', `No subcategory ${given.subcategoryId} in this company`);
      return {
        issues: [
          {
            field: 'subcategoryId',
            code: 'REQUIRED',
            message: 'the row names no subcategory: give subcategoryId, or category and subcategory',
          },
        ],
      };
    }
    const byName = this.categoriesByName
      .get(comparableName(given.category))
      ?.subcategoriesByName.get(comparableName(given.subcategory));
    if (byName) return this.active(byName);
    // An exported row from elsewhere (ids unknown here, names given) recreates its place.
    if (!this.options.createMissing && !given.subcategoryId) {
      return notFound('subcategory', `No subcategory "${given.subcategory}" in category "${given.category}"`);
    }
    const created = this.creations.then(() =>
      this.create(given.category as string, given.subcategory as string),
    );
    this.creations = created.catch(() => undefined);
    return created;
  }

  private active(subcategory: SubcategoryRecord): Resolution {
    if (subcategory.status !== 'active') {
      return {
        issues: [
          {
            field: 'subcategoryId',
            code: 'SUBCATEGORY_NOT_ACTIVE',
            message: `Subcategory ${subcategory.id} is delisted and accepts no new objects`,
          },
        ],
      };
    }
    return { target: { categoryId: subcategory.categoryId, subcategoryId: subcategory.id } };
  }

  private async create(categoryName: string, subcategoryName: string): Promise<Resolution> {
    const nameIssues = (
      schema: typeof createCategoryBody | typeof createSubcategoryBody,
      name: string,
      field: string,
    ) => {
      const found: FieldIssue[] = [];
      schema.read({ name }, field, found);
      return found.map((issue) => ({ ...issue, field, message: issue.message.replace(/^name/, field) }));
    };
    const issues = [
      ...nameIssues(createCategoryBody, categoryName, 'category'),
      ...nameIssues(createSubcategoryBody, subcategoryName, 'subcategory'),
    ];
    if (issues.length > 0) return { issues };
    const companyId = this.principal.tenantId;
    let category = this.categoriesByName.get(comparableName(categoryName));
    try {
      if (!category) {
        const created = await createCategory(companyId, { name: categoryName });
        category = this.remember(created.id, created.name, []);
      }
      const existing = category.subcategoriesByName.get(comparableName(subcategoryName));
      if (existing) return this.active(existing);
      const { id } = await createSubcategory(this.principal, category.id, { name: subcategoryName });
      this.remember(category.id, categoryName, await listSubcategoriesOf(companyId, category.id));
      return { target: { categoryId: category.id, subcategoryId: id } };
    } catch (error) {
      const apiError = error as Partial<ApiError>;
      if (typeof apiError.code !== 'string') throw error;
      return {
        issues: [{ field: 'subcategory', code: apiError.code, message: apiError.message ?? apiError.code }],
      };
    }
  }
}
