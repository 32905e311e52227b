/**
 * File records of objects (spec 2.6) and upload sessions, keyed as `table-keys.ts` declares.
 * A file is one item, listed per object through gsi1 (by upload time). Its bytes live in the files bucket under `companies/<company>/files/<id>`.
 */

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { ItemKey, PagePosition } from '#shared/page-cursor.js';
import { deleteItems } from './batch-delete.js';
import { type FileRecord, fileEntity, type UploadSessionRecord, uploadSessionEntity } from './file-entity.js';
import { COMPANY_FILES_PREFIX } from './file-store.js';
import { readIndexWindow } from './index-query.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { fileKeys, uploadSessionKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

export type { FileRecord, UploadSessionRecord } from './file-entity.js';

const fileKey = (companyId: string, fileId: string) => fileKeys.key({ companyId, id: fileId });

/** Key prefix of what is staged in the files bucket and expires (`lib/data-store.ts`'s lifecycle rule). */
export const UPLOAD_STAGING_PREFIX = 'uploads/';

/** Where a file's bytes are stored. */
export const fileStorageKey = (companyId: string, fileId: string) =>
  `${COMPANY_FILES_PREFIX}${companyId}/files/${fileId}`;

/**
 * Where a presigned upload lands before it is verified. Its own top-level prefix, so that a
 * lifecycle rule can expire what was never completed, and so that bytes posted again to a used
 * presigned address can never replace a verified file.
 */
export const uploadStagingKey = (companyId: string, uploadId: string) =>
  `${UPLOAD_STAGING_PREFIX}${companyId}/${uploadId}`;
/** An import job's file, kept while the job runs (under the staging prefix, so it expires). */
export const importSourceKey = (companyId: string, importId: string) =>
  `${UPLOAD_STAGING_PREFIX}${companyId}/imports/${importId}`;
/** An export job's result, read through a presigned link (under the staging prefix, so it expires). */
export const exportResultKey = (companyId: string, exportId: string) =>
  `${UPLOAD_STAGING_PREFIX}${companyId}/exports/${exportId}`;

function toItem(record: FileRecord): Record<string, unknown> {
  return {
    ...fileKey(record.companyId, record.id),
    ...fileEntity.toItem(record),
    ...fileKeys.indexKeys(record),
  };
}

const fromItem = (item: Record<string, unknown>) => fileEntity.fromItem(item);

export function insertFileItem(record: FileRecord): TransactItem {
  return {
    Put: { TableName: tableName(), Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

/** Deletes the record; its condition fails when the record is already gone. */
export function deleteFileItem(record: Pick<FileRecord, 'companyId' | 'id'>): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: fileKey(record.companyId, record.id),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}

export async function findFile(companyId: string, fileId: string): Promise<FileRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: fileKey(companyId, fileId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** A window of an object's files, newest first. */
export async function listObjectFiles(
  companyId: string,
  objectId: string,
  position: PagePosition,
): Promise<{ records: FileRecord[]; lastKey?: ItemKey }> {
  const window = await readIndexWindow({
    indexName: 'gsi1',
    partitionKeyValue: fileKeys.indexPartition('gsi1', { companyId, objectId }),
    ascending: false,
    ...position,
  });
  return { records: window.items.map(fromItem), lastKey: window.lastKey };
}

/** Deletes file records (after their bytes are gone), 25 per call. */
export async function deleteFileRecords(records: FileRecord[]): Promise<void> {
  await deleteItems(records.map((record) => fileKey(record.companyId, record.id)));
}

/** Every file of an object (for removing the object's data). */
export async function listAllObjectFiles(companyId: string, objectId: string): Promise<FileRecord[]> {
  return (await listObjectFiles(companyId, objectId, { offset: 0, limit: Number.MAX_SAFE_INTEGER })).records;
}

const uploadSessionKey = (companyId: string, uploadId: string) =>
  uploadSessionKeys.key({ companyId, id: uploadId });

export async function insertUploadSession(session: UploadSessionRecord): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...uploadSessionKey(session.companyId, session.id),
        ...uploadSessionEntity.toItem(session),
        // DynamoDB's TTL removes sessions nobody completed (a day after they expire).
        [TIME_TO_LIVE_ATTRIBUTE]: Math.floor(Date.parse(session.expiresAt) / 1000) + 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findUploadSession(
  companyId: string,
  uploadId: string,
): Promise<UploadSessionRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: uploadSessionKey(companyId, uploadId),
      ConsistentRead: true,
    }),
  );
  return Item ? uploadSessionEntity.fromItem(Item) : undefined;
}

/** Ends a session in the transaction that records its file; fails when it was already completed. */
export function deleteUploadSessionItem(companyId: string, uploadId: string): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: uploadSessionKey(companyId, uploadId),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}
