/**
 * Calls of the file handlers (spec 4.16-4.18 and the list and upload-session extensions) in
 * process, as API Gateway makes them, and reads of what they left in the files bucket
 * (s3rver). Uploads arrive as API Gateway hands over a binary media type: the multipart body
 * base64-encoded with `isBase64Encoded: true`, plus `Content-Type` and `Content-Length`.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { FileView } from '../../lambdas/domain/files/file-view';
import { handler as completeUploadSessionHandler } from '../../lambdas/handlers/files/complete-upload-session';
import { handler as createUploadSessionHandler } from '../../lambdas/handlers/files/create-upload-session';
import { handler as deleteFileHandler } from '../../lambdas/handlers/files/delete-file';
import { handler as downloadFileHandler } from '../../lambdas/handlers/files/download-file';
import { handler as listFilesHandler } from '../../lambdas/handlers/files/list-files';
import { handler as uploadFileHandler } from '../../lambdas/handlers/files/upload-file';
import { handler as verifyObjectHandler } from '../../lambdas/handlers/objects/verify-object';
import { filesBucketName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { type EventOptions, invoke, lambdaContext, proxyEvent } from './api-events';
import type { FileSample } from './file-samples';
import { localS3 } from './s3-client';
import { type FormPart, multipartBody, newBoundary } from './subcategory-multipart';

/** What the handlers response, with the JSON body parsed (`undefined` when empty). */
export interface FileResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

/** The file record of spec 2.6, as the tests read it: the view the API responds with. */
export type FileRecordBody = FileView;

const FILES_RESOURCE = '/v2/companies/{companyId}/objects/{objectId}/files';
export const FILE_RESOURCE = '/v2/companies/{companyId}/files/{fileId}';
const UPLOADS_RESOURCE = '/v2/companies/{companyId}/objects/{objectId}/files/uploads';
const COMPLETE_RESOURCE = '/v2/companies/{companyId}/objects/{objectId}/files/uploads/{uploadId}/complete';

export const sha256Hex = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

const objectFilesPath = (companyId: string, objectRef: string) =>
  `/v2/companies/${companyId}/objects/${encodeURIComponent(objectRef)}/files`;
export const filePath = (companyId: string, fileId: string) => `/v2/companies/${companyId}/files/${fileId}`;

type Handler = (event: APIGatewayProxyEvent, context: typeof lambdaContext) => Promise<APIGatewayProxyResult>;

async function call(handler: Handler, event: APIGatewayProxyEvent): Promise<FileResponse> {
  const result = await handler(event, lambdaContext);
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

export interface UploadOptions {
  /** The company in the path; the principal's own by default. */
  companyId?: string;
  /** A Content-Type header sent as is (default `multipart/form-data; boundary=<boundary>`). */
  contentType?: string;
  /** A Content-Length header sent as is; the body's length by default, `null` for none. */
  contentLength?: string | null;
}

/** The upload's proxy event with a raw body. */
export function uploadEvent(
  principal: Principal | undefined,
  objectRef: string,
  body: Buffer,
  boundary: string,
  options: UploadOptions = {},
): APIGatewayProxyEvent {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  const headers: Record<string, string> = {
    'Content-Type': options.contentType ?? `multipart/form-data; boundary=${boundary}`,
  };
  if (options.contentLength !== null)
    headers['Content-Length'] = options.contentLength ?? String(body.length);
  const event = proxyEvent({
    method: 'POST',
    path: objectFilesPath(companyId, objectRef),
    resource: FILES_RESOURCE,
    principal,
    pathParameters: { companyId, objectId: objectRef },
    rawBody: body.toString('base64'),
    headers,
  });
  return { ...event, isBase64Encoded: true };
}

/** POST .../files with a raw body (for malformed bodies). */
export const uploadRaw = (
  principal: Principal | undefined,
  objectRef: string,
  body: Buffer,
  boundary: string,
  options: UploadOptions = {},
) => call(uploadFileHandler, uploadEvent(principal, objectRef, body, boundary, options));

/** POST .../files with a well-formed multipart body of the given parts. */
export function uploadParts(
  principal: Principal | undefined,
  objectRef: string,
  parts: readonly FormPart[],
  options: UploadOptions = {},
): Promise<FileResponse> {
  const boundary = newBoundary();
  return uploadRaw(principal, objectRef, multipartBody(parts, boundary), boundary, options);
}

/** The `file` part of a sample, optionally with another declared type or name. */
export const filePartOf = (
  fileSample: FileSample,
  overrides: { fileName?: string; contentType?: string } = {},
): FormPart => ({
  name: 'file',
  fileName: overrides.fileName ?? fileSample.fileName,
  contentType: overrides.contentType ?? fileSample.mimeType,
  content: fileSample.content,
});

/** Uploads a sample with optional `description` and `tags`. */
export function uploadSample(
  principal: Principal | undefined,
  objectRef: string,
  fileSample: FileSample,
  fields: { description?: string; tags?: string } = {},
  options: UploadOptions = {},
): Promise<FileResponse> {
  const parts: FormPart[] = [filePartOf(fileSample)];
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) parts.push({ name, value });
  return uploadParts(principal, objectRef, parts, options);
}

