import { listFiles } from '#domain/files/file-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(fileOperations.listFiles, async ({ principal, path, query, event }) => ({
  body: await listFiles(principal.tenantId, path.objectId, query, resourceLocation(event, '')),
}));
