/** Creates the single table in DynamoDB Local with the same keys and indexes as the CDK stack. */
import { CreateTableCommand, type DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import {
  TABLE_INDEXES,
  TABLE_PARTITION_KEY,
  TABLE_SORT_KEY,
} from '../lambdas/repositories/table-definition.js';

export async function createTableIfMissing(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyAttributes = [
    TABLE_PARTITION_KEY,
    TABLE_SORT_KEY,
    ...TABLE_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' },
          { AttributeName: TABLE_SORT_KEY, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    // The table survives restarts in the data folder.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}
