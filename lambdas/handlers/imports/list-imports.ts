import { listImports } from '#domain/imports/import-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listImports, async ({ principal, query, event }) => ({
  body: await listImports(principal.tenantId, query, resourceLocation(event, '')),
}));
