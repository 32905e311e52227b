/**
 * What each operation answers, beyond what its row in the operation table already says: the
 * success body's schema, other non-error answers, and the error codes its domain service throws
 * (read from `lambdas/domain/**`). The codes every row implies are added by the generator from
 * the row itself: 400 `VALIDATION_ERROR` for a row with path, query or body schemas, 401, the
 * row's 403 `deniedCode`, 413 `REQUEST_TOO_LARGE` for a body, 429 and 500.
 *
 * Keyed by operation id and typed as a complete record, so a new row does not compile until its
 * answers are documented here.
 */
import { IMPORT_BODY_TYPES } from '#domain/imports/import-schemas.js';
import type { SupportedType } from '#shared/file-types.js';
import type { OperationId } from '../operations.js';
import type { ResponseSchemaName } from './response-schemas.js';

/** Error statuses whose codes come from the domain services. */
export type DomainErrorStatus = 400 | 401 | 404 | 409 | 413 | 415;

export interface HeaderDoc {
  description: string;
  schema?: Record<string, unknown>;
}

export interface OperationResponses {
  /**
   * Schema of the success body; `null` for none (204), `'binary'` for a file's bytes (its MIME
   * type), `'octets'` for `application/octet-stream`, `'text'` for `text/plain`.
   */
  body: ResponseSchemaName | 'binary' | 'octets' | 'text' | null;
  /** A JSON body that can also be asked for as `text/plain` (documented as a second media type). */
  textAlternative?: boolean;
  /** Headers of the success answer. */
  headers?: Record<string, HeaderDoc>;
  /** Text media types the success answer also comes in (or only, with `body: 'text'`). */
  textTypes?: readonly string[];
  /** Non-error answers besides the row's `successStatus` (no body unless `body` names one). */
  otherAnswers?: Record<
    number,
    { description: string; headers?: Record<string, HeaderDoc>; body?: ResponseSchemaName }
  >;
  /** Codes the domain throws, by status. */
  errors?: Partial<Record<DomainErrorStatus, readonly string[]>>;
  /** The kinds of file the row's `form` or `streamedBody` file part takes (`lambdas/shared/file-types.ts`). */
  fileKinds?: readonly SupportedType['kind'][];
  /**
   * A file part that is not one of the stored kinds of `fileKinds` (an import's CSV or JSON
   * Lines): its media types and what the part is.
   */
  filePart?: { mediaTypes: readonly string[]; description: string };
}

/** The error codes the spec's section 7 names; the document marks every other code as an extension. */
export const SPEC_ERROR_CODES: readonly string[] = [
  'VALIDATION_ERROR',
  'INVALID_ACTION',
  'FILE_REQUIRED',
  'UNAUTHORIZED',
  'COMPANY_ACCESS_DENIED',
  'FILE_ACCESS_DENIED',
  'FILE_DELETE_DENIED',
  'RESOURCE_NOT_FOUND',
  'SUBCATEGORY_NOT_FOUND',
  'CATEGORY_NOT_FOUND',
  'OBJECT_NOT_FOUND',
  'FILE_NOT_FOUND',
  'CATEGORY_NAME_EXISTS',
  'EXTERNAL_ID_EXISTS',
  'USERNAME_EXISTS',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
];

const location: Record<string, HeaderDoc> = {
  Location: { description: 'path of the created resource (with the stage prefix in AWS)' },
};

/** Any write made through `writeTransaction` can lose a race too often (`lambdas/repositories/transactions.ts`). */
const CONCURRENT = 'CONCURRENT_MODIFICATION';
const WEBHOOK_NOT_FOUND = 'WEBHOOK_NOT_FOUND';
const IMPORT_NOT_FOUND = 'IMPORT_NOT_FOUND';

