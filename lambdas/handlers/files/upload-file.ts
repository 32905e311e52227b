import { uploadFile } from '#domain/files/file-service.js';
import { requestBodyStream } from '#http/body-stream.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { headerValue } from '#http/http-request.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(
  fileOperations.uploadFile,
  async ({ principal, path, event }) => {
    const length = headerValue(event.headers, 'content-length');
    const file = await uploadFile(principal, path.objectId, {
      form: fileOperations.uploadFile.streamedBody,
      body: requestBodyStream(event),
      contentType: headerValue(event.headers, 'content-type') ?? '',
      contentLength: length === undefined ? undefined : Number(length),
      pathPrefix: resourceLocation(event, ''),
    });
    return { body: file, headers: { Location: file.url } };
  },
  idempotentRequests,
);
