/** The rules of subcategories (spec 4.8-4.10). */
import { randomUUID } from 'node:crypto';
import { adjustCategoryStatisticsItem, findCategory } from '#repositories/category-repository.js';
import { appendEventItems, type ChainRef, chainIdOf } from '#repositories/ledger-repository.js';
import { insertSubcategoryItems, type SubcategoryRecord } from '#repositories/subcategory-repository.js';
import { writeTransaction } from '#repositories/transactions.js';
import { nowIso } from '#shared/clock.js';
import { ConflictError, NotFoundError } from '#shared/errors.js';
import { actorOf, type Principal } from '#shared/principal.js';
import type { Infer } from '#shared/schema.js';
import { nextLink, sealEvent } from '../ledger/ledger-event.js';
import type { createSubcategoryBody } from './subcategory-schemas.js';

type CreateSubcategoryInput = Infer<typeof createSubcategoryBody.shape>;

const subcategoryChain = (record: Pick<SubcategoryRecord, 'companyId' | 'id'>): ChainRef => ({
  kind: 'subcategory',
  tenantId: record.companyId,
  entityId: record.id,
});

const categoryNotFound = (categoryId: string) =>
  new NotFoundError('CATEGORY_NOT_FOUND', `No category ${categoryId} in this company`);

/**
 * Creates an `active` subcategory in a category of the company, with the first event of its
 * own ledger chain, and counts it in the category's statistics.
 */
export async function createSubcategory(
  principal: Principal,
  categoryId: string,
  input: CreateSubcategoryInput,
): Promise<{ id: string }> {
  const companyId = principal.tenantId;
  if (!(await findCategory(companyId, categoryId))) throw categoryNotFound(categoryId);
  const createdAt = nowIso();
  const draft: SubcategoryRecord = {
    id: randomUUID(),
    companyId,
    categoryId,
    name: input.name,
    description: input.description ?? '',
    status: 'active',
    imageId: null,
    metadata: {},
    createdAt,
    updatedAt: createdAt,
    version: 1,
    objectCount: 0,
    activeObjectCount: 0,
    lastObjectCreated: null,
    eventCount: 1,
    lastTxId: '',
  };
  const event = sealEvent({
    chainId: chainIdOf(subcategoryChain(draft)),
    ...nextLink(undefined),
    action: 'CREATE',
    changes: {
      name: { from: null, to: draft.name },
      description: { from: null, to: draft.description },
      status: { from: null, to: draft.status },
      imageId: { from: null, to: draft.imageId },
    },
    eventDescription: null,
    performedBy: null,
    principal: actorOf(principal),
    timestamp: createdAt,
  });
  const record: SubcategoryRecord = { ...draft, lastTxId: event.hash };
  await writeTransaction(
    [
      ...insertSubcategoryItems(record),
      adjustCategoryStatisticsItem(companyId, categoryId, { subcategoryCount: 1 }),
      ...appendEventItems(subcategoryChain(record), event),
    ],
    (failedIndex) =>
      failedIndex === 1
        ? new ConflictError(
            'SUBCATEGORY_NAME_EXISTS',
            `A subcategory named "${input.name}" already exists in this category`,
          )
        : categoryNotFound(categoryId),
  );
  return { id: record.id };
}
