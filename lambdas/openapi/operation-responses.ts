/**
 * What each operation returns, beyond what its row in the operation table already says: the
 * success body's schema, other non-error responses, and the error codes its domain service throws
 * (read from `lambdas/domain/**`), each returned at its status in the error catalogue
 * (`lambdas/shared/error-catalogue.ts`). What the row already says is not written here: the
 * generator (`openapi-document.ts`) adds `VALIDATION_ERROR` for a row with path, query or body
 * schemas, `UNAUTHORIZED` and the row's `deniedCode`, the idempotency codes for an `idempotent`
 * row, `FILE_TOO_LARGE` for a row with a file part (its `maxFileBytes`), `UNSUPPORTED_FILE_TYPE`
 * for one that takes `fileKinds`, `REQUEST_TOO_LARGE` for a body, `TOO_MANY_REQUESTS` and
 * `INTERNAL_ERROR`; and a row whose `successStatus` is 204 has no body to describe (its entry
 * may not name one).
 *
 * Keyed by operation id and typed as a complete record, so a new row does not compile until its
 * responses are documented here, nor a misspelled or removed one while it is still listed.
 */
import { IMPORT_BODY_TYPES } from '#domain/imports/import-schemas.js';
import type { ErrorCode, StatusOf } from '#shared/error-catalogue.js';
import type { SupportedType } from '#shared/file-types.js';
import type { OperationId, operations } from '../operations.js';
import type { ResponseSchemaName } from './response-schemas.js';

/**
 * An error code an operation returns: at its status in the catalogue, or, written out, at the
 * code's other status (`alsoStatus`).
 */
export type DocumentedError =
  | ErrorCode
  | { [Code in ErrorCode]: { code: Code; status: StatusOf<Code> } }[ErrorCode];

export interface HeaderDoc {
  description: string;
  schema?: Record<string, unknown>;
}

export interface OperationResponses {
  /**
   * Schema of the success body: `'binary'` for a file's bytes (its MIME type), `'octets'` for
   * `application/octet-stream`, `'text'` for `text/plain`. A 204 row has none (`NoContentResponses`).
   */
  body: ResponseSchemaName | 'binary' | 'octets' | 'text';
  /** A JSON body that can also be asked for as `text/plain` (documented as a second media type). */
  textAlternative?: boolean;
  /** Headers of the success response. */
  headers?: Record<string, HeaderDoc>;
  /** Text media types the success response also comes in (or only, with `body: 'text'`). */
  textTypes?: readonly string[];
  /** Non-error responses besides the row's `successStatus` (no body unless `body` names one). */
  otherResponses?: Record<
    number,
    { description: string; headers?: Record<string, HeaderDoc>; body?: ResponseSchemaName }
  >;
  /** Codes the domain throws (grouped by status in the document). */
  errors?: readonly DocumentedError[];
  /** The kinds of file the row's `form` or `streamedBody` file part takes (`lambdas/shared/file-types.ts`). */
  fileKinds?: readonly SupportedType['kind'][];
  /**
   * A file part that is not one of the stored kinds of `fileKinds` (an import's CSV or JSON
   * Lines): its media types and what the part is.
   */
  filePart?: { mediaTypes: readonly string[]; description: string };
}

/** What a row whose `successStatus` is 204 documents: no body, so nothing about one. */
type NoContentResponses = Omit<OperationResponses, 'body' | 'textAlternative' | 'textTypes'> & {
  body?: never;
  textAlternative?: never;
  textTypes?: never;
};

/** The operations whose row responds 204 No Content. */
type NoContentOperationId = {
  [Id in OperationId]: (typeof operations)[Id]['successStatus'] extends 204 ? Id : never;
}[OperationId];

/** What an operation's entry holds: a body unless its row responds 204. */
export type ResponsesOf<Id extends OperationId> = Id extends NoContentOperationId
  ? NoContentResponses
  : OperationResponses;

const location: Record<string, HeaderDoc> = {
  Location: { description: 'path of the created resource (with the stage prefix in AWS)' },
};

/** Any write made through `writeTransaction` can lose a race too often (`lambdas/repositories/transactions.ts`). */
const CONCURRENT = 'CONCURRENT_MODIFICATION' satisfies ErrorCode;
const WEBHOOK_NOT_FOUND = 'WEBHOOK_NOT_FOUND' satisfies ErrorCode;
const IMPORT_NOT_FOUND = 'IMPORT_NOT_FOUND' satisfies ErrorCode;

