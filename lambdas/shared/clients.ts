/**
 * The DynamoDB client, created once per Lambda container (module scope) and shared by every
 * repository, and the names of the table and buckets. In local mode the endpoint points at
 * DynamoDB Local. S3, and KMS, SQS and Lambda where the API functions use them, are reached
 * with signed requests of our own (`aws-requests.ts`), not with their SDK clients.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { retryTransactionConflicts } from './transaction-conflict-retry.js';
import { traceAwsCalls } from './xray-tracing.js';

const localDynamoDbEndpoint = process.env.LOCAL_DYNAMODB_ENDPOINT;
const localRegion = process.env.AWS_REGION ?? 'us-east-1';

export const dynamoDbClient = new DynamoDBClient(
  localDynamoDbEndpoint
    ? {
        endpoint: localDynamoDbEndpoint,
        region: localRegion,
        // DynamoDB Local accepts any key id made of letters and digits.
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {},
);

retryTransactionConflicts(dynamoDbClient);
traceAwsCalls(dynamoDbClient, 'DynamoDB');

export const dynamoDb = DynamoDBDocumentClient.from(dynamoDbClient, {
  marshallOptions: { removeUndefinedValues: true },
});

function requiredEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

/** The environment variable with the single table's name (set by `lib/`). */
export const TABLE_NAME_ENVIRONMENT = 'TABLE_NAME';
/** The environment variable with the files bucket's name. */
export const FILES_BUCKET_NAME_ENVIRONMENT = 'FILES_BUCKET_NAME';
/** The environment variable with the ledger digest bucket's name. */
export const DIGEST_BUCKET_NAME_ENVIRONMENT = 'DIGEST_BUCKET_NAME';

/** The single table's name (read on use, so tests and the local gateway can set it late). */
export const tableName = (): string => requiredEnvironment(TABLE_NAME_ENVIRONMENT);
/** The files bucket's name. */
export const filesBucketName = (): string => requiredEnvironment(FILES_BUCKET_NAME_ENVIRONMENT);
/** The ledger digest bucket's name (S3 Object Lock, COMPLIANCE mode, in AWS). */
export const digestBucketName = (): string => requiredEnvironment(DIGEST_BUCKET_NAME_ENVIRONMENT);
