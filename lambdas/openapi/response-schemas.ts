/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of every response body. An entity's response is
 * its view's (`lambdas/domain/<resource>/<resource>-view.ts`, declared with `defineView` from the
 * entity's one declaration), so its fields are not restated here; this file adds the envelopes,
 * pages and the responses that show no entity. Objects are closed (`additionalProperties: false`)
 * so that a field a response adds without its schema fails the end-to-end check against live responses.
 */
import { categoryView } from '#domain/categories/category-view.js';
import { fileView } from '#domain/files/file-view.js';
import { CALLER_KINDS } from '#domain/identity/caller.js';
import { activityEventView } from '#domain/ledger/activity-view.js';
import { ledgerEventView } from '#domain/ledger/event-view.js';
import { objectView } from '#domain/objects/object-view.js';
import { subcategoryDetailView, subcategorySummaryView } from '#domain/subcategories/subcategory-view.js';
import { SESSION_TOKEN_PATTERN } from '#domain/wallets/wallet-sessions.js';
import { walletDetailView, walletView } from '#domain/wallets/wallet-view.js';
import { errorCodeEntry, errorCodes } from '#shared/error-catalogue.js';
import { PERMISSIONS } from '#shared/principal.js';
import { ROLE_NAMES } from '#shared/roles.js';
import type { JsonSchema } from '#shared/schema.js';
import { type AccessResponseSchemaName, accessResponseSchemas } from './access-response-schemas.js';
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
const count: JsonSchema = { type: 'integer', minimum: 0 };
const sha256Hex: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
/** `{ field: { from, to } }` as a ledger event's `changes`, among the given fields only. */
const fieldChanges = (fields: readonly string[]): JsonSchema => ({
  ...ledgerEventView.entity.attributes.changes.schema.jsonSchema,
  propertyNames: { enum: [...fields] },
});
const subcategoryAttributes = subcategoryDetailView.entity.attributes;
const success: JsonSchema = { type: 'string', const: 'success' };

const paginationFields = {
  limit: described({ type: 'integer', minimum: 1, maximum: 100 }, 'page size in effect'),
  offset: described(count, 'offset in effect'),
  total: described(count, 'total items matching the criteria'),
  hasNext: described({ type: 'boolean' }, 'offset + data.length < total'),
  hasPrevious: described({ type: 'boolean' }, 'offset > 0 and total > 0'),
  nextCursor: described(
    { type: ['string', 'null'] },
    '(extension) opaque cursor of the next page, for the `cursor` query parameter; null on the last page',
  ),
};
const pagination = closedObject(paginationFields, { description: 'Spec 2.1, plus nextCursor (extension)' });

