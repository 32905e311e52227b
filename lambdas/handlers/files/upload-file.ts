import { uploadFile } from '#domain/files/file-service.js';
import { requestBodyStream } from '#http/body-stream.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { headerValue } from '#http/http-request.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(
  operations.uploadFile,
  async ({ principal, path, event }) => {
    const length = headerValue(event.headers, 'content-length');
    const file = await uploadFile(principal, path.objectId, {
      form: operations.uploadFile.streamedBody,
      body: requestBodyStream(event),
      contentType: headerValue(event.headers, 'content-type') ?? '',
      contentLength: length === undefined ? undefined : Number(length),
      pathPrefix: resourceLocation(event, ''),
    });
    return { body: file, headers: { Location: file.url } };
  },
  idempotentRequests,
);
