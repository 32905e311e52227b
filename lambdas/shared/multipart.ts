/**
 * Reads a `multipart/form-data` body (API Gateway hands it over base64-encoded, as a binary
 * media type) into its text fields and files, with busboy. A body that is not well-formed
 * multipart is a 400, never a 500.
 */

import type { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import busboy from 'busboy';
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

export function parseMultipart(event: APIGatewayProxyEvent, limits: MultipartLimits): Promise<MultipartBody> {
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  const body = event.body
    ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: {
          // busboy signals its limit when a file reaches it: one byte more lets exactly the limit through.
          fileSize: limits.maxFileBytes + 1,
          files: limits.maxFiles ?? 1,
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
    const files: UploadedFile[] = [];
    let failure: Error | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body cut off inside a file part errors the part's stream: a malformed body, not a crash.
      stream.on('error', (error: Error) => {
        failure ??= malformed(`The multipart body is malformed: ${error.message}`);
      });
      stream.on('limit', () => {
        failure ??= new PayloadTooLargeError(
          limits.fileTooLargeCode,
          `The file is larger than ${limits.maxFileBytes} bytes`,
        );
      });
      stream.on('close', () => {
        files.push({
          fieldName,
          fileName: info.filename ?? '',
          mimeType: info.mimeType ?? '',
          content: Buffer.concat(chunks),
        });
      });
    });
    parser.on('filesLimit', () => {
      failure ??= malformed('Only one file may be sent');
    });
    parser.on('error', (error: Error) =>
      reject(failure ?? malformed(`The multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    parser.end(body);
  });
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
 */
export function parseMultipartStream(
  body: Readable,
  contentType: string,
  onFile: FilePartHandler,
  limits: { maxFileBytes: number },
): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // One byte over the limit, so that an oversize file is noticed rather than silently cut.
        limits: { fileSize: limits.maxFileBytes + 1, files: 5, fields: 50, fieldSize: 1024 * 1024 },
        defParamCharset: 'utf8',
      });
    } catch (error) {
      reject(malformed(`The body is not multipart/form-data: ${(error as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      // A body cut off inside a file part errors the part's stream; busboy reports it as well.
      stream.on('error', () => undefined);
      onFile({ fieldName, fileName: info.filename ?? '', mimeType: info.mimeType ?? '', stream });
    });
    parser.on('error', (error: Error) =>
      reject(malformed(`The multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => resolve(fields));
    body.on('error', (error) => reject(malformed(`The body could not be read: ${error.message}`)));
    body.pipe(parser);
  });
}
