/**
 * Export jobs: the exports too large to return in the request, written to S3 in the background.
 * One item each in the company's exports partition (`exportJobKeys`).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { type ExportJobRecord, exportJobEntity } from './export-job-entity.js';
import { giveBackJobSlot } from './job-slot-repository.js';
import { exportJobKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

export type { ExportJobRecord } from './export-job-entity.js';

const exportKey = (companyId: string, exportId: string) => exportJobKeys.key({ companyId, id: exportId });

/** Transaction item that creates the job (with the slot it takes, `job-slot-repository.ts`). */
export function insertExportJobItem(record: ExportJobRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...exportKey(record.companyId, record.id), ...exportJobEntity.toItem(record) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function findExportJob(
  companyId: string,
  exportId: string,
): Promise<ExportJobRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: exportKey(companyId, exportId), ConsistentRead: true }),
  );
  return Item ? exportJobEntity.fromItem(Item) : undefined;
}

/**
 * Records how the job ended, and gives its slot back: every path that ends an export (its run,
 * a sweeper of stuck jobs) ends it here.
 */
export async function finishExportJob(
  companyId: string,
  exportId: string,
  outcome: Pick<ExportJobRecord, 'status' | 'rowCount' | 'size' | 'error' | 'completedAt'>,
): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: exportKey(companyId, exportId),
      UpdateExpression:
        'SET #status = :status, rowCount = :rows, size = :size, #error = :error, completedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':rows': outcome.rowCount,
        ':size': outcome.size,
        ':error': outcome.error,
        ':at': outcome.completedAt,
      },
    }),
  );
  await giveBackJobSlot(companyId, 'exports', exportId);
}
