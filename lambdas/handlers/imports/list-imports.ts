import { listImports } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(importOperations.listImports, async ({ principal, query, event }) => ({
  body: await listImports(principal.tenantId, query, resourceLocation(event, '')),
}));
