/**
 * Reads a `multipart/form-data` body (API Gateway hands it over base64-encoded, as a binary
 * media type) into its text fields and files, with busboy. A body that is not well-formed
 * multipart is a 400, never a 500.
 */

import type { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type busboy from 'busboy';
import { requestBodyStream } from './body-stream.js';
import { PayloadTooLargeError, ValidationError } from './errors.js';
import { headerValue } from './http-request.js';

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  content: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  maxFileBytes: number;
  /** Error code of the 413 for a file over the limit. */
  fileTooLargeCode: string;
  maxFiles?: number;
}

const malformed = (message: string) =>
  new ValidationError([{ field: 'body', code: 'FORMAT_INVALID', message }], message);

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
  const fieldsRead = parseMultipartStream(
    requestBodyStream(event),
    headerValue(event.headers, 'content-type') ?? '',
    (part) => parts.push(readWholePart(part)),
    { maxFileBytes: limits.maxFileBytes, maxFiles: limits.maxFiles ?? 1 },
  );
  const tooLarge = () =>
    new PayloadTooLargeError(limits.fileTooLargeCode, `The file is larger than ${limits.maxFileBytes} bytes`);
  let fields: Record<string, string>;
  try {
    fields = await fieldsRead;
  } catch (error) {
    // An oversize file is the answer even when the body is also malformed after it.
    if ((await Promise.all(parts)).some((part) => part.truncated)) throw tooLarge();
    throw error;
  }
  const files = await Promise.all(parts);
  if (files.some((file) => file.truncated)) throw tooLarge();
  return { fields, files: files.map(({ truncated: _truncated, ...file }) => file) };
}

/** One file part as it streams in; the handler must consume the stream. */
export type FilePartHandler = (part: {
  fieldName: string;
  fileName: string;
  mimeType: string;
  stream: Readable;
}) => void;

/**
 * Parses a multipart stream without buffering file parts: each file part is handed to
 * `onFile` as a stream. Resolves with the text fields when the whole body has been read.
 * Without `maxFiles`, any number of file parts is handed over.
 */
export async function parseMultipartStream(
  body: Readable,
  contentType: string,
  onFile: FilePartHandler,
  limits: { maxFileBytes: number; maxFiles?: number },
): Promise<Record<string, string>> {
  // Loaded with the first multipart body, not at init: most requests of these functions have none.
  const { default: createParser } = await import('busboy');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = createParser({
        headers: { 'content-type': contentType },
        // One byte over the limit, so that an oversize file is noticed rather than silently cut.
        limits: {
          fileSize: limits.maxFileBytes + 1,
          files: limits.maxFiles,
          fields: 50,
          fieldSize: 1024 * 1024,
        },
        defParamCharset: 'utf8',
      });
    } catch (error) {
      reject(malformed(`The body is not multipart/form-data: ${(error as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    let failure: Error | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('filesLimit', () => {
      failure ??= malformed(
        limits.maxFiles === 1 ? 'Only one file may be sent' : `At most ${limits.maxFiles} files may be sent`,
      );
    });
    parser.on('file', (fieldName, stream, info) => {
      // A body cut off inside a file part errors the part's stream; busboy reports it as well.
      stream.on('error', () => undefined);
      onFile({ fieldName, fileName: info.filename ?? '', mimeType: info.mimeType ?? '', stream });
    });
    parser.on('error', (error: Error) =>
      reject(failure ?? malformed(`The multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve(fields)));
    body.on('error', (error) => reject(malformed(`The body could not be read: ${error.message}`)));
    body.pipe(parser);
  });
}
