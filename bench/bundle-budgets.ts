/**
 * What the functions' bundles may weigh and hold: each function's budget (today's size plus 3 %)
 * and the modules kept out of them, each with the decision that keeps it out
 * (docs/bundle-budgets.md). `test/infra/bundle-budgets.test.ts` bundles every function as the stack
 * does and fails on a bundle over its budget or holding a module it must not, naming the import
 * chain that brought it in. `npx tsx scripts/bundle-budgets.ts` prints the sizes; `--write` sets
 * every budget to the size of today's bundle plus 3 % (docs/bundle-budgets.md).
 */
import { type OperationId, operationList } from '../lambdas/operations';
import type { BackgroundJobName } from '../lambdas/shared/background-jobs';

/**
 * Every function of the stack, by the name its alarms give it: each operation's, the
 * authorizer, the background jobs (`<job>Job`: a job may share its operation's name), the
 * sequencer and the events-out functions.
 */
export type FunctionName =
  | OperationId
  | 'authorizer'
  | `${BackgroundJobName}Job`
  | 'sequenceLedger'
  | 'publishLedgerEvents'
  | 'deliverWebhooks'
  | 'recordFailedJobs';

/** `api`: behind the API (each operation's and the authorizer), whose cold start a caller waits for. */
export type FunctionKind = 'api' | 'worker';

/** How much above today's size a budget is set. */
export const BUDGET_MARGIN = 0.03;

/**
 * A set of modules kept out of some functions' bundles. A pattern is an npm package name
 * (`@aws-sdk/client-s3`) or a project path (`lambdas/jobs/`); one ending in `/` matches every
 * package or file under it.
 */
export interface ForbiddenModules {
  what: string;
  patterns: readonly string[];
  /** The kinds of function that must not bundle them. */
  kinds: readonly FunctionKind[];
  /** Functions that may, each with its reason. */
  allowedIn?: Partial<Record<FunctionName, string>>;
  /** Why they are kept out (the decision, with where it is written). */
  reason: string;
}

const formOperations = Object.fromEntries(
  operationList
    .filter((row) => row.form || row.streamedBody)
    .map((row) => [row.id, 'its row takes a multipart form']),
) as Partial<Record<FunctionName, string>>;

/**
 * The issue asked for the S3, SQS, Lambda and KMS SDK clients to stay out of the API functions;
 * the project decided more (docs/bundle-budgets.md), and these rules say what it decided: the S3,
 * SQS and Lambda clients are in no function (they are development dependencies, for the tests'
 * comparisons), the KMS client only in the sequencer, and neither the X-Ray SDK nor Powertools
 * in any.
 */
export const FORBIDDEN_MODULES: readonly ForbiddenModules[] = [
  {
    what: 'the S3 SDK',
    patterns: [
      '@aws-sdk/client-s3',
      '@aws-sdk/lib-storage',
      '@aws-sdk/s3-request-presigner',
      '@aws-sdk/s3-presigned-post',
    ],
    kinds: ['api', 'worker'],
    reason:
      "S3 is called with signed requests of our own (lambdas/shared/s3-requests.ts): the SDK's client, lib-storage and presigners cost up to 200 KB, which V8 reads at every cold start",
  },
  {
    what: 'the SQS and Lambda SDK clients',
    patterns: ['@aws-sdk/client-sqs', '@aws-sdk/client-lambda'],
    kinds: ['api', 'worker'],
    reason:
      'SQS SendMessageBatch, ChangeMessageVisibility and Lambda Invoke are signed requests of our own (lambdas/shared/aws-json-requests.ts)',
  },
  {
    what: 'the KMS SDK client',
    patterns: ['@aws-sdk/client-kms'],
    kinds: ['api', 'worker'],
    allowedIn: {
      sequenceLedger:
        "the log signer's KMS Sign keeps its SDK client: the sequencer is no API function's cold start",
    },
    reason: 'webhook secrets are KMS Encrypt and Decrypt requests of our own (lambdas/shared/secret-box.ts)',
  },
  {
    what: "X-Ray's SDK",
    patterns: ['aws-xray-sdk-core', 'aws-xray-sdk'],
    kinds: ['api', 'worker'],
    reason:
      'traces are written to the X-Ray daemon by lambdas/shared/xray-tracing.ts: the SDK and semver were about 100 KB of every bundle, loaded at every cold start',
  },
  {
    what: 'Powertools',
    patterns: ['@aws-lambda-powertools/'],
    kinds: ['api', 'worker'],
    reason:
      "logs and metrics come from lambdas/shared/observability.ts (Powertools' keys and EMF, 37 KB less), traces from xray-tracing.ts, idempotency from lambdas/http/idempotency.ts (about 100 KB less)",
  },
  {
    what: 'the background jobs',
    patterns: ['lambdas/jobs/'],
    kinds: ['api'],
    reason:
      'a job runs in its own function, started by a signed Invoke; local mode registers its runners (local/in-process-jobs.ts)',
  },
  {
    what: 'the multipart reader',
    patterns: ['busboy', 'streamsearch'],
    kinds: ['api', 'worker'],
    allowedIn: formOperations,
    reason: 'only an operation that takes a form bundles the form reader',
  },
];

/**
 * Each function's budget, in KB of its `index.js` (1 KB = 1,024 bytes; the source map aside):
 * the size of its bundle when last written (`npx tsx scripts/bundle-budgets.ts --write`), plus
 * {@link BUDGET_MARGIN}, rounded up.
 */
export const BUNDLE_BUDGETS_KB: Record<FunctionName, number> = {
  authorizer: 381,
  listCategories: 397,
  createCategory: 387,
  getCategory: 378,
  updateCategory: 383,
  createSubcategory: 400,
  getSubcategory: 379,
  updateSubcategory: 426,
  listObjects: 399,
  listSubcategoryObjects: 396,
  createObject: 398,
  getObject: 381,
  getCompanyObject: 381,
  updateObject: 391,
  listObjectEvents: 398,
  verifyObject: 380,
  listWallets: 396,
  createWallet: 386,
  walletLogin: 388,
  getWallet: 377,
  updateWallet: 382,
  deleteWallet: 379,
  uploadFile: 437,
  listFiles: 398,
  downloadFile: 386,
  deleteFile: 397,
  createUploadSession: 390,
  completeUploadSession: 413,
  listWebhooks: 397,
  createWebhook: 389,
  getWebhook: 381,
  updateWebhook: 385,
  deleteWebhook: 380,
  rotateWebhookSecret: 390,
  listWebhookDeliveries: 399,
  retryWebhookDelivery: 390,
  listWebhookDeadLetters: 399,
  replayWebhookDeadLetters: 389,
  getLedgerCheckpoint: 381,
  getLedgerKey: 381,
  getLedgerTile: 384,
  getLedgerConsistency: 391,
  getEventProof: 395,
  getObjectBundle: 396,
  listCompanyEvents: 399,
  createImport: 427,
  startImport: 397,
  listImports: 399,
  getImport: 382,
  listImportErrors: 411,
  exportObjects: 430,
  getExport: 381,
  getMe: 363,
  createApiKey: 373,
  revokeApiKey: 372,
  listIdentityProviders: 369,
  addIdentityProvider: 371,
  removeIdentityProvider: 370,
  openapi: 103,
  removeSubcategoryDataJob: 373,
  importObjectsJob: 455,
  exportObjectsJob: 404,
  sequenceLedger: 416,
  publishLedgerEvents: 379,
  deliverWebhooks: 385,
  recordFailedJobs: 362,
};
