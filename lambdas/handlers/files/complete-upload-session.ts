import { completeUploadSession } from '#domain/files/upload-sessions.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(
  fileOperations.completeUploadSession,
  async ({ principal, path, event }) => {
    const file = await completeUploadSession(
      principal,
      path.objectId,
      path.uploadId,
      resourceLocation(event, ''),
    );
    return { body: file, headers: { Location: file.url } };
  },
  idempotentRequests,
);
