/** Rows of the operation table (`lambdas/operations.ts`): bulk export (extension). */
import { exportIdPath, exportObjectsQuery } from '#domain/exports/export-schemas.js';
import { companyOperation, type Operation, withIds } from '../operation-row.js';

export const exportOperations = withIds({
  exportObjects: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/export',
    handler: 'objects/export-objects',
    auditTrail: true,
    access: {
      // UpdateItem: the company's job slots (`lambdas/domain/job-slots.ts`).
      table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
      indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'],
      // proofs=true: the log's tiles.
      log: ['GetObject'],
    },
    summary:
      'Every matching object as CSV or JSON Lines, with the filters and sort of 4.1, now or as of an instant (with proofs); a large export becomes a job (extension)',
    permission: 'objects:read',
    query: exportObjectsQuery,
    backgroundJobs: ['exportObjects'],
    successStatus: 200,
  },
  getExport: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/exports/{exportId}',
    handler: 'exports/get-export',
    auditTrail: true,
    access: { table: ['GetItem'], uploads: ['GetObject'] },
    summary: "An export job's status and, once done, a presigned link to its file (extension)",
    permission: 'objects:read',
    pathParameters: exportIdPath,
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
