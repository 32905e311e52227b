import { startImport } from '#domain/imports/import-service.js';
import { httpHandler, requireConditionalPermissions, resourceLocation } from '#http/http-handler.js';
import { findImportJob } from '#repositories/import-repository.js';
import { importOperations } from '../../operations/imports.js';

export const handler = httpHandler(importOperations.startImport, async ({ principal, path, event }) => {
  // Whether the job creates categories is in the job, not in the request.
  const job = await findImportJob(principal.tenantId, path.importId);
  if (job?.createMissing)
    requireConditionalPermissions(importOperations.startImport, principal, 'createMissing');
  const pathPrefix = resourceLocation(event, '');
  return {
    body: await startImport(principal, path.importId, pathPrefix),
    headers: { Location: `${pathPrefix}/v2/imports/${path.importId}` },
  };
});
