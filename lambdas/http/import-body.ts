/**
 * The body of `POST /v2/imports`: a multipart form (a `file` part and option fields), a JSON
 * object of options (a presigned upload when it gives `size`), or the file itself as the whole
 * body, typed `text/csv` or as JSON Lines.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { IMPORT_BODY_TYPES } from '#domain/imports/import-schemas.js';
import { PayloadTooLargeError } from '#shared/errors.js';
import { type FormBody, type FormOptions, readFormBody } from './form-body.js';
import { bodyBytes, headerValue } from './http-request.js';

export async function readImportBody(event: APIGatewayProxyEvent, options: FormOptions): Promise<FormBody> {
  const contentType = headerValue(event.headers, 'content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType in IMPORT_BODY_TYPES) {
    const content = bodyBytes(event);
    if (content.length > options.maxFileBytes) {
      throw new PayloadTooLargeError(
        'FILE_TOO_LARGE',
        `A file in the request may have ${options.maxFileBytes} bytes; send a larger one by presigned upload (give "size")`,
      );
    }
    return {
      fields: {},
      file: { fieldName: options.fileField, fileName: '', mimeType: mediaType, content: bodyBytes(event) },
    };
  }
  return readFormBody(event, options);
}
