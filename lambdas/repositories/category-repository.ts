/**
 * Category items and everything keyed around them: the name marker that makes names unique
 * per company, the company's per-status category counters, and the four sorted index entries
 * the list operation reads (by status or all, by creation time or name).
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ListSort } from '#domain/categories/category-schemas.js';
import { dynamoDb, tableName } from '#shared/clients.js';
import { ConflictError } from '#shared/errors.js';
import type { ItemKey } from '#shared/page-cursor.js';
import { comparableName } from '#shared/text.js';
import {
  CATEGORY_STATUSES,
  type CategoryRecord,
  type CategoryStatus,
  categoryEntity,
} from './category-entity.js';
import { queryAllPages } from './query-pages.js';
import { readStatusSortedList } from './status-sorted-list.js';
import { categoryKeys, categoryNameMarkerKeys, subcategoryKeys } from './table-keys.js';
import { countersKey } from './tenant-keys.js';
import { type TransactItem, type TransactionEntry, writeTransaction } from './transactions.js';
import { setAttributesItem, withoutAttributes } from './update-expression.js';

const STATISTICS_ATTRIBUTES = ['subcategoryCount', 'objectCount'] as const;

export type { CategoryRecord } from './category-entity.js';

/** The write lost a race with another write of the same category; read again and retry. */
export class StaleCategoryError extends Error {}

/** The partition of a category, shared with its subcategories. */
const categoryPartition = (companyId: string, categoryId: string) =>
  categoryKeys.partition({ companyId, categoryId });

const categoryKey = (companyId: string, categoryId: string) => categoryKeys.key({ companyId, categoryId });

const nameMarkerKey = (companyId: string, name: string) =>
  categoryNameMarkerKeys.key({ companyId, nameKey: comparableName(name) });

/** Counter attribute of the company's categories in one status. */
const counterAttribute = (status: CategoryStatus) => `categoryCount_${status}`;

function toItem(record: CategoryRecord): Record<string, unknown> {
  const nameKey = comparableName(record.name);
  return {
    ...categoryKey(record.companyId, record.id),
    ...categoryEntity.toItem(record),
    nameKey,
    ...categoryKeys.indexKeys({ ...record, nameKey }),
  };
}

const fromItem = (item: Record<string, unknown>) => categoryEntity.fromItem(item);

const nameExists = (name: string) =>
  new ConflictError('CATEGORY_NAME_EXISTS', `A category named "${name}" already exists in this company`);

