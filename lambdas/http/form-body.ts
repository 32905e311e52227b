/**
 * Bodies of operations that take `multipart/form-data` (fields and one file). The same fields
 * are also accepted as a JSON object, without a file, for clients that have nothing to upload.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#shared/errors.js';
import type { UploadedFile } from '#shared/multipart-stream.js';
import { parseJsonBody } from './http-request.js';
import { isMultipart, parseMultipart } from './multipart.js';

export interface FormOptions {
  /** The part that carries the file. */
  fileField: string;
  maxFileBytes: number;
}

export interface FormBody {
  fields: Record<string, unknown>;
  file?: UploadedFile;
}

export async function readFormBody(event: APIGatewayProxyEvent, options: FormOptions): Promise<FormBody> {
  if (isMultipart(event)) {
    const { fields, files } = await parseMultipart(event, {
      maxFileBytes: options.maxFileBytes,
    });
    // A file input left empty in a browser form arrives as a part with no name and no bytes.
    const file = files.find(
      (each) => each.fieldName === options.fileField && (each.fileName !== '' || each.content.length > 0),
    );
    return { fields, file };
  }
  const body = parseJsonBody(event);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([
      { field: 'body', code: 'TYPE_INVALID', message: 'body must be multipart/form-data or a JSON object' },
    ]);
  }
  return { fields: body as Record<string, unknown> };
}
