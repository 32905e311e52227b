/** Rows of the operation table (`lambdas/operations.ts`): bulk import (extension). */
import {
  CREATE_MISSING_PERMISSIONS,
  createImportFields,
  createImportQuery,
  IMPORT_BODY_TYPES,
  IMPORT_INLINE_MAX_BYTES,
  importIdPath,
  importOptionsOf,
  listImportErrorsQuery,
  listImportsQuery,
} from '#domain/imports/import-schemas.js';
import { type ConditionalPermissions, companyOperation, type Operation, withIds } from '../operation-row.js';

/**
 * An import with `createMissing` creates the categories and subcategories its rows name: it
 * needs `categories:write` beside `objects:write`, when it is created and when it is started.
 * (Upsert mode updates objects only: `objects:write` covers it.)
 */
const createsCategories = {
  when: 'an import with createMissing=true (it creates categories and subcategories)',
  permissions: CREATE_MISSING_PERMISSIONS,
} as const satisfies ConditionalPermissions;

export const importOperations = withIds({
  createImport: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/imports',
    handler: 'imports/create-import',
    // GetItem and UpdateItem: the company's job slots (`lambdas/domain/job-slots.ts`).
    access: { table: ['GetItem', 'PutItem', 'UpdateItem'], uploads: ['PutObject'] },
    summary:
      'Import objects from a CSV or JSON Lines file: in the request, or by presigned upload up to 50 MB (extension)',
    permission: 'objects:write',
    conditionalPermissions: {
      createMissing: {
        ...createsCategories,
        appliesTo: ({ query, fields }) => importOptionsOf(query as never, fields as never).createMissing,
      },
    },
    query: createImportQuery,
    form: {
      fields: createImportFields,
      fileField: 'file',
      maxFileBytes: IMPORT_INLINE_MAX_BYTES,
      rawTypes: Object.keys(IMPORT_BODY_TYPES),
    },
    backgroundJobs: ['importObjects'],
    successStatus: 202,
  },
  startImport: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/imports/{importId}/start',
    handler: 'imports/start-import',
    access: { table: ['GetItem', 'UpdateItem'], uploads: ['GetObject', 'ListBucket'] },
    summary: 'Start an import whose file was sent to its presigned upload (extension)',
    permission: 'objects:write',
    // The condition lies in the stored job: `start-import.ts` checks it.
    conditionalPermissions: { createMissing: createsCategories },
    pathParameters: importIdPath,
    backgroundJobs: ['importObjects'],
    successStatus: 202,
  },
  listImports: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/imports',
    handler: 'imports/list-imports',
    auditTrail: true,
    access: { table: ['Query'] },
    summary: "The company's import jobs, newest first (extension)",
    permission: 'objects:read',
    query: listImportsQuery,
    successStatus: 200,
  },
  getImport: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/imports/{importId}',
    handler: 'imports/get-import',
    auditTrail: true,
    access: { table: ['GetItem'] },
    summary: "An import job's status and counts (extension)",
    permission: 'objects:read',
    pathParameters: importIdPath,
    successStatus: 200,
  },
  listImportErrors: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/imports/{importId}/errors',
    handler: 'imports/list-import-errors',
    auditTrail: true,
    access: { table: ['GetItem', 'Query'] },
    summary: "An import's reported rows (row, field, code, message), as JSON pages or one CSV (extension)",
    permission: 'objects:read',
    pathParameters: importIdPath,
    query: listImportErrorsQuery,
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
