/**
 * The one operation table. Each API operation is listed once, in its group's module under
 * `lambdas/operations/` (what a row holds: `operation-row.ts`); the CDK stack builds its API
 * Gateway route and Lambda function from it, the local gateway routes by it, and the handlers
 * read their permission and request schemas from their group. Adding an operation is one row in
 * its group plus one handler file in `lambdas/handlers/`.
 */

import type { Operation } from './operation-row.js';
import { categoryOperations } from './operations/categories.js';
import { exportOperations } from './operations/exports.js';
import { fileOperations } from './operations/files.js';
import { identityOperations } from './operations/identity.js';
import { importOperations } from './operations/imports.js';
import { ledgerOperations } from './operations/ledger.js';
import { objectOperations } from './operations/objects.js';
import { openapiOperations } from './operations/openapi.js';
import { subcategoryOperations } from './operations/subcategories.js';
import { walletOperations } from './operations/wallets.js';
import { webhookOperations } from './operations/webhooks.js';

/** Every row, by its id. */
export const operations = {
  ...categoryOperations,
  ...subcategoryOperations,
  ...objectOperations,
  ...walletOperations,
  ...fileOperations,
  ...webhookOperations,
  ...ledgerOperations,
  ...importOperations,
  ...exportOperations,
  ...identityOperations,
  ...openapiOperations,
};

export type OperationId = keyof typeof operations;

/** The table as a list, each row with its id. */
export const operationList: ReadonlyArray<Operation & { id: OperationId }> = Object.values(operations);