const pageOf = (item: ResponseSchemaName, description: string): JsonSchema =>
  closedObject(
    { data: { type: 'array', items: schemaRef(item) }, pagination: schemaRef('Pagination') },
    { description },
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
  {
    status: success,
    data: closedObject({ id: subcategoryAttributes.id.schema.jsonSchema }),
    timestamp: dateTime,
  },
  { description: 'Spec 4.8' },
);
const subcategoryDetailResponse = closedObject(
  { status: success, data: schemaRef('SubcategoryDetail'), timestamp: dateTime },
  { description: 'Spec 4.9' },
);
const subcategoryUpdated = closedObject(
  {
    status: success,
    data: closedObject({ imageId: subcategoryAttributes.imageId.schema.jsonSchema }),
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

/** An object, and with `asOf` or `atSequence` the moment it was read at and the event that set that state. */
const objectAsOf: JsonSchema = {
  ...objectView.jsonSchema,
  properties: {
    ...(objectView.jsonSchema.properties as Record<string, JsonSchema>),
    asOf: described(
      dateTime,
      'Extension, with asOf or atSequence only: the instant asked, or the timestamp of the event asked',
    ),
    asOfEvent: closedObject(
      { sequence: { type: 'integer', minimum: 1 }, hash: sha256Hex },
      { description: 'Extension, with asOf or atSequence only: the event that set this state' },
    ),
  },
};

/** The offline verifier's bundle (`verifier/bundle.ts` `LedgerBundle`). */
const ledgerBundle = closedObject(
  {
    format: { type: 'string', const: 'asset-registry-ledger-bundle@v1' },
    object: { ...schemaRef('ObjectAsOf'), description: 'the object as GET object answers it at that moment' },
    events: {
      type: 'array',
      items: schemaRef('LedgerEvent'),
      description: 'every event from the first to the one that set `object`, oldest first',
    },
    proofs: {
      type: 'array',
      items: described(
        text,
        "a C2SP tlog-proof of the event at the same position, the event's canonical bytes as extra",
      ),
    },
    checkpoint: described(text, 'the signed checkpoint every proof is against (C2SP tlog-checkpoint)'),
    verifierKey: described(text, "the log's signed-note verifier key line, as GET /v2/ledger/key answers it"),
  },
  { description: "Extension: an object's offline-verifiable bundle (`npm run verify-bundle`)" },
);

/** Every named response schema, for the document's `components.schemas`. */
export const responseSchemas = {
  Pagination: pagination,
  Category: categoryView.jsonSchema,
  CategoryPage: pageOf('Category', 'Spec 4.5: a page of categories'),
  SubcategorySummary: subcategorySummaryView.jsonSchema,
  SubcategoryDetail: subcategoryDetailView.jsonSchema,
  SubcategoryCreated: subcategoryCreated,
  SubcategoryDetailResponse: subcategoryDetailResponse,
  SubcategoryUpdated: subcategoryUpdated,
  Object: objectView.jsonSchema,
  ObjectAsOf: objectAsOf,
  ObjectPage: pageOf('Object', 'Spec 4.1, 4.2: a page of objects'),
  LedgerEvent: ledgerEventView.jsonSchema,
  LedgerEventPage: pageOf('LedgerEvent', 'Extension: a page of events, oldest first'),
  ActivityEvent: activityEventView.jsonSchema,
  ActivityEventPage: closedObject(
    {
      data: { type: 'array', items: schemaRef('ActivityEvent') },
      pagination: closedObject(
        {
          ...paginationFields,
          total: described(
            { type: 'null' },
            'null: not counted, as counting a time range would read all of it',
          ),
          hasNext: described({ type: 'boolean' }, 'more events follow this page'),
          hasPrevious: described({ type: 'boolean' }, 'offset > 0'),
        },
        { description: 'Spec 2.1 with the total left out (null), plus nextCursor (extension)' },
      ),
    },
    { description: "Extension: a page of the company's events, newest first" },
  ),
  ChainVerification: chainVerification,
  Caller: closedObject(
    {
      kind: described(
        { enum: [...CALLER_KINDS] },
        "a company's key, an App's key, a wallet's session, or a person signed in through the company's identity provider",
      ),
      id: described(uuid, "the company id (a key's or a person's), the App id, or the wallet id"),
      appId: described({ type: ['string', 'null'], format: 'uuid' }, "a wallet's App; null for a key"),
      keyId: described(
        { type: ['string', 'null'], pattern: '^[0-9a-f]{24}$' },
        "the key's id, as events name it (`apiKey:<keyId>`); null for a wallet or a person",
      ),
      label: described(
        { type: ['string', 'null'], maxLength: 100 },
        "the key's label, given at its creation; null when it has none",
      ),
      permissions: described(
        { type: 'array', items: { enum: [...PERMISSIONS] }, uniqueItems: true },
        "the caller's permissions",
      ),
      keyLabels: described(
        {
          type: 'array',
          items: closedObject({
            keyId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
            label: { type: 'string', minLength: 1, maxLength: 100 },
          }),
        },
        "the labels of the keys of the caller's company or App (revoked keys too), to name the key of an event's `apiKey:<keyId>`; empty for a wallet",
      ),
      person: described(
        {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['principal', 'role', 'name'],
          properties: {
            principal: described({ type: 'string' }, 'as events name the person: `user:<sub>@<issuer host>`'),
            role: { enum: [...ROLE_NAMES] },
            name: described({ type: ['string', 'null'] }, "the token's name or email claim"),
          },
        },
        'who signed in, with which role (docs/people-sign-in.md); null for a key or a wallet',
      ),
    },
    { description: 'Extension: who is calling, and what it may do' },
  ),
  FileRecord: fileView.jsonSchema,
  FileRecordPage: pageOf('FileRecord', "Extension: a page of an object's files, newest first"),
  UploadSession: uploadSession,
  Wallet: walletView.jsonSchema,
  WalletDetail: walletDetailView.jsonSchema,
  WalletPage: pageOf('Wallet', 'Spec 4.11: a page of wallets'),
  WalletLogin: walletLogin,
  OpenApiDocument: openApiDocument,
  ...webhookResponseSchemas,
  ...importResponseSchemas,
  ...accessResponseSchemas,
  EventProof: eventProof,
  ConsistencyProof: consistencyProof,
  LedgerBundle: ledgerBundle,
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
  | 'ObjectAsOf'
  | 'ObjectPage'
  | 'LedgerEvent'
  | 'LedgerEventPage'
  | 'ActivityEvent'
  | 'ActivityEventPage'
  | 'ChainVerification'
  | 'Caller'
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
  | AccessResponseSchemaName
  | 'EventProof'
  | 'ConsistencyProof'
  | 'LedgerBundle';

/** How a 400 reports field issues: the spec's `validationErrors`, or `details` (subcategory operations). */
export type IssueFormat = 'validationErrors' | 'details';

/** Codes whose 400 body carries the field issues (they are `ValidationError`s). */
const CODES_WITH_ISSUES: readonly string[] = errorCodes().filter((code) => errorCodeEntry(code).withIssues);

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
 * issues in the operation's format. `writtenByGateway`: the response may come from API Gateway
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
            'ISO 8601 UTC; in AWS, responses API Gateway writes itself carry `$context.requestTime`',
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
