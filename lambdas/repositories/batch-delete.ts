/** Deletes many items by key with BatchWriteItem (25 per call), retrying what DynamoDB hands back. */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';

export async function deleteItems(keys: Array<{ pk: string; sk: string }>): Promise<void> {
  const table = tableName();
  for (let start = 0; start < keys.length; start += 25) {
    let pending = keys.slice(start, start + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
      const { UnprocessedItems } = await dynamoDb.send(
        new BatchWriteCommand({ RequestItems: { [table]: pending } }),
      );
      pending = (UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
}
