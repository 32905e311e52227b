/**
 * File bytes in the files bucket. Keys start with the company (`companies/<companyId>/...`)
 * so that a bucket policy or an IAM condition can scope access by tenant. Large bodies stream
 * through multipart uploads (5 MB parts, two at a time), so memory stays bounded whatever
 * the file's size.
 */
import type { Readable } from 'node:stream';
import { filesBucketName } from '#shared/clients.js';
import { loadS3 } from '#shared/s3-loader.js';

/**
 * Key prefix of a company's bytes in the files bucket (its files, `file-repository.ts`, and its
 * subcategories' images); the operations' IAM grants cover it as `companies/*`.
 */
export const COMPANY_FILES_PREFIX = 'companies/';

export const subcategoryImageKey = (companyId: string, subcategoryId: string, fileId: string) =>
  `${COMPANY_FILES_PREFIX}${companyId}/subcategories/${subcategoryId}/images/${fileId}`;

export async function putFileBytes(key: string, content: Buffer, contentType: string): Promise<void> {
  const { s3, sdk } = await loadS3();
  await s3.send(
    new sdk.PutObjectCommand({
      Bucket: filesBucketName(),
      Key: key,
      Body: content,
      ContentType: contentType,
    }),
  );
}

/** Starts streaming `body` into `key`; `done` settles when the upload is complete or aborted. */
export function streamFileBytes(
  key: string,
  body: Readable,
  contentType: string,
): { done: Promise<{ VersionId?: string }>; abort(): Promise<void> } {
  const upload = Promise.all([loadS3(), import('@aws-sdk/lib-storage')]).then(
    ([{ s3 }, { Upload }]) =>
      new Upload({
        client: s3,
        params: { Bucket: filesBucketName(), Key: key, Body: body, ContentType: contentType },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      }),
  );
  return {
    done: upload.then((started) => started.done()),
    abort: () => upload.then((started) => started.abort()),
  };
}

export async function readFileBytes(key: string): Promise<Buffer> {
  const { s3, sdk } = await loadS3();
  const response = await s3.send(new sdk.GetObjectCommand({ Bucket: filesBucketName(), Key: key }));
  return Buffer.from(
    await (response.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
}

export async function openFileStream(key: string, versionId?: string): Promise<Readable> {
  const { s3, sdk } = await loadS3();
  const response = await s3.send(
    new sdk.GetObjectCommand({ Bucket: filesBucketName(), Key: key, VersionId: versionId }),
  );
  return response.Body as Readable;
}

/** The stored object's size and version (versioned buckets), or undefined when there is none. */
export async function storedFile(key: string): Promise<{ size: number; versionId?: string } | undefined> {
  const { s3, sdk } = await loadS3();
  try {
    const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: filesBucketName(), Key: key }));
    return { size: head.ContentLength ?? 0, versionId: head.VersionId };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey')
      return undefined;
    throw error;
  }
}

/** Copies one version of a stored file to another key, server-side; returns the new version. */
export async function copyFileBytes(
  from: { key: string; versionId?: string },
  toKey: string,
  contentType: string,
): Promise<{ versionId?: string }> {
  const source = `${filesBucketName()}/${from.key.split('/').map(encodeURIComponent).join('/')}${from.versionId ? `?versionId=${from.versionId}` : ''}`;
  const { s3, sdk } = await loadS3();
  const copy = await s3.send(
    new sdk.CopyObjectCommand({
      Bucket: filesBucketName(),
      Key: toKey,
      CopySource: source,
      ContentType: contentType,
      MetadataDirective: 'REPLACE',
    }),
  );
  return { versionId: copy.VersionId };
}

/**
 * Deletes stored files, 1000 per call. With a version id the version itself goes (the
 * bucket is versioned: deleting only the key would leave the bytes behind a delete marker).
 */
export async function deleteFileBytes(
  files: Array<string | { key: string; versionId?: string }>,
): Promise<void> {
  if (files.length === 0) return;
  const objects = files.map((file) =>
    typeof file === 'string'
      ? { Key: file }
      : { Key: file.key, ...(file.versionId ? { VersionId: file.versionId } : {}) },
  );
  const { s3, sdk } = await loadS3();
  // S3 takes at most 1000 keys per call.
  for (let start = 0; start < objects.length; start += 1000) {
    const Objects = objects.slice(start, start + 1000);
    await s3.send(
      new sdk.DeleteObjectsCommand({ Bucket: filesBucketName(), Delete: { Objects, Quiet: true } }),
    );
  }
}

/** A short-lived GET address that answers with the given headers. */
export async function presignedDownloadUrl(
  key: string,
  headers: { contentType: string; contentDisposition: string; cacheControl: string },
  expiresInSeconds: number,
): Promise<string> {
  const [{ s3, sdk }, { getSignedUrl }] = await Promise.all([
    loadS3(),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return getSignedUrl(
    s3,
    new sdk.GetObjectCommand({
      Bucket: filesBucketName(),
      Key: key,
      ResponseContentType: headers.contentType,
      ResponseContentDisposition: headers.contentDisposition,
      ResponseCacheControl: headers.cacheControl,
    }),
    { expiresIn: expiresInSeconds },
  );
}

/**
 * A presigned POST that lets a client send one file of exactly `size` bytes and the given
 * type straight to `key`. S3 enforces the conditions in AWS; s3rver does not, so the server
 * checks size and content again when the upload is completed.
 */
export async function presignedUploadPost(
  key: string,
  conditions: { contentType: string; size: number },
  expiresInSeconds: number,
): Promise<{ url: string; fields: Record<string, string> }> {
  const [{ s3 }, { createPresignedPost }] = await Promise.all([
    loadS3(),
    import('@aws-sdk/s3-presigned-post'),
  ]);
  return createPresignedPost(s3, {
    Bucket: filesBucketName(),
    Key: key,
    Conditions: [
      ['content-length-range', conditions.size, conditions.size],
      ['eq', '$Content-Type', conditions.contentType],
    ],
    Fields: { 'Content-Type': conditions.contentType },
    Expires: expiresInSeconds,
  });
}
