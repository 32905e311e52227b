/**
 * Reads a whole `multipart/form-data` body (API Gateway hands it over base64-encoded, as a binary
 * media type) into its text fields and files, with busboy. A body that is not well-formed
 * multipart is a 400, never a 500.
 */

import type { APIGatewayProxyEvent } from 'aws-lambda';
import { fileTooLarge } from '#shared/errors.js';
import { type FilePartHandler, parseMultipartStream, type UploadedFile } from '#shared/multipart-stream.js';
import { checkUploadFileName } from '#shared/name-text.js';
import { requestBodyStream } from './body-stream.js';
import { headerValue } from './http-request.js';

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  /** A file over it is refused with 413 `FILE_TOO_LARGE`. */
  maxFileBytes: number;
  maxFiles?: number;
}

export const isMultipart = (event: APIGatewayProxyEvent): boolean =>
  (headerValue(event.headers, 'content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/** Reads a whole file part into memory, noting whether busboy cut it at the size limit. */
function readWholePart(part: Parameters<FilePartHandler>[0]): Promise<UploadedFile & { truncated: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let truncated = false;
    part.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    part.stream.on('limit', () => {
      truncated = true;
    });
    // 'close' follows both the end and an error (a cut-off body, which the parser reports).
    part.stream.on('close', () =>
      resolve({
        fieldName: part.fieldName,
        fileName: part.fileName,
        mimeType: part.mimeType,
        content: Buffer.concat(chunks),
        truncated,
      }),
    );
  });
}

/** Reads a whole multipart body (at most API Gateway's request size) into its fields and files. */
export async function parseMultipart(
  event: APIGatewayProxyEvent,
  limits: MultipartLimits,
): Promise<MultipartBody> {
  const parts: Array<ReturnType<typeof readWholePart>> = [];
  // A file name is refused before anything reads it (a type check, storage): its bytes are dropped.
  let refusedName: unknown;
  const fieldsRead = parseMultipartStream(
    requestBodyStream(event),
    headerValue(event.headers, 'content-type') ?? '',
    (part) => {
      try {
        checkUploadFileName(part.fileName, part.fieldName);
      } catch (error) {
        refusedName ??= error;
        part.stream.resume();
        return;
      }
      parts.push(readWholePart(part));
    },
    { maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles ?? 1 },
  );
  const tooLarge = () => fileTooLarge(limits.maxFileBytes);
  let fields: Record<string, string>;
  try {
    fields = await fieldsRead;
  } catch (error) {
    if (refusedName) throw refusedName;
    // An oversize file is the response even when the body is also malformed after it.
    if ((await Promise.all(parts)).some((part) => part.truncated)) throw tooLarge();
    throw error;
  }
  if (refusedName) throw refusedName;
  const files = await Promise.all(parts);
  if (files.some((file) => file.truncated)) throw tooLarge();
  return { fields, files: files.map(({ truncated: _truncated, ...file }) => file) };
}
