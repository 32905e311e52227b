/**
 * A second reference: the DynamoDB client and an S3 client, as `lambdas/shared/clients.ts`
 * creates both for every function. Its distance to the first reference is what the S3 client
 * costs functions that never touch S3.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const s3 = new S3Client({});

export const handler = async () => ({
  statusCode: 200,
  body: JSON.stringify({ regions: [typeof dynamoDb.config.region, typeof s3.config.region] }),
});