export const operationResponses: { [Id in OperationId]: ResponsesOf<Id> } = {
  listCategories: { body: 'CategoryPage' },
  createCategory: {
    body: 'Category',
    headers: location,
    errors: ['CATEGORY_NAME_EXISTS', CONCURRENT],
  },
  getCategory: { body: 'Category', errors: ['CATEGORY_NOT_FOUND'] },
  updateCategory: {
    body: 'Category',
    errors: ['CATEGORY_NOT_FOUND', 'CATEGORY_NAME_EXISTS', CONCURRENT],
  },
  createSubcategory: {
    body: 'SubcategoryCreated',
    errors: ['CATEGORY_NOT_FOUND', 'SUBCATEGORY_NAME_EXISTS', CONCURRENT],
  },
  getSubcategory: { body: 'SubcategoryDetailResponse', errors: ['SUBCATEGORY_NOT_FOUND'] },
  updateSubcategory: {
    body: 'SubcategoryUpdated',
    fileKinds: ['image'],
    errors: [
      'INVALID_ACTION',
      'SUBCATEGORY_NOT_FOUND',
      'INVALID_STATE_TRANSITION',
      'SUBCATEGORY_NAME_EXISTS',
      CONCURRENT,
    ],
  },
  listObjects: { body: 'ObjectPage' },
  listSubcategoryObjects: { body: 'ObjectPage', errors: ['SUBCATEGORY_NOT_FOUND'] },
  createObject: {
    body: 'Object',
    headers: location,
    errors: ['SUBCATEGORY_NOT_FOUND', 'EXTERNAL_ID_EXISTS', 'SUBCATEGORY_NOT_ACTIVE', CONCURRENT],
  },
  getObject: { body: 'ObjectAsOf', errors: ['OBJECT_NOT_FOUND'] },
  getCompanyObject: { body: 'ObjectAsOf', errors: ['OBJECT_NOT_FOUND'] },
  updateObject: { body: 'Object', errors: ['OBJECT_NOT_FOUND', CONCURRENT] },
  listObjectEvents: { body: 'LedgerEventPage', errors: ['OBJECT_NOT_FOUND'] },
  verifyObject: { body: 'ChainVerification', errors: ['OBJECT_NOT_FOUND'] },
  listWallets: { body: 'WalletPage' },
  createWallet: { body: 'Wallet', headers: location, errors: ['USERNAME_EXISTS', CONCURRENT] },
  walletLogin: {
    body: 'WalletLogin',
    errors: ['UNAUTHORIZED', CONCURRENT],
  },
  getWallet: { body: 'WalletDetail', errors: ['RESOURCE_NOT_FOUND'] },
  updateWallet: { body: 'Wallet', errors: ['RESOURCE_NOT_FOUND', CONCURRENT] },
  deleteWallet: { errors: ['RESOURCE_NOT_FOUND', CONCURRENT] },
  uploadFile: {
    body: 'FileRecord',
    headers: location,
    fileKinds: ['image', 'document', 'text', 'word', 'spreadsheet'],
    errors: ['FILE_REQUIRED', 'OBJECT_NOT_FOUND', CONCURRENT],
  },
  listFiles: { body: 'FileRecordPage', errors: ['OBJECT_NOT_FOUND'] },
  downloadFile: {
    body: 'binary',
    headers: {
      'Content-Type': { description: "the file's MIME type" },
      'Content-Length': { description: 'bytes', schema: { type: 'integer', minimum: 0 } },
      'Content-Disposition': {
        description:
          '`inline` (default) or `attachment` (download=true, and always for types a browser would run), with the original file name',
      },
      'Cache-Control': { description: '`private, max-age=300`' },
      ETag: { description: "the file's SHA-256, quoted" },
      'X-Content-Type-Options': { description: '`nosniff`, on every response' },
      'Content-Security-Policy': {
        description: '`sandbox`, for types a browser would run (HTML, SVG, XML, script)',
      },
    },
    otherResponses: {
      302: {
        description: 'Extension: files over 4 MB redirect to a presigned S3 address',
        headers: { Location: { description: 'presigned S3 address' }, ETag: { description: 'as for 200' } },
      },
      304: {
        description: 'Extension: `If-None-Match` matched the ETag',
        headers: { ETag: { description: 'as for 200' } },
      },
    },
    errors: ['FILE_NOT_FOUND'],
  },
  deleteFile: { errors: ['FILE_NOT_FOUND', CONCURRENT] },
  createUploadSession: {
    body: 'UploadSession',
    errors: ['OBJECT_NOT_FOUND', 'UNSUPPORTED_FILE_TYPE'],
  },
  completeUploadSession: {
    body: 'FileRecord',
    headers: location,
    errors: [
      'OBJECT_NOT_FOUND',
      'UPLOAD_NOT_FOUND',
      'UPLOAD_NOT_RECEIVED',
      CONCURRENT,
      'FILE_TOO_LARGE',
      'UNSUPPORTED_FILE_TYPE',
    ],
  },
  listWebhooks: { body: 'WebhookPage' },
  createWebhook: { body: 'WebhookCreated', headers: location },
  getWebhook: { body: 'Webhook', errors: [WEBHOOK_NOT_FOUND] },
  updateWebhook: { body: 'Webhook', errors: [WEBHOOK_NOT_FOUND, CONCURRENT] },
  deleteWebhook: { errors: [WEBHOOK_NOT_FOUND, CONCURRENT] },
  rotateWebhookSecret: {
    body: 'WebhookSecretRotated',
    errors: [WEBHOOK_NOT_FOUND, CONCURRENT],
  },
  listWebhookDeliveries: { body: 'WebhookDeliveryPage', errors: [WEBHOOK_NOT_FOUND] },
  retryWebhookDelivery: {
    body: 'WebhookDelivery',
    errors: [WEBHOOK_NOT_FOUND, 'DELIVERY_NOT_FOUND'],
  },
  listWebhookDeadLetters: { body: 'WebhookDeliveryPage', errors: [WEBHOOK_NOT_FOUND] },
  replayWebhookDeadLetters: {
    body: 'WebhookReplay',
    errors: [WEBHOOK_NOT_FOUND, CONCURRENT],
  },
  openapi: { body: 'OpenApiDocument' },
  getLedgerCheckpoint: {
    body: 'text',
    headers: { 'Content-Type': { description: '`text/plain; charset=utf-8`: a C2SP signed note' } },
    errors: ['CHECKPOINT_NOT_FOUND'],
  },
  getLedgerKey: {
    body: 'text',
    headers: {
      'Content-Type': { description: '`text/plain; charset=utf-8`: `<name>+<key id>+<base64 key>`' },
    },
    errors: ['CHECKPOINT_NOT_FOUND'],
  },
  getLedgerTile: {
    body: 'octets',
    headers: {
      'Cache-Control': {
        description: '`public, max-age=31536000, immutable` for a full tile, `max-age=60` for a partial one',
      },
    },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  getLedgerConsistency: { body: 'ConsistencyProof', errors: ['CHECKPOINT_NOT_FOUND'] },
  listCompanyEvents: { body: 'ActivityEventPage' },
  getMe: { body: 'Caller' },
  createApiKey: { body: 'ApiKeyCreated' },
  revokeApiKey: { errors: ['API_KEY_NOT_FOUND'] },
  listIdentityProviders: { body: 'IdentityProviderList' },
  addIdentityProvider: { body: 'IdentityProvider', errors: ['ISSUER_ALREADY_REGISTERED'] },
  removeIdentityProvider: { errors: ['IDENTITY_PROVIDER_NOT_FOUND'] },
  createImport: {
    body: 'ImportCreated',
    headers: location,
    filePart: {
      mediaTypes: Object.keys(IMPORT_BODY_TYPES),
      description:
        "CSV (RFC 4180, a header row) or JSON Lines: the `format` field, else the part's type, else the file name (`.jsonl`, `.ndjson`), else CSV",
    },
    errors: ['FILE_REQUIRED', 'TOO_MANY_JOBS'],
  },
  startImport: {
    body: 'Import',
    headers: location,
    errors: [
      { code: 'FILE_TOO_LARGE', status: 400 },
      IMPORT_NOT_FOUND,
      'IMPORT_ALREADY_STARTED',
      'UPLOAD_NOT_RECEIVED',
      'TOO_MANY_JOBS',
    ],
  },
  listImports: { body: 'ImportPage' },
  getImport: { body: 'Import', errors: [IMPORT_NOT_FOUND] },
  listImportErrors: {
    body: 'ImportErrorPage',
    textTypes: ['text/csv'],
    headers: {
      'Content-Type': { description: '`text/csv; charset=utf-8` with format=csv (every entry, RFC 4180)' },
      'Content-Disposition': {
        description: 'with format=csv: `attachment; filename="import-<id>-errors.csv"`',
      },
    },
    errors: [IMPORT_NOT_FOUND],
  },
  exportObjects: {
    body: 'text',
    textTypes: ['text/csv', 'application/x-ndjson'],
    headers: {
      'Content-Type': {
        description:
          '`text/csv; charset=utf-8` (format=csv) or `application/x-ndjson; charset=utf-8` (format=jsonl)',
      },
      'Content-Disposition': { description: '`attachment; filename="objects-<date>.<format>"`' },
    },
    otherResponses: {
      202: {
        description: 'Too large for one response: an export job writes the file; poll its Location',
        headers: location,
        body: 'ExportJob',
      },
    },
    // With proofs=true: no checkpoint yet, or an event of the export not in the latest one yet.
    errors: ['TOO_MANY_JOBS', 'CHECKPOINT_NOT_FOUND', 'EVENT_NOT_YET_LOGGED'],
  },
  getExport: { body: 'ExportJob', errors: ['EXPORT_NOT_FOUND'] },
  getEventProof: {
    body: 'EventProof',
    textAlternative: true,
    headers: {
      'Content-Type': {
        description: '`text/plain; charset=utf-8` (a C2SP tlog-proof) with `format=tlog-proof`',
      },
    },
    errors: [
      'TREE_SIZE_TOO_SMALL',
      'OBJECT_NOT_FOUND',
      'EVENT_NOT_FOUND',
      'CHECKPOINT_NOT_FOUND',
      'EVENT_NOT_YET_LOGGED',
    ],
  },
  getObjectBundle: {
    body: 'LedgerBundle',
    errors: ['OBJECT_NOT_FOUND', 'CHECKPOINT_NOT_FOUND', 'EVENT_NOT_YET_LOGGED'],
  },
};
