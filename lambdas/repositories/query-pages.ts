/** Every item a Query matches, following DynamoDB's pages (1 MB each) to the end. */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients.js';

export async function queryAllPages(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let exclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamoDb.send(new QueryCommand({ ...input, ExclusiveStartKey: exclusiveStartKey }));
    items.push(...(page.Items ?? []));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return items;
}
