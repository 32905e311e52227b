import { createUploadSession } from '#domain/files/upload-sessions.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(
  fileOperations.createUploadSession,
  async ({ principal, path, body, event }) => ({
    body: await createUploadSession(principal, path.objectId, body, resourceLocation(event, '')),
  }),
  idempotentRequests,
);
