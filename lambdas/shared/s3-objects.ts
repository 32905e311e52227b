/**
 * The S3 object operations the service uses, on `s3-requests.ts`: each is the SDK command of
 * the same name, with the same request on the wire.
 */
import type { Readable } from 'node:stream';
import { AwsRequestError, readAll } from './aws-requests.js';
import {
  contentMd5,
  isMissingObject,
  sendS3,
  sendS3Checked,
  xmlBody,
  xmlEscape,
  xmlText,
} from './s3-requests.js';

export interface ObjectRef {
  bucket: string;
  key: string;
  /** A version of a versioned bucket; the latest when absent. */
  versionId?: string;
}

const versionQuery = (versionId?: string): Record<string, string> => (versionId ? { versionId } : {});

/** The version S3 gave a write (versioned buckets), if any. */
export const versionOf = (headers: Record<string, string | undefined>) =>
  headers['x-amz-version-id'] || undefined;

/** PutObject; `onlyIfAbsent` sends `If-None-Match: *` (412 PreconditionFailed when the key exists). */
export async function putObject(
  target: { bucket: string; key: string },
  body: Buffer | string,
  contentType: string,
  options: { onlyIfAbsent?: boolean } = {},
): Promise<{ versionId?: string }> {
  const response = await sendS3({
    operation: 'PutObject',
    method: 'PUT',
    bucket: target.bucket,
    key: target.key,
    query: { 'x-id': 'PutObject' },
    headers: {
      'content-type': contentType,
      'content-md5': contentMd5(body),
      ...(options.onlyIfAbsent ? { 'if-none-match': '*' } : {}),
    },
    body,
  });
  response.body.resume();
  return { versionId: versionOf(response.headers) };
}

/** GetObject: the bytes as a stream (the caller reads it to the end or destroys it). */
export async function getObjectStream(object: ObjectRef): Promise<Readable> {
  const response = await sendS3({
    operation: 'GetObject',
    method: 'GET',
    bucket: object.bucket,
    key: object.key,
    query: { 'x-id': 'GetObject', ...versionQuery(object.versionId) },
  });
  return response.body;
}

/** GetObject, read whole. */
export const getObjectBytes = async (object: ObjectRef): Promise<Buffer> =>
  readAll(await getObjectStream(object));

/** HeadObject: the object's size and version, or undefined when there is no such object. */
export async function headObject(
  object: ObjectRef,
): Promise<{ size: number; versionId?: string } | undefined> {
  try {
    const response = await sendS3({
      operation: 'HeadObject',
      method: 'HEAD',
      bucket: object.bucket,
      key: object.key,
      query: versionQuery(object.versionId),
    });
    response.body.resume();
    return { size: Number(response.headers['content-length'] ?? 0), versionId: versionOf(response.headers) };
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}

/** CopyObject within a bucket, with a new content type (`MetadataDirective: REPLACE`). */
export async function copyObject(
  from: ObjectRef,
  toKey: string,
  contentType: string,
): Promise<{ versionId?: string }> {
  const source = `${from.bucket}/${from.key.split('/').map(encodeURIComponent).join('/')}${from.versionId ? `?versionId=${from.versionId}` : ''}`;
  const response = await sendS3Checked(
    {
      operation: 'CopyObject',
      method: 'PUT',
      bucket: from.bucket,
      key: toKey,
      query: { 'x-id': 'CopyObject' },
      headers: {
        'content-type': contentType,
        'x-amz-copy-source': source,
        'x-amz-metadata-directive': 'REPLACE',
      },
    },
    'CopyObjectResult',
  );
  response.body.resume();
  return { versionId: versionOf(response.headers) };
}

/**
 * DeleteObjects, 1000 keys per request (S3's limit), quiet: S3 lists only the keys it could not
 * delete, and those are an error here.
 */
export async function deleteObjects(bucket: string, objects: Array<{ key: string; versionId?: string }>) {
  for (let start = 0; start < objects.length; start += 1000) {
    const entries = objects
      .slice(start, start + 1000)
      .map(
        (object) =>
          `<Object><Key>${xmlEscape(object.key)}</Key>${object.versionId ? `<VersionId>${xmlEscape(object.versionId)}</VersionId>` : ''}</Object>`,
      )
      .join('');
    const { body, headers } = xmlBody('Delete', `${entries}<Quiet>true</Quiet>`);
    const response = await sendS3({
      operation: 'DeleteObjects',
      method: 'POST',
      bucket,
      query: { delete: '' },
      headers,
      body,
    });
    const xml = (await readAll(response.body)).toString('utf8');
    const failed = /<Error>[\s\S]*?<\/Error>/.exec(xml)?.[0];
    if (failed)
      throw new AwsRequestError(
        'S3',
        'DeleteObjects',
        response.status,
        xmlText(failed, 'Code') ?? 'Error',
        `${xmlText(failed, 'Key')}: ${xmlText(failed, 'Message')}`,
        response.requestId,
      );
  }
}
