/**
 * Object items and their lookups, keyed as `table-keys.ts` declares. An object is one item; its
 * externalId is unique per company through a marker item; sorted index entries serve the
 * lists: by status bucket (`active` / `inactive`, i.e. every other status) or all, by creation
 * time or name (gsi1-gsi4), and per subcategory (gsi5) and per category (gsi6) by creation time.
 */

import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { ConflictError } from '#shared/errors.js';
import type { ItemKey, PagePosition } from '#shared/page-cursor.js';
import { comparableName } from '#shared/text.js';
import { deleteItems } from './batch-delete.js';
import { batchGetItems } from './batch-get.js';
import { adjustCategoryStatisticsItem } from './category-repository.js';
import { type ItemFilter, readIndexWindow } from './index-query.js';
import type { LedgerEvent } from './ledger-event-entity.js';
import { appendEventItems } from './ledger-repository.js';
import type { ChainRef } from './ledger-store.js';
import { type ObjectRecord, objectEntity } from './object-entity.js';
import { countObjectCreatedItem, moveObjectStatusItem } from './subcategory-repository.js';
import type { IndexName } from './table-definition.js';
import { externalIdMarkerKeys, objectKeys } from './table-keys.js';
import { adjustCountersItem, readCounters, removingSubcategoriesOf, sumCounters } from './tenant-counters.js';
import {
  type ConditionedItem,
  plainItem,
  type TransactItem,
  type TransactionEntry,
  writeTransaction,
} from './transactions.js';

export type { ObjectRecord } from './object-entity.js';

/** `active`, or `inactive` for every other status: the two values of the list's status filter. */
export type StatusBucket = 'active' | 'inactive';
export const statusBucketOf = (status: string): StatusBucket => (status === 'active' ? 'active' : 'inactive');
const counterName = (bucket: StatusBucket) => `objectCount_${bucket}`;

const objectKey = (companyId: string, objectId: string) => objectKeys.key({ companyId, id: objectId });
const externalIdMarkerKey = (companyId: string, externalId: string) =>
  externalIdMarkerKeys.key({ companyId, externalId });
const subcategoryPartition = (companyId: string, subcategoryId: string) =>
  objectKeys.indexPartition('gsi5', { companyId, subcategoryId });

/** The name index's sort key: names repeat, so the id breaks ties; U+0000 sorts below every character of a name. */
const nameIndexKey = (record: ObjectRecord) => `${comparableName(record.name)}\u0000${record.id}`;

function toItem(record: ObjectRecord): Record<string, unknown> {
  return {
    ...objectKey(record.companyId, record.id),
    ...objectEntity.toItem(record),
    nameKey: comparableName(record.name),
    ownerKey: comparableName(record.owner),
    ...objectKeys.indexKeys({
      ...record,
      statusBucket: statusBucketOf(record.status),
      nameKey: nameIndexKey(record),
    }),
  };
}

const fromItem = (item: Record<string, unknown>) => objectEntity.fromItem(item);

/**
 * Transaction items that write a new object, claim its externalId and count it in the
 * company's totals. The marker fails with `EXTERNAL_ID_EXISTS` when the externalId is taken.
 */
export function insertObjectItems(record: ObjectRecord): TransactionEntry[] {
  return [...newObjectItems(record), countNewObjectsItem(record.companyId, 1)];
}

const externalIdExists = (externalId: string) =>
  new ConflictError(
    'EXTERNAL_ID_EXISTS',
    `An object with externalId "${externalId}" already exists in this company`,
  );

