/**
 * Subcategory items, keyed as `table-keys.ts` declares. A subcategory lives in its
 * category's partition, so a category and its
 * subcategories come back from one Query, and a subcategory is one GetItem by its three ids.
 * Its name is unique within the category (ignoring case) through a marker item in the same
 * partition.
 */

import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { ConflictError } from '#shared/errors.js';
import { comparableName } from '#shared/text.js';
import { deleteItems } from './batch-delete.js';
import {
  adjustCategoryStatisticsItem,
  type CategoryRecord,
  readCategoryPartition,
} from './category-repository.js';
import type { LedgerEvent } from './ledger-event-entity.js';
import { appendEventItems } from './ledger-repository.js';
import type { ChainRef } from './ledger-store.js';
import { queryAllPages } from './query-pages.js';
import {
  type SubcategoryFileRecord,
  type SubcategoryRecord,
  subcategoryEntity,
  subcategoryFileEntity,
} from './subcategory-entity.js';
import { subcategoryFileKeys, subcategoryKeys, subcategoryNameMarkerKeys } from './table-keys.js';
import { adjustCountersItem } from './tenant-counters.js';
import { type TransactItem, type TransactionEntry, writeTransaction } from './transactions.js';
import { setAttributesItem, withoutAttributes } from './update-expression.js';

const OBJECT_COUNT_ATTRIBUTES = ['objectCount', 'activeObjectCount', 'lastObjectCreated'] as const;

export type {
  SubcategoryFileRecord,
  SubcategoryRecord,
} from './subcategory-entity.js';

const subcategoryKey = (companyId: string, categoryId: string, subcategoryId: string) =>
  subcategoryKeys.key({ companyId, categoryId, id: subcategoryId });

const nameMarkerKey = (companyId: string, categoryId: string, name: string) =>
  subcategoryNameMarkerKeys.key({ companyId, categoryId, nameKey: comparableName(name) });

const toItem = (record: SubcategoryRecord): Record<string, unknown> => ({
  ...subcategoryKey(record.companyId, record.categoryId, record.id),
  ...subcategoryEntity.toItem(record),
});

const fromItem = (item: Record<string, unknown>) => subcategoryEntity.fromItem(item);

const nameExists = (name: string) =>
  new ConflictError(
    'SUBCATEGORY_NAME_EXISTS',
    `A subcategory named "${name}" already exists in this category`,
  );

/** A subcategory changed since it was read (its version moved): read it again and retry. */
export class StaleSubcategoryError extends Error {}

/**
 * A put of the subcategory's name marker: it fails with `SUBCATEGORY_NAME_EXISTS` when the
 * name is taken in the category.
 */
function nameMarkerPut(record: SubcategoryRecord): TransactionEntry {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...nameMarkerKey(record.companyId, record.categoryId, record.name),
          entity: subcategoryNameMarkerKeys.entity,
          subcategoryId: record.id,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    onConditionFailed: () => nameExists(record.name),
  };
}

/**
 * Transaction items that write a new subcategory and claim its name in the category (a taken
 * name fails with `SUBCATEGORY_NAME_EXISTS`).
 */
