/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of every response body, written once: the
 * spec's section 2 field lists, as the views in `lambdas/domain/<resource>/<resource>-view.ts`
 * build them. Objects are closed (`additionalProperties: false`) so that a field a view adds
 * without this file knowing fails the end-to-end check against live answers.
 */
import { CATEGORY_STATUSES } from '#domain/categories/category-schemas.js';
import { OBJECT_STATUSES } from '#domain/objects/object-lifecycle.js';
import { WALLET_STATUSES } from '#domain/wallets/wallet-schemas.js';
import { SESSION_TOKEN_PATTERN } from '#domain/wallets/wallet-sessions.js';
import { SUBCATEGORY_STATUSES } from '#repositories/subcategory-repository.js';
import { SUPPORTED_TYPES } from '#shared/file-types.js';
import type { JsonSchema } from '#shared/schema.js';
import { type ImportResponseSchemaName, importResponseSchemas } from './import-response-schemas.js';
import { type WebhookResponseSchemaName, webhookResponseSchemas } from './webhook-response-schemas.js';

/** A reference to a schema of this file, as the document's `components.schemas` holds it. */
export const schemaRef = (name: ResponseSchemaName): JsonSchema => ({
  $ref: `#/components/schemas/${name}`,
});

/** A closed object whose properties are all required unless listed in `optional`. */
function closedObject(
  properties: Record<string, JsonSchema>,
  options: { description?: string; optional?: string[] } = {},
): JsonSchema {
  const optional = new Set(options.optional ?? []);
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    additionalProperties: false,
  };
}

const described = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const text: JsonSchema = { type: 'string' };
const dateTime: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC, milliseconds',
};
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const sha256Hex: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const metadata: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'free key-value pairs, as stored',
};
/** `{ field: { from, to } }`, any JSON values. */
const fieldChanges = (fields?: readonly string[]): JsonSchema => ({
  type: 'object',
  ...(fields ? { propertyNames: { enum: [...fields] } } : {}),
  additionalProperties: closedObject({ from: {}, to: {} }),
});
const success: JsonSchema = { type: 'string', const: 'success' };

const pagination = closedObject(
  {
    limit: described({ type: 'integer', minimum: 1, maximum: 100 }, 'page size in effect'),
    offset: described(count, 'offset in effect'),
    total: described(count, 'total items matching the criteria'),
    hasNext: described({ type: 'boolean' }, 'offset + data.length < total'),
    hasPrevious: described({ type: 'boolean' }, 'offset > 0 and total > 0'),
    nextCursor: described(
      { type: ['string', 'null'] },
      '(extension) opaque cursor of the next page, for the `cursor` query parameter; null on the last page',
    ),
  },
  { description: 'Spec 2.1, plus nextCursor (extension)' },
);

const pageOf = (item: ResponseSchemaName, description: string): JsonSchema =>
  closedObject(
    { data: { type: 'array', items: schemaRef(item) }, pagination: schemaRef('Pagination') },
    { description },
  );

const subcategorySummary = closedObject(
  {
    id: uuid,
    name: text,
    description: text,
    status: {
      type: 'string',
      enum: SUBCATEGORY_STATUSES.filter((status) => status !== 'removed'),
      description: 'removed subcategories are never shown',
    },
    categoryId: uuid,
    metadata,
    createdAt: dateTime,
    updatedAt: dateTime,
    statistics: closedObject({ objectCount: count }),
  },
  { description: 'A subcategory inside a category (spec 2.4, first shape)' },
);

const category = closedObject(
  {
    id: uuid,
    name: described(text, '2-100 characters, unique within the company ignoring case'),
    description: text,
    status: { type: 'string', enum: [...CATEGORY_STATUSES] },
    metadata,
    createdAt: dateTime,
    updatedAt: dateTime,
    statistics: closedObject({ subcategoryCount: count, objectCount: count }),
    subcategories: { type: 'array', items: schemaRef('SubcategorySummary') },
  },
  { description: 'Spec 2.3' },
);

