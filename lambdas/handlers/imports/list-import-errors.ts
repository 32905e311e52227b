import { importErrorsCsv, listImportErrors } from '#domain/imports/import-service.js';
import { httpHandler } from '#http/http-handler.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(importOperations.listImportErrors, async ({ principal, path, query }) => {
  if (query.format === 'csv') {
    return {
      rawBody: await importErrorsCsv(principal.tenantId, path.importId),
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="import-${path.importId}-errors.csv"`,
      },
    };
  }
  return { body: await listImportErrors(principal.tenantId, path.importId, query) };
});
