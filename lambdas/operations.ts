/**
 * The one operation table. Each API operation is listed here once; the CDK stack builds its
 * API Gateway route and Lambda function from it, the local gateway routes by it, and the
 * handlers read their permission and request schemas from it. Adding an operation is one row
 * here plus one handler file in `lambdas/handlers/`.
 */
import {
  categoryIdPath,
  createCategoryBody,
  listCategoriesQuery,
  updateCategoryBody,
} from '#domain/categories/category-schemas.js';
import { exportIdPath, exportObjectsQuery } from '#domain/exports/export-schemas.js';
import {
  companyFilePath,
  createUploadSessionBody,
  downloadQuery,
  FILE_MAX_BYTES,
  listFilesQuery,
  objectFilesPath,
  uploadFields,
  uploadSessionPath,
} from '#domain/files/file-schemas.js';
import {
  createImportFields,
  createImportQuery,
  IMPORT_BODY_TYPES,
  IMPORT_INLINE_MAX_BYTES,
  importIdPath,
  listImportErrorsQuery,
  listImportsQuery,
} from '#domain/imports/import-schemas.js';
import {
  consistencyQuery,
  eventProofPath,
  eventProofQuery,
  tilePathParameters,
} from '#domain/ledger/log-schemas.js';
import {
  createObjectBody,
  listObjectEventsQuery,
  listObjectsQuery,
  listSubcategoryObjectsQuery,
  objectIdPath,
  subcategoryObjectsPath,
  updateObjectBody,
} from '#domain/objects/object-schemas.js';
import {
  categoryIdOnlyPath,
  createSubcategoryBody,
  SUBCATEGORY_IMAGE_MAX_BYTES,
  subcategoryDetailPath,
  updateSubcategoryFields,
} from '#domain/subcategories/subcategory-schemas.js';
import {
  createWalletBody,
  listWalletsQuery,
  updateWalletBody,
  walletIdPath,
  walletLoginBody,
} from '#domain/wallets/wallet-schemas.js';
import {
  createWebhookBody,
  listDeliveriesQuery,
  listWebhooksQuery,
  updateWebhookBody,
  webhookDeliveryPath,
  webhookIdPath,
} from '#domain/webhooks/webhook-schemas.js';
import type { BackgroundJobName } from '#shared/background-jobs.js';
import type { CodeAnswering } from '#shared/error-catalogue.js';
import type { Permission, PrincipalType } from '#shared/principal.js';
import type { ObjectSchema } from '#shared/schema.js';
import { object, required, string } from '#shared/schema.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A route's methods: the row's, and HEAD beside a document's GET (`methodsOfRow`). */
export type RouteMethod = HttpMethod | 'HEAD';

// biome-ignore lint/suspicious/noExplicitAny: a table of schemas of every shape
type AnyObjectSchema = ObjectSchema<any>;