const subcategoryDetail = closedObject(
  {
    id: uuid,
    name: text,
    status: { type: 'string', enum: SUBCATEGORY_STATUSES.filter((status) => status !== 'removed') },
    path: described(text, '`<category name>/<subcategory name>`'),
    description: text,
    imageId: described({ type: ['string', 'null'], format: 'uuid' }, 'the current image, one of `files`'),
    createDate: dateTime,
    categoryId: uuid,
    files: {
      type: 'array',
      description: 'every image the subcategory has had',
      items: closedObject({
        id: uuid,
        name: described(text, 'stored name'),
        title: described(text, 'name as uploaded'),
        mimeType: text,
        uploadDate: dateTime,
      }),
    },
    statistics: closedObject({
      totalObjects: count,
      lastObjectCreated: described(nullableDateTime, 'null until the first object'),
      averageObjectsPerDay: described(
        { type: 'number', minimum: 0 },
        'objects ÷ days since creation (at least one), 2 decimals',
      ),
    }),
  },
  { description: 'The single-subcategory detail (spec 2.4, second shape)' },
);

const objectEntity = closedObject(
  {
    id: uuid,
    externalId: described(text, '1-100 characters, unique within the company'),
    name: text,
    description: text,
    summary: described({ type: ['string', 'null'] }, 'null when not given'),
    owner: text,
    status: {
      type: 'string',
      enum: [...OBJECT_STATUSES],
      description: 'extension: `report_stolen` leads to `stolen`, `repair` back to `active`',
    },
    categoryId: uuid,
    subcategoryId: uuid,
    metadata,
    createdAt: dateTime,
    updatedAt: dateTime,
    blockchain: closedObject({
      txId: described(sha256Hex, "the first event's hash"),
      lastTxId: described(sha256Hex, "the latest event's hash"),
      eventCount: { type: 'integer', minimum: 1 },
    }),
  },
  { description: 'Spec 2.2' },
);

const ledgerEvent = closedObject(
  {
    chainId: described(text, '`object:<companyId>:<objectId>` (or `subcategory:...`): hashed, so shown'),
    sequence: { type: 'integer', minimum: 1 },
    txId: described(sha256Hex, 'equals `hash`'),
    action: described(text, '`create`, `update`, `transfer`, `repair`, `report_stolen`, `file_upload`, ...'),
    changes: fieldChanges(),
    eventDescription: { type: ['string', 'null'] },
    performedBy: { type: ['string', 'null'] },
    principal: described(text, '`apiKey:<keyId>` or `wallet:<username@appId>`'),
    timestamp: dateTime,
    prevHash: described(sha256Hex, '64 zeros for the first event'),
    hash: described(sha256Hex, 'SHA-256 of the canonical JSON of every other field but txId (README)'),
  },
  { description: "Extension (spec 2.7: not shown): one event of an object's ledger chain" },
);

const chainVerification = closedObject(
  {
    objectId: uuid,
    valid: { type: 'boolean' },
    eventCount: count,
    lastTxId: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' },
    checkedEvents: count,
    problems: {
      type: 'array',
      items: closedObject({ sequence: { type: ['integer', 'null'] }, reason: text }),
    },
  },
  { description: "Extension: the verdict of recomputing an object's ledger chain" },
);

const fileRecord = closedObject(
  {
    id: uuid,
    fileName: described(text, 'stored name: `<id><extension>`'),
    originalFileName: described(text, 'name as uploaded'),
    mimeType: { type: 'string', enum: SUPPORTED_TYPES.map((type) => type.mimeType) },
    size: described(count, 'bytes'),
    description: text,
    tags: { type: 'array', items: text },
    uploadedAt: dateTime,
    uploadedBy: described(text, '`apiKey:<keyId>`'),
    url: described(text, 'path of the download operation (with the stage prefix in AWS)'),
    checksum: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
  },
  { description: 'Spec 2.6' },
);

const uploadSession = closedObject(
  {
    uploadId: uuid,
    method: { type: 'string', const: 'POST' },
    url: described({ type: 'string', format: 'uri' }, 'the presigned S3 POST address'),
    fields: described(
      { type: 'object', additionalProperties: { type: 'string' } },
      'form fields to send before the file',
    ),
    expiresAt: dateTime,
    maxBytes: { type: 'integer', minimum: 1 },
    completePath: described(text, 'the path to POST to once the file is uploaded'),
  },
  { description: 'Extension: a presigned upload straight to S3 (large files in AWS)' },
);

