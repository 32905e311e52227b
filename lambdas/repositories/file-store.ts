/**
 * File bytes in the files bucket. Keys start with the company (`companies/<companyId>/...`)
 * so that a bucket policy or an IAM condition can scope access by tenant. Large bodies stream
 * through multipart uploads (5 MB parts, two at a time), so memory stays bounded whatever
 * the file's size.
 */
import type { Readable } from 'node:stream';
import { filesBucketName } from '#shared/clients.js';
import {
  copyObject,
  deleteObjects,
  getObjectBytes,
  getObjectStream,
  headObject,
  putObject,
} from '#shared/s3-objects.js';
import { presignedGetUrl, presignedPost } from '#shared/s3-presign.js';
import { type StreamedUpload, streamObject } from '#shared/s3-streamed-upload.js';

/**
 * Key prefix of a company's bytes in the files bucket (its files, `file-repository.ts`, and its
 * subcategories' images); the operations' IAM grants cover it as `companies/*`.
 */
export const COMPANY_FILES_PREFIX = 'companies/';

export const subcategoryImageKey = (companyId: string, subcategoryId: string, fileId: string) =>
  `${COMPANY_FILES_PREFIX}${companyId}/subcategories/${subcategoryId}/images/${fileId}`;

export async function putFileBytes(key: string, content: Buffer, contentType: string): Promise<void> {
  await putObject({ bucket: filesBucketName(), key }, content, contentType);
}

/** Starts streaming `body` into `key`; `done` settles when the upload is complete or aborted. */
export const streamFileBytes = (key: string, body: Readable, contentType: string): StreamedUpload =>
  streamObject({ bucket: filesBucketName(), key }, body, contentType);

export const readFileBytes = (key: string): Promise<Buffer> =>
  getObjectBytes({ bucket: filesBucketName(), key });

export const openFileStream = (key: string, versionId?: string): Promise<Readable> =>
  getObjectStream({ bucket: filesBucketName(), key, versionId });

/** The stored object's size and version (versioned buckets), or undefined when there is none. */
export const storedFile = (key: string): Promise<{ size: number; versionId?: string } | undefined> =>
  headObject({ bucket: filesBucketName(), key });

/** Copies one version of a stored file to another key, server-side; returns the new version. */
export const copyFileBytes = (
  from: { key: string; versionId?: string },
  toKey: string,
  contentType: string,
): Promise<{ versionId?: string }> => copyObject({ bucket: filesBucketName(), ...from }, toKey, contentType);

/**
 * Deletes stored files. With a version id the version itself goes (the bucket is versioned:
 * deleting only the key would leave the bytes behind a delete marker).
 */
export async function deleteFileBytes(
  files: Array<string | { key: string; versionId?: string }>,
): Promise<void> {
  if (files.length === 0) return;
  await deleteObjects(
    filesBucketName(),
    files.map((file) => (typeof file === 'string' ? { key: file } : file)),
  );
}

/** A short-lived GET address that responds with the given headers. */
export const presignedDownloadUrl = (
  key: string,
  headers: { contentType: string; contentDisposition: string; cacheControl: string },
  expiresInSeconds: number,
): Promise<string> =>
  presignedGetUrl(
    { bucket: filesBucketName(), key },
    {
      'response-cache-control': headers.cacheControl,
      'response-content-disposition': headers.contentDisposition,
      'response-content-type': headers.contentType,
    },
    expiresInSeconds,
  );

/**
 * A presigned POST that lets a client send one file of exactly `size` bytes and the given
 * type straight to `key`. S3 enforces the conditions in AWS; s3rver does not, so the server
 * checks size and content again when the upload is completed.
 */
export const presignedUploadPost = (
  key: string,
  conditions: { contentType: string; size: number },
  expiresInSeconds: number,
): Promise<{ url: string; fields: Record<string, string> }> =>
  presignedPost(
    { bucket: filesBucketName(), key },
    [
      ['content-length-range', conditions.size, conditions.size],
      ['eq', '$Content-Type', conditions.contentType],
    ],
    { 'Content-Type': conditions.contentType },
    expiresInSeconds,
  );