/** Writes a new category, its name marker and its counter in one transaction. */
export async function insertCategory(record: CategoryRecord): Promise<void> {
  const table = tableName();
  await writeTransaction([
    {
      item: {
        Put: { TableName: table, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
      },
      onConditionFailed: () => new Error('Category id collision'),
    },
    {
      item: {
        Put: {
          TableName: table,
          Item: {
            ...nameMarkerKey(record.companyId, record.name),
            entity: categoryNameMarkerKeys.entity,
            categoryId: record.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => nameExists(record.name),
    },
    {
      Update: {
        TableName: table,
        Key: countersKey(record.companyId),
        UpdateExpression: 'ADD #count :one',
        ExpressionAttributeNames: { '#count': counterAttribute(record.status) },
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]);
}

export async function findCategory(
  companyId: string,
  categoryId: string,
): Promise<CategoryRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: categoryKey(companyId, categoryId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The sort keys of a category's partition from its own item to its last subcategory item. */
const categoryPartitionSortRange = () => ({
  from: categoryKeys.sortKey({}),
  to: `${subcategoryKeys.sortKeyPrefix()}~`,
});

/**
 * A category and the raw items that follow it in its partition up to its subcategories
 * (`subcategoryKeys`; names and files sort after them), in one consistent Query: the caller
 * reads the subcategory items with their own repository.
 */
export async function readCategoryPartition(
  companyId: string,
  categoryId: string,
): Promise<{ category?: CategoryRecord; following: Record<string, unknown>[] }> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': categoryPartition(companyId, categoryId),
      ':from': categoryPartitionSortRange().from,
      ':to': categoryPartitionSortRange().to,
    },
    ConsistentRead: true,
  });
  const own = items.find((item) => item.sk === categoryKey(companyId, categoryId).sk);
  return { category: own ? fromItem(own) : undefined, following: items.filter((item) => item !== own) };
}

/**
 * Replaces a category read earlier as `before` with `after`, in one transaction with the name
 * marker swap and the counter moves its changes need. Throws {@link StaleCategoryError} when
 * another write came in between.
 */
export async function replaceCategory(before: CategoryRecord, after: CategoryRecord): Promise<void> {
  const table = tableName();
  const items: TransactionEntry[] = [
    {
      // Statistics are left out: object and subcategory writes ADD to them concurrently.
      item: setAttributesItem(
        table,
        categoryKey(after.companyId, after.id),
        withoutAttributes(toItem(after), STATISTICS_ATTRIBUTES),
        {
          expression: '#version = :expectedVersion',
          names: { '#version': 'version' },
          values: { ':expectedVersion': before.version },
        },
      ),
      onConditionFailed: () => new StaleCategoryError(),
    },
  ];
  if (comparableName(before.name) !== comparableName(after.name)) {
    items.push(
      {
        item: {
          Put: {
            TableName: table,
            Item: {
              ...nameMarkerKey(after.companyId, after.name),
              entity: categoryNameMarkerKeys.entity,
              categoryId: after.id,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => nameExists(after.name),
      },
      { Delete: { TableName: table, Key: nameMarkerKey(before.companyId, before.name) } },
    );
  }
  if (before.status !== after.status) {
    items.push({
      Update: {
        TableName: table,
        Key: countersKey(after.companyId),
        UpdateExpression: 'ADD #from :minusOne, #to :one',
        ExpressionAttributeNames: {
          '#from': counterAttribute(before.status),
          '#to': counterAttribute(after.status),
        },
        ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
      },
    });
  }
  await writeTransaction(items);
}

/**
 * Transaction item that moves the category's statistics by the given amounts; its condition
 * fails when the category is gone.
 */
export function adjustCategoryStatisticsItem(
  companyId: string,
  categoryId: string,
  change: { subcategoryCount?: number; objectCount?: number },
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: categoryKey(companyId, categoryId),
      UpdateExpression: 'ADD subcategoryCount :subcategories, objectCount :objects',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':subcategories': change.subcategoryCount ?? 0,
        ':objects': change.objectCount ?? 0,
      },
    },
  };
}

export interface CategoryListQuery {
  status: CategoryStatus | 'all';
  nameContains?: string;
  sort: ListSort;
  limit: number;
  offset: number;
  /** A cursor's position: read on after this item instead of skipping `offset` items. */
  startAfter?: ItemKey;
}

/** One page of a company's categories and the exact number that match. */
export async function listCategories(
  companyId: string,
  query: CategoryListQuery,
): Promise<{ records: CategoryRecord[]; total: number; lastKey?: ItemKey }> {
  const statuses: readonly CategoryStatus[] = query.status === 'all' ? CATEGORY_STATUSES : [query.status];
  const { items, total, lastKey } = await readStatusSortedList({
    tenantId: companyId,
    partitionKeyValue:
      query.status === 'all'
        ? categoryKeys.indexPartition('gsi3', { companyId })
        : categoryKeys.indexPartition('gsi1', { companyId, status: query.status }),
    allStatuses: query.status === 'all',
    sortByName: query.sort.startsWith('name:'),
    ascending: query.sort.endsWith(':asc'),
    offset: query.offset,
    limit: query.limit,
    startAfter: query.startAfter,
    contains:
      query.nameContains === undefined
        ? undefined
        : { attribute: 'nameKey', needle: comparableName(query.nameContains) },
    counterNames: statuses.map(counterAttribute),
  });
  return { records: items.map(fromItem), total, lastKey };
}
