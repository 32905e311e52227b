import { getExport } from '#domain/exports/export-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getExport, async ({ principal, path }) => ({
  body: await getExport(principal.tenantId, path.exportId),
  headers: { 'Cache-Control': 'private, no-store' },
}));