/** The new object and its externalId marker (which fails with `EXTERNAL_ID_EXISTS` when the externalId is taken). */
function newObjectItems(record: ObjectRecord): TransactionEntry[] {
  const table = tableName();
  return [
    { Put: { TableName: table, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      item: {
        Put: {
          TableName: table,
          Item: {
            ...externalIdMarkerKey(record.companyId, record.externalId),
            entity: externalIdMarkerKeys.entity,
            objectId: record.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => externalIdExists(record.externalId),
    },
  ];
}

/** A new object with its first ledger event, and the claim written with it (an import row). */
export interface NewObjectWrite {
  record: ObjectRecord;
  chain: ChainRef;
  event: LedgerEvent;
  claim?: ConditionedItem;
}

/**
 * Writes a new object in one transaction with its externalId marker, its first ledger event, the
 * statistics it moves (its subcategory's, its category's, the company's) and its claim. The order
 * is the precedence of the errors: the claim's (the row was written already), then the
 * subcategory's (`onSubcategoryRefused`, with DynamoDB's reason: missing, removed or delisted),
 * then the category's and any other (`onMissing`), then the externalId's (`EXTERNAL_ID_EXISTS`).
 */
export async function writeNewObject(
  write: NewObjectWrite & {
    onSubcategoryRefused: (reason: CancellationReason) => Error | Promise<Error>;
    onMissing: () => Error;
  },
): Promise<void> {
  const { record } = write;
  await writeTransaction(
    [
      ...(write.claim ? [write.claim] : []),
      {
        item: countObjectCreatedItem(
          record.companyId,
          record.categoryId,
          record.subcategoryId,
          record.createdAt,
        ),
        onConditionFailed: write.onSubcategoryRefused,
      },
      {
        item: adjustCategoryStatisticsItem(record.companyId, record.categoryId, { objectCount: 1 }),
        onConditionFailed: write.onMissing,
      },
      countNewObjectsItem(record.companyId, 1),
      ...newObjectItems(record),
      ...appendEventItems(write.chain, write.event),
    ],
    write.onMissing,
  );
}

/**
 * Writes several new objects of a company in one transaction, each as {@link writeNewObject}
 * writes one, with each statistic moved once by its sum: all or none. Any refusal alike throws
 * `onRefused()` (the caller learns which by writing them one by one).
 */
export async function writeNewObjectsTogether(
  companyId: string,
  objects: readonly NewObjectWrite[],
  onRefused: () => Error,
): Promise<void> {
  const bySubcategory = new Map<string, { categoryId: string; count: number; lastCreated: string }>();
  const byCategory = new Map<string, number>();
  for (const { record } of objects) {
    const known = bySubcategory.get(record.subcategoryId);
    bySubcategory.set(record.subcategoryId, {
      categoryId: record.categoryId,
      count: (known?.count ?? 0) + 1,
      lastCreated: record.createdAt,
    });
    byCategory.set(record.categoryId, (byCategory.get(record.categoryId) ?? 0) + 1);
  }
  await writeTransaction(
    [
      ...[...bySubcategory].map(([subcategoryId, { categoryId, count, lastCreated }]) =>
        countObjectCreatedItem(companyId, categoryId, subcategoryId, lastCreated, count),
      ),
      ...[...byCategory].map(([categoryId, count]) =>
        adjustCategoryStatisticsItem(companyId, categoryId, { objectCount: count }),
      ),
      countNewObjectsItem(companyId, objects.length),
      ...objects.flatMap((object) => [
        ...newObjectItems(object.record),
        ...appendEventItems(object.chain, object.event),
        ...(object.claim ? [object.claim] : []),
      ]),
    ].map(plainItem),
    onRefused,
  );
}

/** A new version of an object and what its transaction writes besides (`writeObjectVersion`). */
interface ObjectVersionWrite {
  /** The object as read; the write is conditioned on its event count being unchanged. */
  before: ObjectRecord;
  after: ObjectRecord;
  /** The event that records the change, appended to the object's chain. */
  chain: ChainRef;
  event: LedgerEvent;
  /** Items of the caller's written in the same transaction (their failing counts as a lost race). */
  extraItems?: TransactItem[];
  /** Written too; its condition failing throws its own error, not a lost race. */
  claim?: ConditionedItem;
  /** The error of any other failed condition: the object or its chain moved since `before`. */
  onLostRace: () => Error;
}

/**
 * Writes a new version of an object in one transaction with its ledger event, the subcategory's
 * active-object count when the object enters or leaves `active`, and the caller's items.
 */
export async function writeObjectVersion(write: ObjectVersionWrite): Promise<void> {
  const { before, after } = write;
  const wasActive = statusBucketOf(before.status) === 'active';
  const isActive = statusBucketOf(after.status) === 'active';
  const items = [
    ...replaceObjectItems(before, after),
    ...(wasActive === isActive
      ? []
      : [moveObjectStatusItem(after.companyId, after.categoryId, after.subcategoryId, isActive ? 1 : -1)]),
    ...(write.extraItems ?? []),
    ...appendEventItems(write.chain, write.event),
  ];
  await writeTransaction([...(write.claim ? [write.claim] : []), ...items], write.onLostRace);
}

/** Counts `count` new (active) objects in the company's totals. */
const countNewObjectsItem = (companyId: string, count: number): TransactItem =>
  adjustCountersItem(companyId, { [counterName('active')]: count });

/**
 * Transaction items that replace an object read at `before`; the write's condition is that
 * no event was appended since (`eventCount` unchanged). Index 0 fails on a lost race.
 */
function replaceObjectItems(before: ObjectRecord, after: ObjectRecord): TransactItem[] {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: toItem(after),
        ConditionExpression: 'eventCount = :expected',
        ExpressionAttributeValues: { ':expected': before.eventCount },
      },
    },
  ];
  const fromBucket = statusBucketOf(before.status);
  const toBucket = statusBucketOf(after.status);
  if (fromBucket !== toBucket) {
    items.push(
      adjustCountersItem(after.companyId, { [counterName(fromBucket)]: -1, [counterName(toBucket)]: 1 }),
    );
  }
  return items;
}

export async function findObject(companyId: string, objectId: string): Promise<ObjectRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: objectKey(companyId, objectId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** Several objects of a company by id (BatchGetItem); ids of no object are missing from the map. */
export async function findObjects(
  companyId: string,
  objectIds: readonly string[],
): Promise<Map<string, ObjectRecord>> {
  const items = await batchGetItems(objectIds.map((objectId) => objectKey(companyId, objectId)));
  const records = items.flatMap((item) => (item ? [fromItem(item)] : []));
  return new Map(records.map((record) => [record.id, record]));
}

/** The object that holds an externalId in the company, if any. */
export async function findObjectByExternalId(
  companyId: string,
  externalId: string,
): Promise<ObjectRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: externalIdMarkerKey(companyId, externalId),
      ConsistentRead: true,
    }),
  );
  return Item ? findVisibleObject(companyId, Item.objectId as string) : undefined;
}