/** The fields of every row, whether or not its callers present a key. */
interface OperationFields {
  method: HttpMethod;
  /** API Gateway path template, `{name}` for path parameters. */
  path: string;
  /** Handler module under `lambdas/handlers/`, without extension; it exports `handler`. */
  handler: string;
  summary: string;
  /** Subcategory operations report validation issues as `details` instead of `validationErrors`. */
  errorFormat?: 'validationErrors' | 'details';
  pathParameters?: AnyObjectSchema;
  query?: AnyObjectSchema;
  body?: AnyObjectSchema;
  /** A `multipart/form-data` body (also accepted as JSON without the file): its text fields and its file part. */
  form?: {
    fields: AnyObjectSchema;
    fileField: string;
    maxFileBytes: number;
    /** Content types in which the file may also come as the whole body (then with no fields). */
    rawTypes?: readonly string[];
  };
  /**
   * A `multipart/form-data` upload read as a stream (never parsed whole here): its text fields
   * and file part. The handler hands it to the upload, which reads the body by it; the OpenAPI
   * document describes it, and the local gateway streams such bodies instead of buffering them.
   */
  streamedBody?: { fields: AnyObjectSchema; fileField: string; maxFileBytes: number };
  /**
   * A GET that serves a document or a download also answers `HEAD` (GET's status and headers, no
   * body). Only those: every HEAD method is one more API Gateway method and Lambda permission in
   * a stack that CloudFormation caps at 500 resources.
   */
  head?: true;
  /** A creating POST: an `Idempotency-Key` header makes retries return the first answer. */
  idempotent?: boolean;
  /**
   * Body fields that are secrets (a password): the `Idempotency-Key` record keeps only an
   * scrypt digest of them in its request fingerprint, never a fast hash.
   */
  secretFields?: readonly string[];
  /**
   * What the operation's code calls on the data stores: its function's IAM policy is derived
   * from this and nothing else (least privilege, `lib/operation-access.ts`). `table`: DynamoDB
   * actions on the table's items (a `TransactWriteItems` needs the action of each of its items:
   * Put → PutItem, Update → UpdateItem, Delete → DeleteItem); `indexes`: the indexes it
   * queries; `files`: S3 actions on the files bucket's file keys `companies/*`; `uploads`: on
   * the staging keys of presigned uploads `uploads/*` (`ListBucket`, in either list, applies to
   * the bucket, so that a missing key reads as 404, not 403). Idempotency records of
   * `idempotent` rows are granted apart. A row without it gets no data access at all.
   */
  access?: {
    table?: readonly (
      | 'GetItem'
      | 'BatchGetItem'
      | 'Query'
      | 'PutItem'
      | 'UpdateItem'
      | 'DeleteItem'
      | 'ConditionCheckItem'
      | 'BatchWriteItem'
    )[];
    indexes?: readonly import('#repositories/table-definition.js').IndexName[];
    files?: readonly (
      | 'GetObject'
      | 'GetObjectVersion'
      | 'PutObject'
      | 'AbortMultipartUpload'
      | 'DeleteObject'
      | 'DeleteObjectVersion'
      | 'ListBucket'
    )[];
    uploads?: NonNullable<OperationFields['access']>['files'];
    /** KMS actions on the stack's secrets key (webhook signing secrets are sealed with it). */
    secrets?: readonly 'Encrypt'[];
    /** SQS actions on the webhook delivery queue. */
    deliveryQueue?: readonly 'SendMessage'[];
    /** S3 actions on the log's files (`log/*`: tiles, checkpoints) in the Object Lock bucket. */
    log?: readonly 'GetObject'[];
  };
  /** Background jobs the operation starts (its function may invoke theirs). */
  backgroundJobs?: readonly BackgroundJobName[];
  /** Status of the successful answer. */
  successStatus: number;
}

/** A row whose callers present an API key (or a wallet session): the API-key authorizer runs first. */
export interface KeyedOperation extends OperationFields {
  /** The default: the API-key authorizer. */
  authorization?: 'apiKey';
  /** Which kind of key may call it: a company's or an App's. */
  principal: PrincipalType;
  permission: Permission;
  /** The 403 code when the key lacks the permission or is of the other kind. */
  deniedCode: CodeAnswering<403>;
  /**
   * Any valid API key may call it, a company's or an App's, whatever its permissions (the
   * log's public reads); `principal` and `permission` then only name the default for docs.
   */
  anyKey?: boolean;
  /** The path names a company (`companyId`): another company's id is refused with `deniedCode`, before the body is read. */
  companyInPath?: boolean;
}

/**
 * A row that takes no key and runs no authorizer: wallet login (the App comes from the
 * username) and the OpenAPI document. It has no caller, so no permission or 403 applies.
 */
export interface PublicOperation extends OperationFields {
  authorization: 'none';
}

/** A row of the operation table. */
export type Operation = KeyedOperation | PublicOperation;

/** The row itself when its callers present a key; undefined for a public row. */
export const keyedOperation = (operation: Operation): KeyedOperation | undefined =>
  operation.authorization === 'none' ? undefined : operation;

