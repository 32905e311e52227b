/**
 * Creates the single table in DynamoDB Local with the same keys, indexes and stream as the CDK
 * stack; a table kept from before the stream existed gets it switched on.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import {
  TABLE_INDEXES,
  TABLE_PARTITION_KEY,
  TABLE_SORT_KEY,
  TABLE_STREAM_VIEW_TYPE,
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
        StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW_TYPE },
      }),
    );
  } catch (error) {
    // The table survives restarts in the data folder.
    if (!(error instanceof ResourceInUseException)) throw error;
    await enableStreamIfMissing(client, tableName);
  }
}

/** A data folder made before the table had a stream: events from now on are published. */
async function enableStreamIfMissing(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW_TYPE },
    }),
  );
}