export type ObjectSort = 'createdAt:desc' | 'createdAt:asc' | 'name:asc' | 'name:desc';

export interface ObjectListQuery {
  status: StatusBucket | 'all';
  nameContains?: string;
  ownerContains?: string;
  categoryId?: string;
  subcategoryId?: string;
  sort: ObjectSort;
  limit: number;
  offset: number;
  /** A cursor's position: read on after this item instead of skipping `offset` items. */
  startAfter?: ItemKey;
}

type ObjectListPage = { records: ObjectRecord[]; total: number; lastKey?: ItemKey };

/**
 * One page of a company's objects and the exact number that match. Picks the narrowest
 * index partition for the filters given (`docs/api-decisions.md`, "What list filters cost as a
 * company grows"). Objects
 * of subcategories whose removal is still running are left out.
 */
export async function listObjects(companyId: string, query: ObjectListQuery): Promise<ObjectListPage> {
  const [first, counters] = await Promise.all([
    runListQuery(companyId, query, new Set()),
    readCounters(companyId),
  ]);
  const removing = removingSubcategoriesOf(counters);
  // Rare: a removal is in progress. Ask again with those subcategories filtered out, which
  // reads the whole partition but keeps pages full and totals exact.
  if (removing.size > 0) {
    const filtered = await runListQuery(companyId, query, removing);
    return { ...filtered, total: filtered.total ?? 0 };
  }
  return { ...first, total: first.total ?? countObjects(counters, query) };
}

/** Which index partition a list reads, with what filter, and whether it sorts by name in memory. */
interface ListPlan {
  indexName: IndexName;
  partitionKeyValue: string;
  ascending: boolean;
  filter?: ItemFilter;
  /** A narrow partition (by creation time) listed by name: read whole and sorted here. */
  sortInMemory: boolean;
}

