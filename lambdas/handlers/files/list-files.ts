import { listFiles } from '#domain/files/file-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listFiles, async ({ principal, path, query, event }) => ({
  body: await listFiles(principal.tenantId, path.objectId, query, resourceLocation(event, '')),
}));
