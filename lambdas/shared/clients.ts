/**
 * AWS SDK clients, created once per Lambda container (module scope) and shared by every
 * repository. In local mode the endpoints point at DynamoDB Local and s3rver; s3rver needs
 * path-style addressing and no optional checksums, or stream bodies are corrupted.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const localDynamoDbEndpoint = process.env.LOCAL_DYNAMODB_ENDPOINT;
const localS3Endpoint = process.env.LOCAL_S3_ENDPOINT;
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

export const dynamoDb = DynamoDBDocumentClient.from(dynamoDbClient, {
  marshallOptions: { removeUndefinedValues: true },
});

export const s3 = new S3Client(
  localS3Endpoint
    ? {
        endpoint: localS3Endpoint,
        region: localRegion,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }
    : {},
);

function requiredEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

/** The single table's name (read on use, so tests and the local gateway can set it late). */
export const tableName = (): string => requiredEnvironment('TABLE_NAME');
/** The files bucket's name. */
export const filesBucketName = (): string => requiredEnvironment('FILES_BUCKET_NAME');
/** The ledger digest bucket's name (S3 Object Lock, COMPLIANCE mode, in AWS). */
export const digestBucketName = (): string => requiredEnvironment('DIGEST_BUCKET_NAME');