function planListQuery(
  companyId: string,
  query: Omit<ObjectListQuery, 'limit' | 'offset' | 'startAfter'>,
  excludedSubcategories: ReadonlySet<string>,
): ListPlan {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const addCondition = (expression: string, attribute: string, value: unknown) => {
    const index = conditions.length;
    conditions.push(expression.replaceAll('#a', `#a${index}`).replaceAll(':v', `:v${index}`));
    names[`#a${index}`] = attribute;
    if (value !== undefined) values[`:v${index}`] = value;
  };
  if (query.nameContains !== undefined)
    addCondition('contains(#a, :v)', 'nameKey', comparableName(query.nameContains));
  if (query.ownerContains !== undefined)
    addCondition('contains(#a, :v)', 'ownerKey', comparableName(query.ownerContains));
  if (excludedSubcategories.size > 0) {
    const index = conditions.length;
    const placeholders = [...excludedSubcategories].map((id, position) => {
      values[`:x${index}_${position}`] = id;
      return `:x${index}_${position}`;
    });
    conditions.push(`NOT (#a${index} IN (${placeholders.join(', ')}))`);
    names[`#a${index}`] = 'subcategoryId';
  }

  const byName = query.sort.startsWith('name:');
  const ascending = query.sort.endsWith(':asc');
  let indexName: IndexName;
  let partitionKeyValue: string;
  let sortInMemory = false;
  if (query.subcategoryId !== undefined || query.categoryId !== undefined) {
    // Narrow partitions sorted by creation time; the status filter and a name sort are applied
    // to the partition's items (read whole, since a filter needs the whole partition anyway).
    if (query.subcategoryId !== undefined) {
      indexName = 'gsi5';
      partitionKeyValue = subcategoryPartition(companyId, query.subcategoryId);
      if (query.categoryId !== undefined) addCondition('#a = :v', 'categoryId', query.categoryId);
    } else {
      indexName = 'gsi6';
      partitionKeyValue = objectKeys.indexPartition('gsi6', {
        companyId,
        categoryId: query.categoryId as string,
      });
    }
    if (query.status === 'active') addCondition('#a = :v', 'status', 'active');
    if (query.status === 'inactive') addCondition('#a <> :v', 'status', 'active');
    // No counter covers these partitions with every filter: count by reading them whole.
    if (conditions.length === 0) addCondition('attribute_exists(#a)', 'pk', undefined);
    sortInMemory = byName;
  } else if (query.status === 'all') {
    indexName = byName ? 'gsi4' : 'gsi3';
    partitionKeyValue = objectKeys.indexPartition('gsi3', { companyId });
  } else {
    indexName = byName ? 'gsi2' : 'gsi1';
    partitionKeyValue = objectKeys.indexPartition('gsi1', { companyId, statusBucket: query.status });
  }
  const filter: ItemFilter | undefined =
    conditions.length > 0 ? { expression: conditions.join(' AND '), names, values } : undefined;
  return { indexName, partitionKeyValue, ascending, filter, sortInMemory };
}

async function runListQuery(
  companyId: string,
  query: ObjectListQuery,
  excludedSubcategories: ReadonlySet<string>,
): Promise<{ records: ObjectRecord[]; total?: number; lastKey?: ItemKey }> {
  const plan = planListQuery(companyId, query, excludedSubcategories);
  if (plan.sortInMemory) return listSortedInMemory(plan, query);
  const window = await readIndexWindow({
    indexName: plan.indexName,
    partitionKeyValue: plan.partitionKeyValue,
    ascending: plan.ascending,
    offset: query.offset,
    limit: query.limit,
    startAfter: query.startAfter,
    filter: plan.filter,
  });
  return { records: window.items.map(fromItem), total: window.matchedTotal, lastKey: window.lastKey };
}

/**
 * Every object that matches, in the list's order, one index page at a time (an export's walk):
 * at most one page is in memory, nothing is counted, and each item is read once. A name sort
 * within a category or subcategory walks the company's name index and keeps that category's.
 */
export async function* walkObjects(
  companyId: string,
  query: Omit<ObjectListQuery, 'limit' | 'offset' | 'startAfter'>,
  pageItems = 200,
): AsyncGenerator<ObjectRecord[]> {
  const removing = removingSubcategoriesOf(await readCounters(companyId));
  const narrowByName =
    query.sort.startsWith('name:') && (query.categoryId !== undefined || query.subcategoryId !== undefined);
  const plan = planListQuery(
    companyId,
    narrowByName ? { ...query, categoryId: undefined, subcategoryId: undefined } : query,
    removing,
  );
  const kept = (record: ObjectRecord) =>
    !narrowByName ||
    ((query.categoryId === undefined || record.categoryId === query.categoryId) &&
      (query.subcategoryId === undefined || record.subcategoryId === query.subcategoryId));
  let exclusiveStartKey: ItemKey | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: plan.indexName,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: plan.filter?.expression,
        ExpressionAttributeNames: { '#pk': `${plan.indexName}pk`, ...plan.filter?.names },
        ExpressionAttributeValues: { ':pk': plan.partitionKeyValue, ...plan.filter?.values },
        ScanIndexForward: plan.ascending,
        ExclusiveStartKey: exclusiveStartKey,
        Limit: pageItems,
      }),
    );
    const records = (page.Items ?? []).map(fromItem).filter(kept);
    if (records.length > 0) yield records;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
}

