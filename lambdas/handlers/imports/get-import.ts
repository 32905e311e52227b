import { getImport } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getImport, async ({ principal, path, event }) => ({
  body: await getImport(principal.tenantId, path.importId, resourceLocation(event, '')),
}));
