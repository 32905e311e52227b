/**
 * File records of objects (spec 2.6) and upload sessions. A file is one item
 * (`T#<company>#FILE#<fileId>`), listed per object through gsi1 (`...#OBJECT#<id>#FILES`,
 * by upload time). Its bytes live in the files bucket under `companies/<company>/files/<id>`.
 */

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { ItemKey, PagePosition } from '#shared/page-cursor.js';
import { deleteItems } from './batch-delete.js';
import { readIndexWindow } from './index-query.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { tenantPartition } from './tenant-keys.js';
import type { TransactItem } from './transactions.js';

export interface FileRecord {
  id: string;
  companyId: string;
  objectId: string;
  fileName: string;
  originalFileName: string;
  mimeType: string;
  size: number;
  description: string;
  tags: string[];
  uploadedAt: string;
  uploadedBy: string;
  /** `sha256:<hex>` of the stored bytes. */
  checksum: string;
  storageKey: string;
  /** The S3 version holding the bytes (deleted by version, so that deletion is permanent). */
  storageVersionId?: string;
}

const fileKey = (companyId: string, fileId: string) => ({
  pk: `${tenantPartition(companyId)}#FILE#${fileId}`,
  sk: 'FILE',
});
const objectFilesPartition = (companyId: string, objectId: string) =>
  `${tenantPartition(companyId)}#OBJECT#${objectId}#FILES`;

/** Where a file's bytes are stored. */
export const fileStorageKey = (companyId: string, fileId: string) => `companies/${companyId}/files/${fileId}`;

/**
 * Where a presigned upload lands before it is verified. Its own top-level prefix, so that a
 * lifecycle rule can expire what was never completed, and so that bytes posted again to a used
 * presigned address can never replace a verified file.
 */
export const uploadStagingKey = (companyId: string, uploadId: string) => `uploads/${companyId}/${uploadId}`;
/** An import job's file, kept while the job runs (under the staging prefix, so it expires). */
export const importSourceKey = (companyId: string, importId: string) =>
  `uploads/${companyId}/imports/${importId}`;
/** An export job's result, read through a presigned link (under the staging prefix, so it expires). */
export const exportResultKey = (companyId: string, exportId: string) =>
  `uploads/${companyId}/exports/${exportId}`;

function toItem(record: FileRecord): Record<string, unknown> {
  return {
    ...fileKey(record.companyId, record.id),
    entity: 'file',
    ...record,
    gsi1pk: objectFilesPartition(record.companyId, record.objectId),
    gsi1sk: `${record.uploadedAt}#${record.id}`,
  };
}

function fromItem(item: Record<string, unknown>): FileRecord {
  return {
    id: item.id as string,
    companyId: item.companyId as string,
    objectId: item.objectId as string,
    fileName: item.fileName as string,
    originalFileName: item.originalFileName as string,
    mimeType: item.mimeType as string,
    size: item.size as number,
    description: item.description as string,
    tags: (item.tags as string[]) ?? [],
    uploadedAt: item.uploadedAt as string,
    uploadedBy: item.uploadedBy as string,
    checksum: item.checksum as string,
    storageKey: item.storageKey as string,
    storageVersionId: item.storageVersionId as string | undefined,
  };
}

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
    partitionKeyValue: objectFilesPartition(companyId, objectId),
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

/** A presigned upload that has been handed out and not yet completed. */
export interface UploadSessionRecord {
  id: string;
  companyId: string;
  objectId: string;
  originalFileName: string;
  mimeType: string;
  size: number;
  description: string;
  tags: string[];
  createdAt: string;
  expiresAt: string;
  storageKey: string;
}

const uploadSessionKey = (companyId: string, uploadId: string) => ({
  pk: `${tenantPartition(companyId)}#UPLOAD#${uploadId}`,
  sk: 'UPLOAD',
});

export async function insertUploadSession(session: UploadSessionRecord): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...uploadSessionKey(session.companyId, session.id),
        entity: 'uploadSession',
        ...session,
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
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ttl: _ttl, ...session } = Item;
  return session as UploadSessionRecord;
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