const companyOperation = { principal: 'company', deniedCode: 'COMPANY_ACCESS_DENIED' } as const;
const appOperation = { principal: 'app', deniedCode: 'APP_ACCESS_DENIED' } as const;
const subcategoryOperation = { ...companyOperation, errorFormat: 'details' } as const;

const companyObjectPath = object({
  companyId: required(string({ format: 'uuid' })),
  objectId: required(string({ format: 'uuid' })),
});

export const operations = {
  listCategories: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories',
    handler: 'categories/list-categories',
    access: { table: ['GetItem', 'Query'], indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'] },
    summary: 'List categories (spec 4.5)',
    permission: 'categories:read',
    query: listCategoriesQuery,
    successStatus: 200,
  },
  createCategory: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/categories',
    handler: 'categories/create-category',
    access: { table: ['PutItem', 'UpdateItem'] },
    summary: 'Create a category (spec 4.6)',
    permission: 'categories:write',
    body: createCategoryBody,
    idempotent: true,
    successStatus: 201,
  },
  getCategory: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories/{categoryId}',
    handler: 'categories/get-category',
    access: { table: ['Query'] },
    summary: 'Get one category (extension: not shown in the spec)',
    permission: 'categories:read',
    pathParameters: categoryIdPath,
    successStatus: 200,
  },
  updateCategory: {
    ...companyOperation,
    method: 'PUT',
    path: '/v2/categories/{categoryId}',
    handler: 'categories/update-category',
    access: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    summary: 'Update a category (spec 4.7)',
    permission: 'categories:write',
    pathParameters: categoryIdPath,
    body: updateCategoryBody,
    successStatus: 200,
  },
  createSubcategory: {
    ...subcategoryOperation,
    method: 'POST',
    path: '/v2/categories/{categoryId}/subcategories',
    handler: 'subcategories/create-subcategory',
    access: { table: ['GetItem', 'PutItem', 'UpdateItem'], files: ['PutObject', 'DeleteObject'] },
    summary: 'Create a subcategory (spec 4.8)',
    permission: 'categories:write',
    pathParameters: categoryIdOnlyPath,
    body: createSubcategoryBody,
    idempotent: true,
    successStatus: 200,
  },
  getSubcategory: {
    ...subcategoryOperation,
    method: 'GET',
    path: '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
    handler: 'subcategories/get-subcategory',
    access: { table: ['GetItem', 'Query'] },
    summary: 'Get a subcategory in detail (spec 4.9)',
    permission: 'categories:read',
    pathParameters: subcategoryDetailPath,
    companyInPath: true,
    successStatus: 200,
  },
  updateSubcategory: {
    ...subcategoryOperation,
    method: 'PUT',
    path: '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
    handler: 'subcategories/update-subcategory',
    access: {
      table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      files: ['PutObject', 'DeleteObject'],
    },
    summary: 'Update a subcategory with an action, multipart/form-data (spec 4.10)',
    permission: 'categories:write',
    pathParameters: subcategoryDetailPath,
    form: { fields: updateSubcategoryFields, fileField: 'file', maxFileBytes: SUBCATEGORY_IMAGE_MAX_BYTES },
    backgroundJobs: ['removeSubcategoryData'],
    companyInPath: true,
    successStatus: 200,
  },
  listObjects: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects',
    handler: 'objects/list-objects',
    access: { table: ['GetItem'], indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'] },
    summary: 'List objects (spec 4.1)',
    permission: 'objects:read',
    query: listObjectsQuery,
    successStatus: 200,
  },
  listSubcategoryObjects: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects',
    handler: 'objects/list-subcategory-objects',
    access: { table: ['GetItem'], indexes: ['gsi5'] },
    summary: 'List the objects of a subcategory (spec 4.2)',
    permission: 'objects:read',
    pathParameters: subcategoryObjectsPath,
    query: listSubcategoryObjectsQuery,
    successStatus: 200,
  },
  createObject: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects',
    handler: 'objects/create-object',
    access: { table: ['GetItem', 'PutItem', 'UpdateItem'] },
    summary: 'Create an object (spec 4.3)',
    permission: 'objects:write',
    pathParameters: subcategoryObjectsPath,
    body: createObjectBody,
    idempotent: true,
    successStatus: 201,
  },
  getObject: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/{objectId}',
    handler: 'objects/get-object',
    access: { table: ['GetItem'] },
    summary: 'Get one object (extension)',
    permission: 'objects:read',
    pathParameters: objectIdPath,
    successStatus: 200,
  },
  getCompanyObject: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/companies/{companyId}/objects/{objectId}',
    handler: 'objects/get-company-object',
    access: { table: ['GetItem'] },
    summary: "Get one object at its address under the company (the create operation's Location; extension)",
    permission: 'objects:read',
    pathParameters: companyObjectPath,
    companyInPath: true,
    successStatus: 200,
  },
  updateObject: {
    ...companyOperation,
    method: 'PUT',
    path: '/v2/objects/{objectId}',
    handler: 'objects/update-object',
    access: { table: ['GetItem', 'PutItem', 'UpdateItem'] },
    summary: 'Update an object with an action (spec 4.4)',
    permission: 'objects:write',
    pathParameters: objectIdPath,
    body: updateObjectBody,
    successStatus: 200,
  },
  listObjectEvents: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/{objectId}/events',
    handler: 'objects/list-object-events',
    access: { table: ['GetItem', 'Query'] },
    summary: "List an object's ledger events, oldest first (extension)",
    permission: 'objects:read',
    pathParameters: objectIdPath,
    query: listObjectEventsQuery,
    successStatus: 200,
  },
  verifyObject: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/{objectId}/verify',
    handler: 'objects/verify-object',
    access: { table: ['GetItem', 'Query'] },
    summary: "Recompute and check an object's ledger chain (extension)",
    permission: 'objects:read',
    pathParameters: objectIdPath,
    successStatus: 200,
  },
  listWallets: {
    ...appOperation,
    method: 'GET',
    path: '/v2/wallets',
    handler: 'wallets/list-wallets',
    access: { table: ['GetItem'], indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4'] },
    summary: "List the App's wallets (spec 4.11)",
    permission: 'wallets:read',
    query: listWalletsQuery,
    successStatus: 200,
  },
  createWallet: {
    ...appOperation,
    method: 'POST',
    path: '/v2/wallets',
    handler: 'wallets/create-wallet',
    access: { table: ['PutItem', 'UpdateItem'] },
    summary: 'Create a wallet (spec 4.12)',
    permission: 'wallets:write',
    body: createWalletBody,
    idempotent: true,
    secretFields: ['password'],
    successStatus: 201,
  },
  walletLogin: {
    method: 'POST',
    path: '/v2/wallets/login',
    handler: 'wallets/login-wallet',
    access: { table: ['GetItem', 'UpdateItem', 'PutItem'] },
    summary:
      'Log a wallet in with username@appId and password; returns a session token (not shown in the spec)',
    authorization: 'none',
    body: walletLoginBody,
    successStatus: 200,
  },
  getWallet: {
    ...appOperation,
    method: 'GET',
    path: '/v2/wallets/{walletId}',
    handler: 'wallets/get-wallet',
    access: { table: ['GetItem'] },
    summary: 'Get one wallet with its stats (spec 4.13)',
    permission: 'wallets:read',
    pathParameters: walletIdPath,
    successStatus: 200,
  },
  updateWallet: {
    ...appOperation,
    method: 'PUT',
    path: '/v2/wallets/{walletId}',
    handler: 'wallets/update-wallet',
    access: { table: ['GetItem', 'UpdateItem'] },
    summary: 'Update a wallet: password, status, metadata (spec 4.14)',
    permission: 'wallets:write',
    pathParameters: walletIdPath,
    body: updateWalletBody,
    successStatus: 200,
  },
  deleteWallet: {
    ...appOperation,
    method: 'DELETE',
    path: '/v2/wallets/{walletId}',
    handler: 'wallets/delete-wallet',
    access: { table: ['GetItem', 'UpdateItem', 'DeleteItem'] },
    summary: 'Soft-delete a wallet and end its sessions (spec 4.15)',
    permission: 'wallets:write',
    pathParameters: walletIdPath,
    successStatus: 204,
  },
  uploadFile: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/companies/{companyId}/objects/{objectId}/files',
    handler: 'files/upload-file',
    access: {
      table: ['GetItem', 'PutItem'],
      files: ['PutObject', 'AbortMultipartUpload', 'DeleteObject', 'DeleteObjectVersion'],
    },
    summary: 'Upload a file to an object, multipart/form-data; objectId may be the externalId (spec 4.16)',
    permission: 'files:write',
    companyInPath: true,
    pathParameters: objectFilesPath,
    streamedBody: { fields: uploadFields, fileField: 'file', maxFileBytes: FILE_MAX_BYTES },
    idempotent: true,
    successStatus: 201,
  },
  listFiles: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/companies/{companyId}/objects/{objectId}/files',
    handler: 'files/list-files',
    access: { table: ['GetItem'], indexes: ['gsi1'] },
    summary: "List an object's files, newest first (extension)",
    permission: 'files:read',
    deniedCode: 'FILE_ACCESS_DENIED',
    companyInPath: true,
    pathParameters: objectFilesPath,
    query: listFilesQuery,
    successStatus: 200,
  },
  downloadFile: {
    head: true,
    ...companyOperation,
    method: 'GET',
    path: '/v2/companies/{companyId}/files/{fileId}',
    handler: 'files/download-file',
    access: { table: ['GetItem'], files: ['GetObject'] },
    summary:
      'Download a file: its bytes, 304 for a matching ETag, or a redirect to S3 above 4 MB (spec 4.17)',
    permission: 'files:read',
    deniedCode: 'FILE_ACCESS_DENIED',
    companyInPath: true,
    pathParameters: companyFilePath,
    query: downloadQuery,
    successStatus: 200,
  },
  deleteFile: {
    ...companyOperation,
    method: 'DELETE',
    path: '/v2/companies/{companyId}/files/{fileId}',
    handler: 'files/delete-file',
    access: { table: ['GetItem', 'PutItem', 'DeleteItem'], files: ['DeleteObject', 'DeleteObjectVersion'] },
    summary: 'Delete a file, record and bytes (spec 4.18)',
    permission: 'files:write',
    deniedCode: 'FILE_DELETE_DENIED',
    companyInPath: true,
    pathParameters: companyFilePath,
    successStatus: 204,
  },
  createUploadSession: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/companies/{companyId}/objects/{objectId}/files/uploads',
    handler: 'files/create-upload-session',
    access: { table: ['GetItem', 'PutItem'], uploads: ['PutObject'] },
    summary: 'Start a large upload (up to 50 MB) straight to S3 with a presigned POST (extension)',
    permission: 'files:write',
    companyInPath: true,
    pathParameters: objectFilesPath,
    body: createUploadSessionBody,
    idempotent: true,
    successStatus: 201,
  },
  completeUploadSession: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/companies/{companyId}/objects/{objectId}/files/uploads/{uploadId}/complete',
    handler: 'files/complete-upload-session',
    access: {
      table: ['GetItem', 'PutItem', 'DeleteItem'],
      files: ['PutObject', 'DeleteObject', 'DeleteObjectVersion'],
      uploads: ['GetObject', 'GetObjectVersion', 'DeleteObject', 'DeleteObjectVersion', 'ListBucket'],
    },
    summary:
      'Finish a presigned upload: the server checks size, type and checksum and records the file (extension)',
    permission: 'files:write',
    companyInPath: true,
    pathParameters: uploadSessionPath,
    idempotent: true,
    successStatus: 201,
  },
  listWebhooks: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks',
    handler: 'webhooks/list-webhooks',
    access: { table: ['Query'] },
    summary: "List the company's webhook subscriptions, newest first (extension)",
    permission: 'webhooks:read',
    query: listWebhooksQuery,
    successStatus: 200,
  },
  createWebhook: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks',
    handler: 'webhooks/create-webhook',
    access: { table: ['PutItem'], secrets: ['Encrypt'] },
    summary: 'Subscribe a URL to ledger events; the answer shows the signing secret, once (extension)',
    permission: 'webhooks:write',
    body: createWebhookBody,
    // Not idempotent: the idempotency record would keep the answer, and so the secret, in clear.
    successStatus: 201,
  },
  getWebhook: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/get-webhook',
    access: { table: ['GetItem'] },
    summary: 'Get one webhook subscription (extension)',
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    successStatus: 200,
  },
  updateWebhook: {
    ...companyOperation,
    method: 'PUT',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/update-webhook',
    access: { table: ['GetItem', 'PutItem'] },
    summary: 'Change a webhook subscription: url, events, description, status (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    body: updateWebhookBody,
    successStatus: 200,
  },
  deleteWebhook: {
    ...companyOperation,
    method: 'DELETE',
    path: '/v2/webhooks/{webhookId}',
    handler: 'webhooks/delete-webhook',
    access: { table: ['GetItem', 'DeleteItem'] },
    summary: 'Delete a webhook subscription (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    successStatus: 204,
  },
  rotateWebhookSecret: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/rotate-secret',
    handler: 'webhooks/rotate-webhook-secret',
    access: { table: ['GetItem', 'PutItem'], secrets: ['Encrypt'] },
    summary: 'A new signing secret, shown once; the previous one keeps signing for 24 h (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    successStatus: 200,
  },
  listWebhookDeliveries: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}/deliveries',
    handler: 'webhooks/list-webhook-deliveries',
    access: { table: ['GetItem'], indexes: ['gsi1'] },
    summary: "A webhook's deliveries, newest first, with every attempt (extension)",
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    query: listDeliveriesQuery,
    successStatus: 200,
  },
  retryWebhookDelivery: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    handler: 'webhooks/retry-webhook-delivery',
    access: { table: ['GetItem', 'PutItem'], deliveryQueue: ['SendMessage'] },
    summary: 'Send a delivery once more, queued behind its lane (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookDeliveryPath,
    successStatus: 202,
  },
  listWebhookDeadLetters: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/webhooks/{webhookId}/dead-letters',
    handler: 'webhooks/list-webhook-dead-letters',
    access: { table: ['GetItem'], indexes: ['gsi2'] },
    summary: "A webhook's dead-letter store: deliveries that failed for 24 h, newest first (extension)",
    permission: 'webhooks:read',
    pathParameters: webhookIdPath,
    query: listDeliveriesQuery,
    successStatus: 200,
  },
  replayWebhookDeadLetters: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/webhooks/{webhookId}/dead-letters/replay',
    handler: 'webhooks/replay-webhook-dead-letters',
    access: { table: ['GetItem', 'PutItem'], indexes: ['gsi2'], deliveryQueue: ['SendMessage'] },
    summary: 'Queue the dead letters again, oldest first, and make a failing webhook active (extension)',
    permission: 'webhooks:write',
    pathParameters: webhookIdPath,
    successStatus: 202,
  },
  getLedgerCheckpoint: {
    head: true,
    ...companyOperation,
    anyKey: true,
    method: 'GET',
    path: '/v2/ledger/checkpoint',
    handler: 'ledger/get-checkpoint',
    access: { table: ['GetItem'] },
    summary: "The log's latest signed checkpoint, C2SP tlog-checkpoint text (extension)",
    permission: 'objects:read',
    successStatus: 200,
  },
  getLedgerKey: {
    head: true,
    ...companyOperation,
    anyKey: true,
    method: 'GET',
    path: '/v2/ledger/key',
    handler: 'ledger/get-key',
    access: { table: ['GetItem'] },
    summary: "The log's signed-note verifier key, one line (extension)",
    permission: 'objects:read',
    successStatus: 200,
  },
  getLedgerTile: {
    head: true,
    ...companyOperation,
    anyKey: true,
    method: 'GET',
    path: '/v2/ledger/tile/{tilePath+}',
    handler: 'ledger/get-tile',
    access: { log: ['GetObject'] },
    summary: 'A C2SP tlog-tiles hash tile or entry bundle of the log (extension)',
    permission: 'objects:read',
    pathParameters: tilePathParameters,
    successStatus: 200,
  },
  getLedgerConsistency: {
    ...companyOperation,
    anyKey: true,
    method: 'GET',
    path: '/v2/ledger/consistency',
    handler: 'ledger/get-consistency',
    access: { table: ['GetItem'], log: ['GetObject'] },
    summary: 'The RFC 6962 consistency proof between two published tree sizes (extension)',
    permission: 'objects:read',
    query: consistencyQuery,
    successStatus: 200,
  },
  getEventProof: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/{objectId}/events/{sequence}/proof',
    handler: 'ledger/get-event-proof',
    access: { table: ['GetItem'], log: ['GetObject'] },
    summary: "The inclusion proof of an object's event in the log, JSON or C2SP tlog-proof (extension)",
    permission: 'objects:read',
    pathParameters: eventProofPath,
    query: eventProofQuery,
    successStatus: 200,
  },
  createImport: {
    ...companyOperation,
    method: 'POST',
    path: '/v2/imports',
    handler: 'imports/create-import',
    access: { table: ['PutItem'], uploads: ['PutObject'] },
    summary:
      'Import objects from a CSV or JSON Lines file: in the request, or by presigned upload up to 50 MB (extension)',
    permission: 'objects:write',
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
    pathParameters: importIdPath,
    backgroundJobs: ['importObjects'],
    successStatus: 202,
  },
  listImports: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/imports',
    handler: 'imports/list-imports',
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
    access: { table: ['GetItem', 'Query'] },
    summary: "An import's reported rows (row, field, code, message), as JSON pages or one CSV (extension)",
    permission: 'objects:read',
    pathParameters: importIdPath,
    query: listImportErrorsQuery,
    successStatus: 200,
  },
  exportObjects: {
    ...companyOperation,
    method: 'GET',
    path: '/v2/objects/export',
    handler: 'objects/export-objects',
    access: {
      table: ['GetItem', 'Query', 'PutItem'],
      indexes: ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6'],
    },
    summary:
      'Every matching object as CSV or JSON Lines, with the filters and sort of 4.1; a large export becomes a job (extension)',
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
    access: { table: ['GetItem'], uploads: ['GetObject'] },
    summary: "An export job's status and, once done, a presigned link to its file (extension)",
    permission: 'objects:read',
    pathParameters: exportIdPath,
    successStatus: 200,
  },
  openapi: {
    head: true,
    method: 'GET',
    path: '/v2/openapi.json',
    handler: 'openapi/get-openapi',
    access: {},
    summary: 'This API as an OpenAPI 3.1 document, generated from the operation table (extension)',
    authorization: 'none',
    successStatus: 200,
  },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

/** The table as a list, each row with its id. */
export const operationList: ReadonlyArray<Operation & { id: OperationId }> = Object.entries(operations).map(
  ([id, operation]) => ({ id: id as OperationId, ...operation }),
);

/** The id of a row of the table (its key in `operations`); undefined for a row not in it (tests). */
export function operationIdOf(operation: Operation): OperationId | undefined {
  return Object.entries(operations).find(([, row]) => row === operation)?.[0] as OperationId | undefined;
}

/** The HTTP methods of a row's route: its own, and HEAD beside a GET that serves a document. */
export const methodsOfRow = (operation: Operation): RouteMethod[] =>
  operation.method === 'GET' && operation.head ? ['GET', 'HEAD'] : [operation.method];
