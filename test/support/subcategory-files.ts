/** Reads what the subcategory operations left in the files bucket (s3rver in the tests). */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { subcategoryImageKey } from '../../lambdas/repositories/file-store';
import { filesBucketName } from '../../lambdas/shared/clients';
import { localS3 } from './s3-client';

/** The stored bytes and content type of a subcategory image; undefined when there is none. */
export async function readStoredImage(
  companyId: string,
  subcategoryId: string,
  imageId: string,
): Promise<{ content: Buffer; contentType: string | undefined } | undefined> {
  try {
    const response = await localS3().send(
      new GetObjectCommand({
        Bucket: filesBucketName(),
        Key: subcategoryImageKey(companyId, subcategoryId, imageId),
      }),
    );
    const content = Buffer.from((await response.Body?.transformToByteArray()) ?? []);
    return { content, contentType: response.ContentType };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/**
 * The keys in the files bucket under a company's subcategory images: all of them, or those of
 * one subcategory.
 */
export async function storedImageKeys(companyId: string, subcategoryId?: string): Promise<string[]> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await localS3().send(
      new ListObjectsV2Command({
        Bucket: filesBucketName(),
        Prefix: `companies/${companyId}/subcategories/${subcategoryId === undefined ? '' : `${subcategoryId}/images/`}`,
        ContinuationToken: continuationToken,
      }),
    );
    keys.push(...(page.Contents ?? []).map((entry) => entry.Key ?? ''));
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken);
  return keys.sort();
}