export const operationResponses: Record<OperationId, OperationResponses> = {
  listCategories: { body: 'CategoryPage' },
  createCategory: {
    body: 'Category',
    headers: location,
    errors: { 409: ['CATEGORY_NAME_EXISTS', CONCURRENT] },
  },
  getCategory: { body: 'Category', errors: { 404: ['CATEGORY_NOT_FOUND'] } },
  updateCategory: {
    body: 'Category',
    errors: { 404: ['CATEGORY_NOT_FOUND'], 409: ['CATEGORY_NAME_EXISTS', CONCURRENT] },
  },
  createSubcategory: {
    body: 'SubcategoryCreated',
    errors: { 404: ['CATEGORY_NOT_FOUND'], 409: ['SUBCATEGORY_NAME_EXISTS', CONCURRENT] },
  },
  getSubcategory: { body: 'SubcategoryDetailResponse', errors: { 404: ['SUBCATEGORY_NOT_FOUND'] } },
  updateSubcategory: {
    body: 'SubcategoryUpdated',
    fileKinds: ['image'],
    errors: {
      400: ['INVALID_ACTION'],
      404: ['SUBCATEGORY_NOT_FOUND'],
      409: ['INVALID_STATE_TRANSITION', 'SUBCATEGORY_NAME_EXISTS', CONCURRENT],
      413: ['FILE_TOO_LARGE'],
      415: ['UNSUPPORTED_FILE_TYPE'],
    },
  },
  listObjects: { body: 'ObjectPage' },
  listSubcategoryObjects: { body: 'ObjectPage', errors: { 404: ['SUBCATEGORY_NOT_FOUND'] } },
  createObject: {
    body: 'Object',
    headers: location,
    errors: {
      404: ['SUBCATEGORY_NOT_FOUND'],
      409: ['EXTERNAL_ID_EXISTS', 'SUBCATEGORY_NOT_ACTIVE', CONCURRENT],
    },
  },
  getObject: { body: 'Object', errors: { 404: ['OBJECT_NOT_FOUND'] } },
  getCompanyObject: { body: 'Object', errors: { 404: ['OBJECT_NOT_FOUND'] } },
  updateObject: { body: 'Object', errors: { 404: ['OBJECT_NOT_FOUND'], 409: [CONCURRENT] } },
  listObjectEvents: { body: 'LedgerEventPage', errors: { 404: ['OBJECT_NOT_FOUND'] } },
  verifyObject: { body: 'ChainVerification', errors: { 404: ['OBJECT_NOT_FOUND'] } },
  listWallets: { body: 'WalletPage' },
  createWallet: { body: 'Wallet', headers: location, errors: { 409: ['USERNAME_EXISTS', CONCURRENT] } },
  walletLogin: {
    body: 'WalletLogin',
    headers: { 'Cache-Control': { description: '`no-store`: the token is a credential' } },
    errors: { 401: ['UNAUTHORIZED'], 409: [CONCURRENT] },
  },
  getWallet: { body: 'WalletDetail', errors: { 404: ['RESOURCE_NOT_FOUND'] } },
  updateWallet: { body: 'Wallet', errors: { 404: ['RESOURCE_NOT_FOUND'], 409: [CONCURRENT] } },
  deleteWallet: { body: null, errors: { 404: ['RESOURCE_NOT_FOUND'], 409: [CONCURRENT] } },
  uploadFile: {
    body: 'FileRecord',
    headers: location,
    fileKinds: ['image', 'document', 'text', 'word', 'spreadsheet'],
    errors: {
      400: ['FILE_REQUIRED'],
      404: ['OBJECT_NOT_FOUND'],
      409: [CONCURRENT],
      413: ['FILE_TOO_LARGE'],
      415: ['UNSUPPORTED_FILE_TYPE'],
    },
  },
  listFiles: { body: 'FileRecordPage', errors: { 404: ['OBJECT_NOT_FOUND'] } },
  downloadFile: {
    body: 'binary',
    headers: {
      'Content-Type': { description: "the file's MIME type" },
      'Content-Length': { description: 'bytes', schema: { type: 'integer', minimum: 0 } },
      'Content-Disposition': {
        description: '`inline` (default) or `attachment` (download=true), with the original file name',
      },
      'Cache-Control': { description: '`private, max-age=300`' },
      ETag: { description: "the file's SHA-256, quoted" },
    },
    otherAnswers: {
      302: {
        description: 'Extension: files over 4 MB redirect to a presigned S3 address',
        headers: { Location: { description: 'presigned S3 address' }, ETag: { description: 'as for 200' } },
      },
      304: {
        description: 'Extension: `If-None-Match` matched the ETag',
        headers: { ETag: { description: 'as for 200' } },
      },
    },
    errors: { 404: ['FILE_NOT_FOUND'] },
  },
  deleteFile: { body: null, errors: { 404: ['FILE_NOT_FOUND'], 409: [CONCURRENT] } },
  createUploadSession: {
    body: 'UploadSession',
    errors: { 404: ['OBJECT_NOT_FOUND'], 415: ['UNSUPPORTED_FILE_TYPE'] },
  },
  completeUploadSession: {
    body: 'FileRecord',
    headers: location,
    errors: {
      404: ['OBJECT_NOT_FOUND', 'UPLOAD_NOT_FOUND'],
      409: ['UPLOAD_NOT_RECEIVED', CONCURRENT],
      413: ['FILE_TOO_LARGE'],
      415: ['UNSUPPORTED_FILE_TYPE'],
    },
  },
  listWebhooks: { body: 'WebhookPage' },
  createWebhook: { body: 'WebhookCreated', headers: location },
  getWebhook: { body: 'Webhook', errors: { 404: [WEBHOOK_NOT_FOUND] } },
  updateWebhook: { body: 'Webhook', errors: { 404: [WEBHOOK_NOT_FOUND], 409: [CONCURRENT] } },
  deleteWebhook: { body: null, errors: { 404: [WEBHOOK_NOT_FOUND], 409: [CONCURRENT] } },
  rotateWebhookSecret: {
    body: 'WebhookSecretRotated',
    errors: { 404: [WEBHOOK_NOT_FOUND], 409: [CONCURRENT] },
  },
  listWebhookDeliveries: { body: 'WebhookDeliveryPage', errors: { 404: [WEBHOOK_NOT_FOUND] } },
  retryWebhookDelivery: {
    body: 'WebhookDelivery',
    errors: { 404: [WEBHOOK_NOT_FOUND, 'DELIVERY_NOT_FOUND'] },
  },
  listWebhookDeadLetters: { body: 'WebhookDeliveryPage', errors: { 404: [WEBHOOK_NOT_FOUND] } },
  replayWebhookDeadLetters: {
    body: 'WebhookReplay',
    errors: { 404: [WEBHOOK_NOT_FOUND], 409: [CONCURRENT] },
  },
  openapi: { body: 'OpenApiDocument' },
  getLedgerCheckpoint: {
    body: 'text',
    headers: { 'Content-Type': { description: '`text/plain; charset=utf-8`: a C2SP signed note' } },
    errors: { 404: ['CHECKPOINT_NOT_FOUND'] },
  },
  getLedgerKey: {
    body: 'text',
    headers: {
      'Content-Type': { description: '`text/plain; charset=utf-8`: `<name>+<key id>+<base64 key>`' },
    },
    errors: { 404: ['CHECKPOINT_NOT_FOUND'] },
  },
  getLedgerTile: {
    body: 'octets',
    headers: {
      'Cache-Control': {
        description: '`public, max-age=31536000, immutable` for a full tile, `max-age=60` for a partial one',
      },
    },
    errors: { 404: ['RESOURCE_NOT_FOUND'] },
  },
  getLedgerConsistency: { body: 'ConsistencyProof', errors: { 404: ['CHECKPOINT_NOT_FOUND'] } },
  createImport: {
    body: 'ImportCreated',
    headers: location,
    filePart: {
      mediaTypes: Object.keys(IMPORT_BODY_TYPES),
      description:
        "CSV (RFC 4180, a header row) or JSON Lines: the `format` field, else the part's type, else the file name (`.jsonl`, `.ndjson`), else CSV",
    },
    errors: { 400: ['FILE_REQUIRED'], 413: ['FILE_TOO_LARGE'] },
  },
  startImport: {
    body: 'Import',
    headers: location,
    errors: {
      400: ['FILE_TOO_LARGE'],
      404: [IMPORT_NOT_FOUND],
      409: ['IMPORT_ALREADY_STARTED', 'UPLOAD_NOT_RECEIVED'],
    },
  },
  listImports: { body: 'ImportPage' },
  getImport: { body: 'Import', errors: { 404: [IMPORT_NOT_FOUND] } },
  listImportErrors: {
    body: 'ImportErrorPage',
    textTypes: ['text/csv'],
    headers: {
      'Content-Type': { description: '`text/csv; charset=utf-8` with format=csv (every entry, RFC 4180)' },
      'Content-Disposition': {
        description: 'with format=csv: `attachment; filename="import-<id>-errors.csv"`',
      },
    },
    errors: { 404: [IMPORT_NOT_FOUND] },
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
    otherAnswers: {
      202: {
        description: 'Too large for one answer: an export job writes the file; poll its Location',
        headers: location,
        body: 'ExportJob',
      },
    },
  },
  getExport: { body: 'ExportJob', errors: { 404: ['EXPORT_NOT_FOUND'] } },
  getEventProof: {
    body: 'EventProof',
    textAlternative: true,
    headers: {
      'Content-Type': {
        description: '`text/plain; charset=utf-8` (a C2SP tlog-proof) with `format=tlog-proof`',
      },
    },
    errors: {
      400: ['TREE_SIZE_TOO_SMALL'],
      404: ['OBJECT_NOT_FOUND', 'EVENT_NOT_FOUND', 'CHECKPOINT_NOT_FOUND'],
      409: ['EVENT_NOT_YET_LOGGED'],
    },
  },
};