/**
 * Every object of the company created at or before `until`, by creation time, one page of the
 * company-wide index (gsi3) at a time; an as-of export's walk. Objects created later are not
 * read (the bound is the index's key condition), and none is filtered by its current state.
 * Objects of subcategories whose removal is still running are left out, as in every list.
 */
export async function* walkObjectsCreatedBy(
  companyId: string,
  until: string,
  ascending: boolean,
  pageItems = 200,
): AsyncGenerator<ObjectRecord[]> {
  const removing = removingSubcategoriesOf(await readCounters(companyId));
  // `{createdAt}#{id}`: every key of an instant sorts below `{instant}$` (`$` follows `#`).
  const bound = `${until}$`;
  let exclusiveStartKey: ItemKey | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: '#pk = :pk AND #sk < :bound',
        ExpressionAttributeNames: { '#pk': 'gsi3pk', '#sk': 'gsi3sk' },
        ExpressionAttributeValues: {
          ':pk': objectKeys.indexPartition('gsi3', { companyId }),
          ':bound': bound,
        },
        ScanIndexForward: ascending,
        ExclusiveStartKey: exclusiveStartKey,
        Limit: pageItems,
      }),
    );
    const records = (page.Items ?? []).map(fromItem).filter((record) => !removing.has(record.subcategoryId));
    if (records.length > 0) yield records;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
}

/** Objects in the name index's order (UTF-8 bytes of the comparable name, then the id), as a list sorted by name. */
export const compareByName = (a: ObjectRecord, b: ObjectRecord): number =>
  Buffer.compare(Buffer.from(nameIndexKey(a), 'utf8'), Buffer.from(nameIndexKey(b), 'utf8'));

/** Exact count of an unfiltered company-wide list, from the company's counters. */
function countObjects(counters: Record<string, unknown>, query: ObjectListQuery): number {
  const buckets: StatusBucket[] =
    query.status === 'all' ? ['active', 'inactive'] : [query.status as StatusBucket];
  return sumCounters(counters, buckets.map(counterName));
}

/**
 * The object, unless it does not exist or belongs to a subcategory whose removal is still
 * running (the two reads run side by side).
 */
export async function findVisibleObject(
  companyId: string,
  objectId: string,
): Promise<ObjectRecord | undefined> {
  const [record, counters] = await Promise.all([findObject(companyId, objectId), readCounters(companyId)]);
  return record && !removingSubcategoriesOf(counters).has(record.subcategoryId) ? record : undefined;
}

async function listSortedInMemory(plan: ListPlan, query: ObjectListQuery): Promise<ObjectListPage> {
  // Sorted here, so a cursor holds the offset only (the whole partition is read anyway).
  const everything = await readIndexWindow({
    indexName: plan.indexName,
    partitionKeyValue: plan.partitionKeyValue,
    ascending: true,
    offset: 0,
    limit: Number.MAX_SAFE_INTEGER,
    filter: plan.filter,
  });
  const records = everything.items.map(fromItem);
  // UTF-8 byte order, as DynamoDB sorts the name index: the same order with and without filters.
  records.sort(compareByName);
  if (query.sort === 'name:desc') records.reverse();
  return { records: records.slice(query.offset, query.offset + query.limit), total: records.length };
}

/**
 * A window of one subcategory's objects, newest first (spec 4.2). The caller knows the total
 * from the subcategory's statistics, so no count is read here.
 */
export async function listSubcategoryObjects(
  companyId: string,
  subcategoryId: string,
  position: PagePosition,
): Promise<{ records: ObjectRecord[]; lastKey?: ItemKey }> {
  const window = await readIndexWindow({
    indexName: 'gsi5',
    partitionKeyValue: subcategoryPartition(companyId, subcategoryId),
    ascending: false,
    ...position,
  });
  return { records: window.items.map(fromItem), lastKey: window.lastKey };
}

/** Deletes objects and their externalId markers (their ledger events stay). */
export async function deleteObjectsData(records: ObjectRecord[]): Promise<void> {
  await deleteItems(
    records.flatMap((record) => [
      objectKey(record.companyId, record.id),
      externalIdMarkerKey(record.companyId, record.externalId),
    ]),
  );
}
