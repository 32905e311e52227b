/**
 * File bytes in the files bucket. Keys start with the company (`companies/<companyId>/...`)
 * so that a bucket policy or an IAM condition can scope access by tenant.
 */
import { DeleteObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { filesBucketName, s3 } from '#shared/clients.js';

export const subcategoryImageKey = (companyId: string, subcategoryId: string, fileId: string) =>
  `companies/${companyId}/subcategories/${subcategoryId}/images/${fileId}`;

export async function putFileBytes(key: string, content: Buffer, contentType: string): Promise<void> {
  await s3.send(
    new PutObjectCommand({ Bucket: filesBucketName(), Key: key, Body: content, ContentType: contentType }),
  );
}

/** Deletes up to 1000 keys in one call. */
export async function deleteFileBytes(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await s3.send(
    new DeleteObjectsCommand({
      Bucket: filesBucketName(),
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
}