/** Uploads a sample and returns its record; fails loudly when refused. */
export async function uploadSampleOk(
  principal: Principal,
  objectRef: string,
  fileSample: FileSample,
  fields: { description?: string; tags?: string } = {},
): Promise<FileRecordBody> {
  const response = await uploadSample(principal, objectRef, fileSample, fields);
  if (response.statusCode !== 201) {
    throw new Error(
      `upload of ${fileSample.fileName}: ${response.statusCode} ${JSON.stringify(response.body)}`,
    );
  }
  return response.body as FileRecordBody;
}

/** A download's response: raw as the handler returned it, with the bytes decoded when base64. */
export interface DownloadResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  isBase64Encoded: boolean;
  rawBody: string;
  /** The bytes of a base64 response. */
  content: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON error bodies
  json: any;
}

/** GET /v2/companies/{companyId}/files/{fileId}. */
export async function download(
  principal: Principal | undefined,
  fileId: string,
  options: { companyId?: string; query?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<DownloadResponse> {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  const event = proxyEvent({
    method: 'GET',
    path: filePath(companyId, fileId),
    resource: FILE_RESOURCE,
    principal,
    pathParameters: { companyId, fileId },
    query: options.query,
    headers: options.headers,
  });
  const result = await downloadFileHandler(event, lambdaContext);
  const isBase64Encoded = result.isBase64Encoded === true;
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    isBase64Encoded,
    rawBody: result.body,
    content: isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.alloc(0),
    json: !isBase64Encoded && result.body ? JSON.parse(result.body) : undefined,
  };
}

/** DELETE /v2/companies/{companyId}/files/{fileId}. */
export async function deleteFile(
  principal: Principal | undefined,
  fileId: string,
  options: { companyId?: string } = {},
): Promise<FileResponse & { rawBody: string }> {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  const result = await deleteFileHandler(
    proxyEvent({
      method: 'DELETE',
      path: filePath(companyId, fileId),
      resource: FILE_RESOURCE,
      principal,
      pathParameters: { companyId, fileId },
    }),
    lambdaContext,
  );
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    rawBody: result.body,
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

/** GET .../objects/{objectId}/files (extension). */
export function listFiles(
  principal: Principal | undefined,
  objectRef: string,
  options: { companyId?: string; query?: Record<string, string> } = {},
): Promise<FileResponse> {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  return invoke(listFilesHandler, {
    method: 'GET',
    path: objectFilesPath(companyId, objectRef),
    resource: FILES_RESOURCE,
    principal,
    pathParameters: { companyId, objectId: objectRef },
    query: options.query,
  });
}

/** POST .../files/uploads (extension) with a JSON body. */
export function createUploadSession(
  principal: Principal | undefined,
  objectRef: string,
  body: unknown,
  options: { companyId?: string } & Pick<EventOptions, 'rawBody' | 'headers'> = {},
): Promise<FileResponse> {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  return invoke(createUploadSessionHandler, {
    method: 'POST',
    path: `${objectFilesPath(companyId, objectRef)}/uploads`,
    resource: UPLOADS_RESOURCE,
    principal,
    pathParameters: { companyId, objectId: objectRef },
    body,
    rawBody: options.rawBody,
    headers: options.headers,
  });
}

/** POST .../files/uploads/{uploadId}/complete (extension). */
export function completeUploadSession(
  principal: Principal | undefined,
  objectRef: string,
  uploadId: string,
  options: { companyId?: string } = {},
): Promise<FileResponse> {
  const companyId = options.companyId ?? principal?.tenantId ?? '';
  return invoke(completeUploadSessionHandler, {
    method: 'POST',
    path: `${objectFilesPath(companyId, objectRef)}/uploads/${uploadId}/complete`,
    resource: COMPLETE_RESOURCE,
    principal,
    pathParameters: { companyId, objectId: objectRef, uploadId },
  });
}

/** GET /v2/objects/{objectId}/verify (extension). */
export const verifyObject = (principal: Principal | undefined, objectId: string) =>
  call(
    verifyObjectHandler,
    proxyEvent({
      method: 'GET',
      path: `/v2/objects/${objectId}/verify`,
      resource: '/v2/objects/{objectId}/verify',
      principal,
      pathParameters: { objectId },
    }),
  );

/** The keys in the files bucket under a company's files (`companies/<id>/files/`). */
export async function storedFileKeys(companyId: string): Promise<string[]> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await localS3().send(
      new ListObjectsV2Command({
        Bucket: filesBucketName(),
        Prefix: `companies/${companyId}/files/`,
        ContinuationToken: continuationToken,
      }),
    );
    keys.push(...(page.Contents ?? []).map((entry) => entry.Key ?? ''));
    continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuationToken);
  return keys.sort();
}