const walletFields = {
  id: uuid,
  username: described(text, '3-50 characters, without the App id'),
  appId: uuid,
  fullUsername: described(text, '`username@appId`'),
  status: { type: 'string', enum: [...WALLET_STATUSES] },
  metadata,
  createdAt: dateTime,
  updatedAt: dateTime,
  lastLoginAt: described(nullableDateTime, 'null until the first login'),
};

const wallet = closedObject(walletFields, { description: 'Spec 2.5 (the password is never returned)' });

const walletDetail = closedObject(
  {
    ...walletFields,
    stats: closedObject({
      loginCount: count,
      apiCallCount: described(count, 'calls made with the wallet session token'),
      lastApiCallAt: nullableDateTime,
    }),
  },
  { description: 'Spec 2.5, detail response' },
);

const walletLogin = closedObject(
  {
    token: described(
      { type: 'string', pattern: SESSION_TOKEN_PATTERN.source },
      'send as `Authorization: Bearer <token>`',
    ),
    expiresAt: dateTime,
    wallet: schemaRef('Wallet'),
  },
  { description: 'Extension (spec 5: the login and its token: not shown)' },
);

const subcategoryCreated = closedObject(
  { status: success, data: closedObject({ id: uuid }), timestamp: dateTime },
  { description: 'Spec 4.8' },
);
const subcategoryDetailResponse = closedObject(
  { status: success, data: schemaRef('SubcategoryDetail'), timestamp: dateTime },
  { description: 'Spec 4.9' },
);
const subcategoryUpdated = closedObject(
  {
    status: success,
    data: closedObject({ imageId: { type: ['string', 'null'], format: 'uuid' } }),
    changes: described(
      fieldChanges(['name', 'description', 'imageId']),
      'the fields that changed, among name, description and imageId (a status move is in the ledger event)',
    ),
    timestamp: dateTime,
  },
  { description: 'Spec 4.10' },
);

const openApiDocument: JsonSchema = {
  type: 'object',
  description: 'This document',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: text, version: text, description: text },
    },
    servers: { type: 'array', items: { type: 'object', required: ['url'], properties: { url: text } } },
    tags: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: text } } },
    paths: {
      type: 'object',
      description: 'path → method → operation',
      additionalProperties: { type: 'object' },
    },
    components: { type: 'object' },
  },
};

const eventProof = closedObject(
  {
    logIndex: { type: 'integer', minimum: 0 },
    leafHash: described(sha256Hex, 'SHA-256(0x00 || event hash bytes)'),
    treeSize: { type: 'integer', minimum: 1 },
    rootHash: sha256Hex,
    inclusionProof: { type: 'array', items: sha256Hex },
    checkpoint: described(text, 'the signed checkpoint of `treeSize` (C2SP tlog-checkpoint)'),
  },
  { description: "Extension: an event's RFC 6962 inclusion proof against a published checkpoint" },
);

const consistencyProof = closedObject(
  {
    from: { type: 'integer', minimum: 0 },
    to: { type: 'integer', minimum: 0 },
    proof: { type: 'array', items: sha256Hex },
  },
  { description: 'Extension: an RFC 6962 consistency proof between two published tree sizes' },
);

/** Every named response schema, for the document's `components.schemas`. */
export const responseSchemas = {
  Pagination: pagination,
  Category: category,
  CategoryPage: pageOf('Category', 'Spec 4.5: a page of categories'),
  SubcategorySummary: subcategorySummary,
  SubcategoryDetail: subcategoryDetail,
  SubcategoryCreated: subcategoryCreated,
  SubcategoryDetailResponse: subcategoryDetailResponse,
  SubcategoryUpdated: subcategoryUpdated,
  Object: objectEntity,
  ObjectPage: pageOf('Object', 'Spec 4.1, 4.2: a page of objects'),
  LedgerEvent: ledgerEvent,
  LedgerEventPage: pageOf('LedgerEvent', 'Extension: a page of events, oldest first'),
  ChainVerification: chainVerification,
  FileRecord: fileRecord,
  FileRecordPage: pageOf('FileRecord', "Extension: a page of an object's files, newest first"),
  UploadSession: uploadSession,
  Wallet: wallet,
  WalletDetail: walletDetail,
  WalletPage: pageOf('Wallet', 'Spec 4.11: a page of wallets'),
  WalletLogin: walletLogin,
  OpenApiDocument: openApiDocument,
  ...webhookResponseSchemas,
  ...importResponseSchemas,
  EventProof: eventProof,
  ConsistencyProof: consistencyProof,
} satisfies Record<string, JsonSchema>;

