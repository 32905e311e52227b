/**
 * Import jobs and what they recorded of each row, keyed as `table-keys.ts` declares. A
 * job is one item in its company's imports partition (ids are UUIDv7, so the partition sorts by
 * creation time). Each row leaves exactly one trace in the job's own partition: an `importRow`
 * item for a row written, in the same transaction as its object, or its error entries for a row
 * reported. A run that resumes reads these traces and never writes a row twice.
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RowOutcome } from '#domain/imports/import-job.js';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { ItemKey } from '#shared/page-cursor.js';
import { conditionHeld } from './conditional-write.js';
import {
  COUNT_ATTRIBUTES,
  type ImportCounts,
  type ImportErrorRecord,
  type ImportJobRecord,
  type ImportStatus,
  importErrorEntity,
  importJobEntity,
} from './import-job-entity.js';
import { giveBackJobSlot } from './job-slot-repository.js';
import { queryAllPages } from './query-pages.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { importErrorKeys, importJobKeys, importRowKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

export type { ImportCounts, ImportErrorRecord, ImportJobRecord } from './import-job-entity.js';

/** Markers of written rows are needed only while a job may resume. */
const DONE_MARKER_DAYS = 30;
/** Reported issues per row at the most (no row of spec 4.3 has this many fields). */
const ROW_ISSUES_MAX = 20;

const jobKey = (companyId: string, importId: string) => importJobKeys.key({ companyId, id: importId });
const indexText = (index: number) => String(index).padStart(9, '0');
const doneKey = (companyId: string, importId: string, index: number) =>
  importRowKeys.key({ companyId, importId, rowIndex: indexText(index) });
const errorKey = (companyId: string, importId: string, index: number, issue: number) =>
  importErrorKeys.key({
    companyId,
    importId,
    rowIndex: indexText(index),
    issue: String(issue).padStart(2, '0'),
  });

const toItem = (record: ImportJobRecord): Record<string, unknown> => ({
  ...jobKey(record.companyId, record.id),
  ...importJobEntity.toItem(record),
});

const fromItem = (item: Record<string, unknown>) => importJobEntity.fromItem(item);

/** Transaction item that creates the job (with the slot a running job takes, `job-slot-repository.ts`). */
export function insertImportJobItem(record: ImportJobRecord): TransactItem {
  return {
    Put: { TableName: tableName(), Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

export async function insertImportJob(record: ImportJobRecord): Promise<void> {
  await dynamoDb.send(new PutCommand(insertImportJobItem(record).Put!));
}

/** Transaction item that moves a `pending` job to `running` (its condition fails otherwise). */
export function startImportJobItem(companyId: string, importId: string, updatedAt: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: jobKey(companyId, importId),
      UpdateExpression: 'SET #status = :running, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':pending': 'pending', ':now': updatedAt },
    },
  };
}

export async function findImportJob(
  companyId: string,
  importId: string,
): Promise<ImportJobRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: jobKey(companyId, importId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

/**
 * Sets the given fields of a job (status moves, the total, the failure). A write that makes the
 * job `completed` or `failed` gives its slot back: every path that ends an import (its runs, a
 * sweeper of stuck jobs) ends it here.
 */
export async function updateImportJob(
  companyId: string,
  importId: string,
  fields: Partial<Omit<ImportJobRecord, 'id' | 'companyId' | 'counts'>> & { total?: number },
  condition?: { status: ImportStatus },
): Promise<boolean> {
  const { total, ...plain } = fields;
  const entries = Object.entries({
    ...plain,
    ...(total === undefined ? {} : { [COUNT_ATTRIBUTES.total]: total }),
  });
  const written = await conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKey(companyId, importId),
        UpdateExpression: `SET ${entries.map((_, at) => `#f${at} = :f${at}`).join(', ')}`,
        ConditionExpression: condition
          ? 'attribute_exists(pk) AND #status = :expected'
          : 'attribute_exists(pk)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([name], at) => [`#f${at}`, name])),
          ...(condition ? { '#status': 'status' } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], at) => [`:f${at}`, value])),
          ...(condition ? { ':expected': condition.status } : {}),
        },
      }),
    ),
  );
  // Without a status condition, only a missing job refuses the write.
  if (!written && !condition) throw new Error(`Import ${importId} does not exist`);
  if (written && (fields.status === 'completed' || fields.status === 'failed'))
    await giveBackJobSlot(companyId, 'imports', importId);
  return written;
}

/**
 * Counts the rows `[from, to)` and moves the job's progress past them, once: the condition on
 * `nextIndex` makes a second run that counted the same rows a no-op (false).
 */
export async function advanceImportJob(
  companyId: string,
  importId: string,
  from: number,
  to: number,
  added: { counts: Omit<ImportCounts, 'total'>; errorCount: number; updatedAt: string },
): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKey(companyId, importId),
        UpdateExpression:
          'SET nextIndex = :to, updatedAt = :now ADD createdCount :created, updatedCount :updated, skippedCount :skipped, failedCount :failed, errorCount :errors',
        ConditionExpression: 'nextIndex = :from',
        ExpressionAttributeValues: {
          ':from': from,
          ':to': to,
          ':now': added.updatedAt,
          ':created': added.counts.created,
          ':updated': added.counts.updated,
          ':skipped': added.counts.skipped,
          ':failed': added.counts.failed,
          ':errors': added.errorCount,
        },
      }),
    ),
  );
}