/** Every key in the files bucket under a company (files, images, anything). */
export async function storedCompanyKeys(companyId: string): Promise<string[]> {
  const page = await localS3().send(
    new ListObjectsV2Command({ Bucket: filesBucketName(), Prefix: `companies/${companyId}/` }),
  );
  return (page.Contents ?? []).map((entry) => entry.Key ?? '').sort();
}

/** The stored bytes and content type under a key; undefined when there is none. */
export async function readStoredObject(
  key: string,
): Promise<{ content: Buffer; contentType: string | undefined } | undefined> {
  try {
    const response = await localS3().send(new GetObjectCommand({ Bucket: filesBucketName(), Key: key }));
    return {
      content: Buffer.from((await response.Body?.transformToByteArray()) ?? []),
      contentType: response.ContentType,
    };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Where a file's bytes are (the repository's layout: `companies/<company>/files/<fileId>`). */
export const fileKeyOf = (companyId: string, fileId: string) => `companies/${companyId}/files/${fileId}`;
/** Where a presigned upload lands before it is verified. */
export const stagingKeyOf = (companyId: string, uploadId: string) => `uploads/${companyId}/${uploadId}`;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The spec's standard error body (section 7) with this code. */
export const errorBody = (code: string) => ({
  error: expect.any(String),
  code,
  timestamp: expect.stringMatching(ISO_UTC),
});

/**
 * The company's keys in the files bucket, watched for `watchMs`: an upload still streaming to
 * storage after the response to its request shows up here late, so one early look is not enough.
 * Resolves with every key seen at any time during the watch.
 */
export async function keysSeenWithin(companyId: string, watchMs = 1500): Promise<string[]> {
  const seen = new Set<string>();
  const deadline = Date.now() + watchMs;
  do {
    for (const key of await storedCompanyKeys(companyId)) seen.add(key);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < deadline);
  for (const key of await storedCompanyKeys(companyId)) seen.add(key);
  return [...seen].sort();
}