export type ResponseSchemaName =
  | 'Pagination'
  | 'Category'
  | 'CategoryPage'
  | 'SubcategorySummary'
  | 'SubcategoryDetail'
  | 'SubcategoryCreated'
  | 'SubcategoryDetailResponse'
  | 'SubcategoryUpdated'
  | 'Object'
  | 'ObjectPage'
  | 'LedgerEvent'
  | 'LedgerEventPage'
  | 'ChainVerification'
  | 'FileRecord'
  | 'FileRecordPage'
  | 'UploadSession'
  | 'Wallet'
  | 'WalletDetail'
  | 'WalletPage'
  | 'WalletLogin'
  | 'OpenApiDocument'
  | WebhookResponseSchemaName
  | ImportResponseSchemaName
  | 'EventProof'
  | 'ConsistencyProof';

/** How a 400 reports field issues: the spec's `validationErrors`, or `details` (subcategory operations). */
export type IssueFormat = 'validationErrors' | 'details';

/** Codes whose 400 body carries the field issues (they are `ValidationError`s). */
export const CODES_WITH_ISSUES = ['VALIDATION_ERROR', 'INVALID_ACTION'];

const fieldIssues: Record<IssueFormat, JsonSchema> = {
  validationErrors: {
    type: 'array',
    description:
      'every issue of the request; codes: REQUIRED, LENGTH_INVALID, ENUM_INVALID (spec), TYPE_INVALID, FORMAT_INVALID, RANGE_INVALID, SIZE_INVALID, ADDRESS_NOT_ALLOWED (webhook url) (extensions)',
    items: closedObject({ field: text, message: text, code: text }),
  },
  details: {
    type: 'object',
    description: 'field name → its messages',
    additionalProperties: { type: 'array', items: text },
  },
};

/**
 * The spec's error body (section 7) for one status of one operation: `{ error, code, timestamp }`
 * with `code` one of `codes`, plus, for 400s of the codes in {@link CODES_WITH_ISSUES}, the field
 * issues in the operation's format. `writtenByGateway`: the answer may come from API Gateway
 * itself, whose `timestamp` in AWS is `$context.requestTime`, not ISO 8601.
 */
export function errorBodySchema(options: {
  codes: readonly string[];
  issueFormat?: IssueFormat;
  writtenByGateway?: boolean;
}): JsonSchema {
  const withIssues = options.issueFormat
    ? options.codes.filter((code) => CODES_WITH_ISSUES.includes(code))
    : [];
  const issueField = options.issueFormat ?? 'validationErrors';
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      error: described(text, 'human-readable message'),
      code: { type: 'string', enum: [...options.codes] },
      timestamp: options.writtenByGateway
        ? described(
            text,
            'ISO 8601 UTC; in AWS, answers API Gateway writes itself carry `$context.requestTime`',
          )
        : dateTime,
      ...(withIssues.length > 0 ? { [issueField]: fieldIssues[issueField] } : {}),
    },
    required: ['error', 'code', 'timestamp'],
    additionalProperties: false,
  };
  if (withIssues.length === 0) return schema;
  return {
    ...schema,
    if: { properties: { code: { enum: withIssues } } },
    // `properties` repeats the name beside `required` (`true`: no further rule) so that linters
    // that read each subschema alone (Redocly) see a declared property.
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then`/`else`, never awaited
    then: { required: [issueField], properties: { [issueField]: true } },
    else: { not: { required: [issueField], properties: { [issueField]: true } } },
  };
}
