import { startImport } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(importOperations.startImport, async ({ principal, path, event }) => {
  const pathPrefix = resourceLocation(event, '');
  return {
    body: await startImport(principal, path.importId, pathPrefix),
    headers: { Location: `${pathPrefix}/v2/imports/${path.importId}` },
  };
});
