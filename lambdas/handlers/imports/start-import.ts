import { startImport } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.startImport, async ({ principal, path, event }) => {
  const pathPrefix = resourceLocation(event, '');
  return {
    body: await startImport(principal, path.importId, pathPrefix),
    headers: { Location: `${pathPrefix}/v2/imports/${path.importId}` },
  };
});
