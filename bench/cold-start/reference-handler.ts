/**
 * The cold-start reference: a handler that only creates a DynamoDB client (as the shared
 * clients module does), bundled with the same settings as every function of the stack.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => ({
  statusCode: 200,
  body: JSON.stringify({ region: typeof dynamoDb.config.region }),
});
