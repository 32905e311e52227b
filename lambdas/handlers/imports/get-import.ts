import { getImport } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(importOperations.getImport, async ({ principal, path, event }) => ({
  body: await getImport(principal.tenantId, path.importId, resourceLocation(event, '')),
}));
