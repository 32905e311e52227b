/**
 * An S3 SDK client on the embedded stack's s3rver, for tests and the bench to look into the
 * buckets beside the service (which sends its own requests, `lambdas/shared/s3-requests.ts`).
 * s3rver needs path-style addressing and no optional checksums, or stream bodies are corrupted.
 * Created on first use, once the embedded stack has set `LOCAL_S3_ENDPOINT`.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { LOCAL_S3_ENDPOINT_ENVIRONMENT } from '../../lambdas/shared/s3-requests';

let client: S3Client | undefined;

export function localS3(): S3Client {
  const endpoint = process.env[LOCAL_S3_ENDPOINT_ENVIRONMENT];
  if (!endpoint)
    throw new Error(`${LOCAL_S3_ENDPOINT_ENVIRONMENT} is not set: start the embedded stack first`);
  client ??= new S3Client({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return client;
}
