/** Deletes or puts many items with BatchWriteItem (25 per call), retrying what DynamoDB hands back. */
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

async function writeInBatches(requests: WriteRequest[]): Promise<void> {
  const table = tableName();
  for (let start = 0; start < requests.length; start += 25) {
    let pending = requests.slice(start, start + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
      const { UnprocessedItems } = await dynamoDb.send(
        new BatchWriteCommand({ RequestItems: { [table]: pending } }),
      );
      pending = (UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
}

export async function deleteItems(keys: Array<{ pk: string; sk: string }>): Promise<void> {
  await writeInBatches(keys.map((Key) => ({ DeleteRequest: { Key } })));
}

/** Puts items as they are (overwriting): for writes that are the same every time they are redone. */
export async function putItems(items: Array<Record<string, unknown>>): Promise<void> {
  await writeInBatches(items.map((Item) => ({ PutRequest: { Item } })));
}
