/**
 * Parses a `multipart/form-data` stream with busboy, handing each file part over as a stream.
 * It sits in shared/ because two layers read multipart: the HTTP runtime reads whole bodies of
 * forms (`lambdas/http/multipart.ts`) and the files domain streams a direct upload to storage.
 * A body that is not well-formed multipart is a 400, never a 500.
 */
import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { ValidationError } from './errors.js';

/** A file part read whole into memory. */
export interface UploadedFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  content: Buffer;
}

const malformed = (message: string) =>
  new ValidationError([{ field: 'body', code: 'FORMAT_INVALID', message }], message);

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
