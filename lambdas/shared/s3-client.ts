/**
 * The S3 client, created once per Lambda container. In local mode it points at s3rver, which
 * needs path-style addressing and no optional checksums, or stream bodies are corrupted.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { traceAwsCalls } from './xray-tracing.js';

const localS3Endpoint = process.env.LOCAL_S3_ENDPOINT;

export const s3 = new S3Client(
  localS3Endpoint
    ? {
        endpoint: localS3Endpoint,
        region: process.env.AWS_REGION ?? 'us-east-1',
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }
    : {},
);

traceAwsCalls(s3, 'S3');