function insertSubcategoryItems(record: SubcategoryRecord): TransactionEntry[] {
  return [
    {
      Put: { TableName: tableName(), Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
    },
    nameMarkerPut(record),
  ];
}

/**
 * Transaction item that counts a new object in the subcategory; its condition fails when the
 * subcategory is gone or not `active` (a delisted subcategory accepts no new objects).
 */
export function countObjectCreatedItem(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
  createdAt: string,
  count = 1,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: subcategoryKey(companyId, categoryId, subcategoryId),
      UpdateExpression: 'ADD objectCount :one, activeObjectCount :one SET lastObjectCreated = :createdAt',
      ConditionExpression: 'attribute_exists(pk) AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': count, ':createdAt': createdAt, ':active': 'active' },
      // A refusal carries the subcategory as it is: missing or removed (404) or delisted (409).
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The status of the subcategory a refused {@link countObjectCreatedItem} found (undefined when
 * it does not exist), from the cancellation reason's item, or, where DynamoDB did not return
 * it, read again (only on this failure path).
 */
export async function refusedSubcategoryStatus(
  reason: CancellationReason | undefined,
  place: { companyId: string; categoryId: string; subcategoryId: string },
): Promise<string | undefined> {
  if (reason?.Item) return reason.Item.status?.S;
  return (await findSubcategory(place.companyId, place.categoryId, place.subcategoryId))?.status;
}

/** Transaction item that moves an object between the active and the inactive count. */
export function moveObjectStatusItem(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
  activeDelta: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: subcategoryKey(companyId, categoryId, subcategoryId),
      UpdateExpression: 'ADD activeObjectCount :delta',
      ExpressionAttributeValues: { ':delta': activeDelta },
    },
  };
}

/**
 * Transaction items that replace a subcategory read at `before` (condition: same version),
 * with the name marker moved when the name changes. The subcategory's update fails with
 * {@link StaleSubcategoryError} on a lost race; the marker put, when present, fails when the
 * new name is taken (`SUBCATEGORY_NAME_EXISTS`).
 */
function replaceSubcategoryItems(before: SubcategoryRecord, after: SubcategoryRecord): TransactionEntry[] {
  const table = tableName();
  const items: TransactionEntry[] = [
    {
      // Object counts are left out: object writes ADD to them concurrently.
      item: setAttributesItem(
        table,
        subcategoryKey(after.companyId, after.categoryId, after.id),
        withoutAttributes(toItem(after), OBJECT_COUNT_ATTRIBUTES),
        after.status === 'removed'
          ? {
              // Removal subtracts these counts from the totals: they must be the ones it read.
              expression: '#version = :expected AND objectCount = :objects AND activeObjectCount = :active',
              names: { '#version': 'version' },
              values: {
                ':expected': before.version,
                ':objects': before.objectCount,
                ':active': before.activeObjectCount,
              },
            }
          : {
              expression: '#version = :expected',
              names: { '#version': 'version' },
              values: { ':expected': before.version },
            },
      ),
      onConditionFailed: () => new StaleSubcategoryError(),
    },
  ];
  const renamed = comparableName(before.name) !== comparableName(after.name);
  if (after.status === 'removed') {
    // A removed subcategory gives its name back.
    items.push({
      Delete: { TableName: table, Key: nameMarkerKey(before.companyId, before.categoryId, before.name) },
    });
  } else if (renamed) {
    items.push(nameMarkerPut(after), {
      Delete: { TableName: table, Key: nameMarkerKey(before.companyId, before.categoryId, before.name) },
    });
  }
  return items;
}

const subcategoryFileKey = (companyId: string, categoryId: string, subcategoryId: string, fileId: string) =>
  subcategoryFileKeys.key({ companyId, categoryId, subcategoryId, id: fileId });

export function insertSubcategoryFileItem(
  companyId: string,
  categoryId: string,
  file: SubcategoryFileRecord,
): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...subcategoryFileKey(companyId, categoryId, file.subcategoryId, file.id),
        ...subcategoryFileEntity.toItem(file),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The files of a subcategory, oldest first. */
export async function listSubcategoryFiles(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
): Promise<SubcategoryFileRecord[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': subcategoryFileKeys.partition({ companyId, categoryId }),
      ':prefix': subcategoryFileKeys.sortKeyPrefix({ subcategoryId }),
    },
    ConsistentRead: true,
  });
  const files = items.map(subcategoryFileEntity.fromItem);
  return files.sort((a, b) => (a.uploadDate < b.uploadDate ? -1 : a.uploadDate > b.uploadDate ? 1 : 0));
}

/** Deletes the subcategory item and its file records (after the file bytes are gone). */
export async function deleteSubcategoryData(
  record: SubcategoryRecord,
  files: SubcategoryFileRecord[],
): Promise<void> {
  await deleteItems([
    ...files.map((file) => subcategoryFileKey(record.companyId, record.categoryId, record.id, file.id)),
    subcategoryKey(record.companyId, record.categoryId, record.id),
  ]);
}

