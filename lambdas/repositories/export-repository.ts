/**
 * Export jobs: the exports too large to answer in the request, written to S3 in the background.
 * One item each in the company's exports partition (`exportJobKeys`).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { type ExportJobRecord, exportJobEntity } from './export-job-entity.js';
import { exportJobKeys } from './table-keys.js';

export type { ExportJobRecord } from './export-job-entity.js';

const exportKey = (companyId: string, exportId: string) => exportJobKeys.key({ companyId, id: exportId });

export async function insertExportJob(record: ExportJobRecord): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...exportKey(record.companyId, record.id), ...exportJobEntity.toItem(record) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
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

/** Records how the job ended. */
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
}
