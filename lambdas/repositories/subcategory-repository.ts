/**
 * Subcategory items. A subcategory lives in its category's partition
 * (`T#<company>#CATEGORY#<categoryId>`, sort key `SUBCATEGORY#<id>`), so a category and its
 * subcategories come back from one Query, and a subcategory is one GetItem by its three ids.
 * Its name is unique within the category (ignoring case) through a marker item in the same
 * partition.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { Metadata } from '#shared/schema.js';
import { comparableName } from '#shared/text.js';
import { categoryPartition } from './category-repository.js';
import type { TransactItem } from './transactions.js';

export const SUBCATEGORY_STATUSES = ['active', 'delisted', 'removed'] as const;
export type SubcategoryStatus = (typeof SUBCATEGORY_STATUSES)[number];

export interface SubcategoryRecord {
  id: string;
  companyId: string;
  categoryId: string;
  name: string;
  description: string;
  status: SubcategoryStatus;
  imageId: string | null;
  metadata: Metadata;
  createdAt: string;
  updatedAt: string;
  /** Bumped by every write of the subcategory itself (optimistic locking). */
  version: number;
  objectCount: number;
  lastObjectCreated: string | null;
  /** Length of the subcategory's own ledger chain. */
  eventCount: number;
  lastTxId: string;
}

const subcategoryKey = (companyId: string, categoryId: string, subcategoryId: string) => ({
  pk: categoryPartition(companyId, categoryId),
  sk: `SUBCATEGORY#${subcategoryId}`,
});

const nameMarkerKey = (companyId: string, categoryId: string, name: string) => ({
  pk: categoryPartition(companyId, categoryId),
  sk: `SUBCATEGORY_NAME#${comparableName(name)}`,
});

function toItem(record: SubcategoryRecord): Record<string, unknown> {
  const { metadata, ...plain } = record;
  return {
    ...subcategoryKey(record.companyId, record.categoryId, record.id),
    entity: 'subcategory',
    ...plain,
    metadataJson: JSON.stringify(metadata),
  };
}

function fromItem(item: Record<string, unknown>): SubcategoryRecord {
  return {
    id: item.id as string,
    companyId: item.companyId as string,
    categoryId: item.categoryId as string,
    name: item.name as string,
    description: item.description as string,
    status: item.status as SubcategoryStatus,
    imageId: (item.imageId as string | null) ?? null,
    metadata: JSON.parse(item.metadataJson as string) as Metadata,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    version: item.version as number,
    objectCount: (item.objectCount as number) ?? 0,
    lastObjectCreated: (item.lastObjectCreated as string | null) ?? null,
    eventCount: item.eventCount as number,
    lastTxId: item.lastTxId as string,
  };
}

/** Transaction items that write a new subcategory and claim its name in the category. */
export function insertSubcategoryItems(record: SubcategoryRecord): TransactItem[] {
  const table = tableName();
  return [
    { Put: { TableName: table, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: table,
        Item: {
          ...nameMarkerKey(record.companyId, record.categoryId, record.name),
          entity: 'subcategoryNameMarker',
          subcategoryId: record.id,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
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
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: subcategoryKey(companyId, categoryId, subcategoryId),
      UpdateExpression: 'ADD objectCount :one SET lastObjectCreated = :createdAt',
      ConditionExpression: 'attribute_exists(pk) AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':createdAt': createdAt, ':active': 'active' },
    },
  };
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
export async function listSubcategoriesOf(
  companyId: string,
  categoryId: string,
): Promise<SubcategoryRecord[]> {
  const records: SubcategoryRecord[] = [];
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': categoryPartition(companyId, categoryId),
          ':prefix': 'SUBCATEGORY#',
        },
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    records.push(...(page.Items ?? []).map(fromItem));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}