export async function findSubcategory(
  companyId: string,
  categoryId: string,
  subcategoryId: string,
): Promise<SubcategoryRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: subcategoryKey(companyId, categoryId, subcategoryId),
      ConsistentRead: true,
    }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The subcategories of a category (every status), oldest first. */
/**
 * A category and its subcategories (oldest first), in one Query of the category's partition:
 * what getCategory and updateCategory read, instead of a GetItem and then a Query.
 */
export async function findCategoryWithSubcategories(
  companyId: string,
  categoryId: string,
): Promise<{ category?: CategoryRecord; subcategories: SubcategoryRecord[] }> {
  const { category, following } = await readCategoryPartition(companyId, categoryId);
  const subcategories = following
    .filter((item) => typeof item.sk === 'string' && item.sk.startsWith(subcategoryKeys.sortKeyPrefix()))
    .map(fromItem)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return { category, subcategories };
}

export async function listSubcategoriesOf(
  companyId: string,
  categoryId: string,
): Promise<SubcategoryRecord[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': subcategoryKeys.partition({ companyId, categoryId }),
      ':prefix': subcategoryKeys.sortKeyPrefix(),
    },
  });
  const records = items.map(fromItem);
  return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/**
 * Writes a new subcategory in one transaction with its name marker, its category's statistics
 * (whose condition fails with `onCategoryMissing()` when the category is gone), its image's file
 * record and its first ledger event.
 */
export async function writeNewSubcategory(write: {
  record: SubcategoryRecord;
  chain: ChainRef;
  event: LedgerEvent;
  imageFile?: SubcategoryFileRecord;
  onCategoryMissing: () => Error;
}): Promise<void> {
  const { record, imageFile } = write;
  await writeTransaction(
    [
      ...insertSubcategoryItems(record),
      {
        item: adjustCategoryStatisticsItem(record.companyId, record.categoryId, { subcategoryCount: 1 }),
        onConditionFailed: write.onCategoryMissing,
      },
      ...(imageFile ? [insertSubcategoryFileItem(record.companyId, record.categoryId, imageFile)] : []),
      ...appendEventItems(write.chain, write.event),
    ],
    write.onCategoryMissing,
  );
}

/** What leaving the lists takes away from the category and the company totals. */
function removalItems(record: SubcategoryRecord): TransactItem[] {
  const inactive = record.objectCount - record.activeObjectCount;
  return [
    adjustCategoryStatisticsItem(record.companyId, record.categoryId, {
      subcategoryCount: -1,
      objectCount: -record.objectCount,
    }),
    adjustCountersItem(
      record.companyId,
      { objectCount_active: -record.activeObjectCount, objectCount_inactive: -inactive },
      { markRemovingSubcategory: record.id },
    ),
  ];
}

/**
 * Writes a new version of a subcategory read at `before`, in one transaction with its new image's
 * file record, what leaving the lists takes away (status `removed`) and its ledger event. A taken
 * name fails with `SUBCATEGORY_NAME_EXISTS`; any other failed condition (the subcategory or its
 * chain moved since `before`) with {@link StaleSubcategoryError}.
 */
export async function writeSubcategoryVersion(write: {
  before: SubcategoryRecord;
  after: SubcategoryRecord;
  chain: ChainRef;
  event: LedgerEvent;
  imageFile?: SubcategoryFileRecord;
}): Promise<void> {
  const { before, after, imageFile } = write;
  await writeTransaction(
    [
      ...replaceSubcategoryItems(before, after),
      ...(imageFile ? [insertSubcategoryFileItem(after.companyId, after.categoryId, imageFile)] : []),
      ...(after.status === 'removed' ? removalItems(before) : []),
      ...appendEventItems(write.chain, write.event),
    ],
    () => new StaleSubcategoryError(),
  );
}
