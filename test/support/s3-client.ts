/**
 * An S3 SDK client on the embedded stack's s3rver, for tests and the bench to look into the
 * buckets beside the service (which sends its own requests, `lambdas/shared/s3-requests.ts`).
 * s3rver needs path-style addressing and no optional checksums, or stream bodies are corrupted.
 * Created on first use, once the embedded stack has set `AWS_ENDPOINT_URL_S3`.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { endpointUrlEnvironment } from '../../lambdas/shared/aws-endpoints';

const S3_ENDPOINT_URL = endpointUrlEnvironment('S3');

let client: S3Client | undefined;

export function localS3(): S3Client {
  const endpoint = process.env[S3_ENDPOINT_URL];
  if (!endpoint) throw new Error(`${S3_ENDPOINT_URL} is not set: start the embedded stack first`);
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
