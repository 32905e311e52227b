/**
 * The S3 SDK and client, loaded on first use. The SDK is about 190 KB of bundle and a fifth of
 * a function's module initialization; loading it at the first S3 call keeps it off the cold
 * start of every function that reaches S3 only on some paths (and, for the others, moves it
 * from the init phase to the first request that needs it). esbuild turns these dynamic imports
 * into lazily evaluated parts of the same bundle: nothing is fetched at run time.
 */
import type * as S3Sdk from '@aws-sdk/client-s3';

export type { S3Sdk };

let loading: Promise<{ s3: S3Sdk.S3Client; sdk: typeof S3Sdk }> | undefined;

/**
 * The shared S3 client (`s3-client.ts`) and the SDK's command classes.
 *
 * @example
 * const { s3, sdk } = await loadS3();
 * await s3.send(new sdk.HeadObjectCommand({ Bucket, Key }));
 */
export function loadS3(): Promise<{ s3: S3Sdk.S3Client; sdk: typeof S3Sdk }> {
  loading ??= Promise.all([import('./s3-client.js'), import('@aws-sdk/client-s3')]).then(([client, sdk]) => ({
    s3: client.s3,
    sdk,
  }));
  return loading;
}