/** The marker of a written row: put in the transaction that writes the row's object. */
export function rowDoneItem(
  companyId: string,
  importId: string,
  index: number,
  outcome: 'created' | 'updated',
): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...doneKey(companyId, importId, index),
        entity: importRowKeys.entity,
        outcome,
        [TIME_TO_LIVE_ATTRIBUTE]: Math.floor(Date.now() / 1000) + DONE_MARKER_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The error entries of a reported row, all or none (one transaction). */
export function rowErrorItems(
  companyId: string,
  importId: string,
  index: number,
  errors: ImportErrorRecord[],
): TransactItem[] {
  return errors.slice(0, ROW_ISSUES_MAX).map((error, issue) => ({
    Put: {
      TableName: tableName(),
      Item: { ...errorKey(companyId, importId, index, issue), ...importErrorEntity.toItem(error), index },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
}

/** What runs before left of the rows `[from, to)`: each row's outcome and its error entries. */
export async function readRowTraces(
  companyId: string,
  importId: string,
  from: number,
  to: number,
): Promise<Map<number, { outcome: RowOutcome; errorCount: number }>> {
  const range = (keys: typeof importRowKeys | typeof importErrorKeys) =>
    queryAllPages({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.partition({ companyId, importId }),
        ':from': keys.sortKeyPrefix({ rowIndex: indexText(from) }),
        ':to': `${keys.sortKeyPrefix({ rowIndex: indexText(to - 1) })}~`,
      },
      ConsistentRead: true,
    });
  const [done, errors] = await Promise.all([range(importRowKeys), range(importErrorKeys)]);
  const donePrefix = importRowKeys.sortKeyPrefix();
  const traces = new Map<number, { outcome: RowOutcome; errorCount: number }>();
  for (const item of done) {
    traces.set(Number((item.sk as string).slice(donePrefix.length)), {
      outcome: item.outcome as RowOutcome,
      errorCount: 0,
    });
  }
  for (const item of errors) {
    const index = item.index as number;
    const known = traces.get(index);
    traces.set(index, { outcome: item.outcome as RowOutcome, errorCount: (known?.errorCount ?? 0) + 1 });
  }
  return traces;
}

/** One window of a partition's items under a sort-key prefix, by offset or after a key. */
async function readTableWindow(
  input: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeValues'> & {
    ascending: boolean;
  },
  window: { offset: number; limit: number; startAfter?: ItemKey },
): Promise<{ items: Record<string, unknown>[]; lastKey?: ItemKey }> {
  const skip = window.startAfter ? 0 : window.offset;
  const wanted = skip + window.limit;
  const items: Record<string, unknown>[] = [];
  let exclusiveStartKey: ItemKey | undefined = window.startAfter;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: input.KeyConditionExpression,
        ExpressionAttributeValues: input.ExpressionAttributeValues,
        ScanIndexForward: input.ascending,
        ConsistentRead: true,
        Limit: Math.min(1000, wanted - items.length),
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey && items.length < wanted);
  const windowItems = items.slice(skip, wanted);
  const last = windowItems.at(-1);
  return { items: windowItems, lastKey: last ? { pk: last.pk, sk: last.sk } : undefined };
}

/** A page of the company's import jobs, newest first, and how many there are. */
export async function listImportJobs(
  companyId: string,
  window: { offset: number; limit: number; startAfter?: ItemKey },
): Promise<{ records: ImportJobRecord[]; total: number; lastKey?: ItemKey }> {
  const keyCondition = {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': importJobKeys.partition({ companyId }),
      ':prefix': importJobKeys.sortKeyPrefix(),
    },
  };
  const [page, total] = await Promise.all([
    readTableWindow({ ...keyCondition, ascending: false }, window),
    countItems(keyCondition),
  ]);
  return { records: page.items.map(fromItem), total, lastKey: page.lastKey };
}

async function countItems(
  input: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeValues'>,
): Promise<number> {
  let count = 0;
  let exclusiveStartKey: ItemKey | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        ...input,
        Select: 'COUNT',
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return count;
}

/** A page of a job's error entries in row order. */
export async function listImportErrors(
  companyId: string,
  importId: string,
  window: { offset: number; limit: number; startAfter?: ItemKey },
): Promise<{ records: ImportErrorRecord[]; lastKey?: ItemKey }> {
  const page = await readTableWindow(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': importErrorKeys.partition({ companyId, importId }),
        ':prefix': importErrorKeys.sortKeyPrefix(),
      },
      ascending: true,
    },
    window,
  );
  return { records: page.items.map(importErrorEntity.fromItem), lastKey: page.lastKey };
}
