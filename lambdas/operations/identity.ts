/** Rows of the operation table (`lambdas/operations.ts`): the caller's own identity (extension). */
import { companyOperation, type Operation, withIds } from '../operation-row.js';

export const identityOperations = withIds({
  getMe: {
    ...companyOperation,
    // Every caller may ask who it is: a company's key, an App's, or a wallet's session.
    anyKey: true,
    method: 'GET',
    path: '/v2/me',
    handler: 'identity/get-me',
    // The caller comes from the authorizer's context; only its tenant's key labels are read.
    access: { table: ['Query'] },
    summary: "The caller: its kind (company, App or wallet), id, permissions and key's label (extension)",
    permission: 'objects:read',
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>);
