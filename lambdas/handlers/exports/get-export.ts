import { getExport } from '#domain/exports/export-service.js';
import { httpHandler } from '#http/http-handler.js';
import { exportOperations } from '../../operations/exports.js';

export const handler = httpHandler(exportOperations.getExport, async ({ principal, path }) => ({
  body: await getExport(principal.tenantId, path.exportId),
  headers: { 'Cache-Control': 'private, no-store' },
}));
