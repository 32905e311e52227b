/**
 * The OpenAPI 3.1 document of this API, generated from the operation table (routes, key kinds,
 * permissions, request schemas), the response schemas and each operation's documented responses.
 * Nothing here lists operations: a new row of the table appears in the document by itself.
 */

import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_WINDOW_SECONDS } from '#http/idempotency-key.js';
import { ERROR_CODES, type ErrorCode, errorCodeEntry } from '#shared/error-catalogue.js';
import { SUPPORTED_TYPES } from '#shared/file-types.js';
import { WALLET_PERMISSIONS } from '#shared/principal.js';
import type { JsonSchema } from '#shared/schema.js';
import { API_KEY_HEADER, MAX_REQUEST_BODY_BYTES } from '../../lib/api-gateway-settings.js';
import type { Operation } from '../operation-row.js';
import { type OperationId, operationList } from '../operations.js';
import { type DocumentedError, type HeaderDoc, operationResponses } from './operation-responses.js';
import { errorBodySchema, responseSchemas, schemaRef } from './response-schemas.js';

const OPENAPI_VERSION = '3.1.0';
export const API_KEY_SCHEME = 'ApiKey';
export const WALLET_SESSION_SCHEME = 'WalletSession';
export const PERSON_TOKEN_SCHEME = 'PersonToken';

/**
 * A row's path as OpenAPI writes it: API Gateway's greedy `{name+}` (the rest of the path,
 * slashes included) is the parameter `{name}`, documented as such.
 */
export const documentedPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, '{$1}');

type Row = Operation & { id: OperationId };

/**
 * Raw bytes, as both OpenAPI 3.0 generators (`format: binary`) and 3.1 ones
 * (`contentMediaType`) read it: file parts and downloads.
 */
const BINARY: JsonSchema = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

interface OpenApiOperation {
  operationId: OperationId;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: Array<{
    name: string;
    in: 'path' | 'query' | 'header';
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }>;
  requestBody?: {
    required: boolean;
    description?: string;
    content: Record<string, { schema: JsonSchema; encoding?: Record<string, { contentType: string }> }>;
  };
  responses: Record<string, OpenApiResponse>;
  'x-spec-section'?: string;
  'x-extension'?: boolean;
}

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  /** Left out when the server is not known: OpenAPI then takes `/`, the document's own server. */
  servers?: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Missing or invalid credentials',
  403: 'The key may not do this',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Too large',
  415: 'Unsupported file type',
  429: 'Throttled by API Gateway',
  500: 'Internal server error',
};

const DESCRIPTION = [
  'Registers assets ("objects") in categories and subcategories, attaches files to them, records every',
  'change of an object in a verifiable ledger, and manages the wallets of Apps.',
  '',
  'Callers send a company or App key in `X-API-Key`; a wallet sends its session token from',
  '`POST /v2/wallets/login` as `Authorization: Bearer`. Each operation says which key kind and',
  'permission it needs; a key of the wrong kind or without the permission gets 403 with the',
  "operation's code.",
  '',
  'Errors: `{error, code, timestamp}`; 400s add `validationErrors` (`[{field, message, code}]`), or',
  '`details` (field → messages) on subcategory operations. Lengths count Unicode code points; `null`',
  'for an optional request field means "not given"; fields an operation does not know are ignored.',
  '',
  'Operations, fields and error codes marked as extensions are not in the interface specification',
  '(it says "not shown" there); each says what it adds. A path of no operation responds 404',
  '`ROUTE_NOT_FOUND`.',
].join('\n');

/** The header of the rows marked `idempotent` (`lambdas/http/idempotency.ts`). */
const idempotencyKeyParameter = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header' as const,
  required: false,
  description: `Optional. A retry with the same key and the same request returns the first response and creates nothing new; the same key with another request is 409 IDEMPOTENCY_KEY_REUSED, and while the first still runs 409 IDEMPOTENCY_IN_PROGRESS. Kept ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours.`,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const tagOf = (row: Row): string => row.handler.split('/')[0] ?? row.handler;

/** What each tag (a folder of `lambdas/handlers/`) holds; a new folder gets a plain default. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  categories: 'Categories of a company, each with its subcategories (spec 4.5-4.7)',
  subcategories:
    'Subcategories: create, detail, and the CHANGE / ACTIVATE / DEACTIVATE / REMOVE actions (spec 4.8-4.10)',
  objects: 'Objects (assets), their actions, and their ledger: events and verification (spec 4.1-4.4)',
  files: 'Files of an object: upload, download, list, delete, and presigned uploads (spec 4.16-4.18)',
  wallets: "An App's wallets, and the wallet login that gives a session token (spec 4.11-4.15)",
  identity: 'The caller itself: who it is and what it may do (extension)',
  openapi: 'This document',
};

const tagDescriptionOf = (tag: string): string => TAG_DESCRIPTIONS[tag] ?? `The ${tag} operations`;

/**
 * The package's licence (`package.json`: UNLICENSED): proprietary. OpenAPI 3.1 wants an SPDX
 * expression or a URL; SPDX names licences it does not list with a `LicenseRef-` id.
 */
const LICENSE = {
  name: 'Proprietary (UNLICENSED): all rights reserved',
  identifier: 'LicenseRef-Proprietary',
};

/** The spec section a row's summary names (`... (spec 4.5)`), if any. */
const specSectionOf = (row: Row): string | undefined => /\(spec (\d+\.\d+)\)/.exec(row.summary)?.[1];

function securityOf(row: Row): Array<Record<string, string[]>> {
  if (row.authorization === 'none') return [];
  // Only a person may manage the company's access: no API key is accepted.
  if (row.accessManagement) return [{ [PERSON_TOKEN_SCHEME]: [] }];
  const schemes: Array<Record<string, string[]>> = [{ [API_KEY_SCHEME]: [] }];
  // A person signed in through the company's identity provider acts for the company.
  if (row.principal === 'company') schemes.push({ [PERSON_TOKEN_SCHEME]: [] });
  // A wallet session acts as its App with the wallet permissions only.
  if (row.principal === 'app' && WALLET_PERMISSIONS.includes(row.permission)) {
    schemes.push({ [WALLET_SESSION_SCHEME]: [] });
  }
  return schemes;
}

function descriptionOf(row: Row): string {
  const lines: string[] = [];
  if (row.authorization === 'none') lines.push('Public: no key.');
  else {
    const walletSession = securityOf(row).some((scheme) => WALLET_SESSION_SCHEME in scheme);
    const kind =
      row.principal === 'company'
        ? 'a company key (or a person whose role grants it)'
        : walletSession
          ? "an App key or one of the App's wallet sessions"
          : 'an App key';
    lines.push(
      row.accessManagement
        ? `Needs a person signed in with the admin role: every API key, and every other role, gets 403 \`${row.deniedCode}\`.`
        : `Needs ${kind} with \`${row.permission}\`; otherwise 403 \`${row.deniedCode}\`.`,
    );
    for (const condition of Object.values(row.conditionalPermissions ?? {})) {
      const named = condition.permissions.map((permission) => `\`${permission}\``).join(' and ');
      lines.push(`Also needs ${named} for ${condition.when}; otherwise the same 403.`);
    }
    if (row.companyInPath) lines.push("Another company's id in the path is refused with the same 403.");
    if (row.auditTrail)
      lines.push('It reads the audit trail: a person with the viewer role gets the same 403.');
  }
  if (row.head) lines.push("`HEAD` gets a response too: GET's status and headers, with no body.");
  if (!specSectionOf(row)) lines.push('Extension: not in the interface specification.');
  return lines.join(' ');
}

/** A property schema without the `null` that bodies take for "not given": parameters are text. */
function withoutNull(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2 && anyOf[1]?.type === 'null') return anyOf[0] as JsonSchema;
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((type) => type !== 'null');
  return {
    ...schema,
    type: types.length === 1 ? types[0] : types,
    ...(Array.isArray(schema.enum) ? { enum: schema.enum.filter((value) => value !== null) } : {}),
  };
}

/** A property schema without its `description`, which moves to the parameter. */
function parametersOf(schema: Operation['pathParameters'], location: 'path' | 'query') {
  if (!schema) return [];
  const required = new Set((schema.jsonSchema.required as string[] | undefined) ?? []);
  const properties = schema.jsonSchema.properties as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      // OpenAPI: every path parameter is required.
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: withoutNull(propertySchema),
    };
  });
}

const hasRequired = (schema: JsonSchema): boolean =>
  Array.isArray(schema.required) && schema.required.length > 0;

function multipartOf(
  part: NonNullable<Operation['form']>,
  row: Row,
  fileRequired: boolean,
): { schema: JsonSchema; encoding: Record<string, { contentType: string }> } {
  const fields = part.fields.jsonSchema;
  const { fileKinds: kinds, filePart } = operationResponses[row.id];
  const mimeTypes = filePart
    ? [...filePart.mediaTypes]
    : SUPPORTED_TYPES.filter((type) => !kinds || kinds.includes(type.kind)).map((type) => type.mimeType);
  const fileDescription = filePart
    ? `at most ${part.maxFileBytes} bytes; ${filePart.description}`
    : `at most ${part.maxFileBytes} bytes; one of ${mimeTypes.join(', ')}, by extension, declared type and content`;
  const required = [
    ...((fields.required as string[] | undefined) ?? []),
    ...(fileRequired ? [part.fileField] : []),
  ];
  return {
    schema: {
      type: 'object',
      properties: {
        // Form parts are text: no `null` there.
        ...Object.fromEntries(
          Object.entries(fields.properties as Record<string, JsonSchema>).map(([name, property]) => [
            name,
            withoutNull(property),
          ]),
        ),
        [part.fileField]: { ...BINARY, description: fileDescription },
      },
      ...(required.length > 0 ? { required } : {}),
    },
    encoding: { [part.fileField]: { contentType: mimeTypes.join(', ') } },
  };
}

function requestBodyOf(row: Row): OpenApiOperation['requestBody'] {
  if (row.body) {
    return {
      required: hasRequired(row.body.jsonSchema),
      description: 'A JSON object; an empty body reads as `{}`.',
      content: { 'application/json': { schema: row.body.jsonSchema } },
    };
  }
  if (row.form) {
    const rawTypes = row.form.rawTypes ?? [];
    return {
      required: false,
      description: `multipart/form-data, or a JSON object with the same fields and no file${
        rawTypes.length > 0
          ? `, or the file itself as the whole body (${rawTypes.join(', ')}; then the fields are query parameters)`
          : ''
      }.`,
      content: {
        'multipart/form-data': multipartOf(row.form, row, false),
        'application/json': { schema: row.form.fields.jsonSchema },
        // The file as the whole body.
        ...Object.fromEntries((row.form.rawTypes ?? []).map((type) => [type, { schema: BINARY }])),
      },
    };
  }
  if (row.streamedBody) {
    return {
      required: true,
      description: 'multipart/form-data with one file part.',
      content: { 'multipart/form-data': multipartOf(row.streamedBody, row, true) },
    };
  }
  return undefined;
}

function headersOf(headers: Record<string, HeaderDoc> | undefined): OpenApiResponse['headers'] {
  if (!headers || Object.keys(headers).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [
      name,
      { description: header.description, schema: header.schema ?? { type: 'string' } },
    ]),
  );
}

/** Every error status the row can return, with the codes of each. */
function errorCodesOf(row: Row): Map<number, ErrorCode[]> {
  const codes = new Map<number, ErrorCode[]>();
  // Each code under its status in the catalogue, or the other one it is written out with.
  const add = (...added: readonly DocumentedError[]) => {
    for (const error of added) {
      const { code, status } =
        typeof error === 'string' ? { code: error, status: ERROR_CODES[error].status } : error;
      codes.set(status, [...new Set([...(codes.get(status) ?? []), code])]);
    }
  };
  const takesInput = Boolean(row.pathParameters || row.query || row.body || row.form || row.streamedBody);
  if (takesInput) add('VALIDATION_ERROR');
  if (row.authorization !== 'none') add('UNAUTHORIZED', row.deniedCode);
  const documented = operationResponses[row.id];
  add(...(documented.errors ?? []));
  // A file part over the row's `maxFileBytes`, or of a kind it does not take.
  if (row.form || row.streamedBody) add('FILE_TOO_LARGE');
  if (documented.fileKinds) add('UNSUPPORTED_FILE_TYPE');
  if (row.idempotent === true) add('IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS');
  if (row.body || row.form || row.streamedBody) add('REQUEST_TOO_LARGE');
  add('TOO_MANY_REQUESTS', 'INTERNAL_ERROR');
  return new Map([...codes].sort(([left], [right]) => left - right));
}

/** Statuses API Gateway may write itself (its `timestamp` is not ISO 8601 in AWS). */
const writtenByGateway = (row: Row, status: number) =>
  status === 429 || status === 500 || status === 413 || (status === 401 && row.authorization !== 'none');

function responsesOf(row: Row): Record<string, OpenApiResponse> {
  const documented = operationResponses[row.id];
  const responses: Record<string, OpenApiResponse> = {};
  const success: OpenApiResponse = {
    description: 'Success',
    headers: headersOf({
      ...documented.headers,
      ...(row.responseHasCredential
        ? { 'Cache-Control': { description: '`no-store`: the response carries a credential' } }
        : {}),
    }),
  };
  if (documented.body === 'binary') {
    success.description = "The file's bytes, with the file's MIME type";
    success.content = Object.fromEntries(SUPPORTED_TYPES.map((type) => [type.mimeType, { schema: BINARY }]));
  } else if (documented.body === 'octets') {
    success.content = { 'application/octet-stream': { schema: BINARY } };
  } else if (documented.body === 'text') {
    const types = documented.textTypes ?? ['text/plain'];
    success.content = Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }]));
  } else if (documented.body !== undefined) {
    success.content = { 'application/json': { schema: schemaRef(documented.body) } };
    // The same response as text when the request asks for it (`format=tlog-proof`).
    if (documented.textAlternative) success.content['text/plain'] = { schema: { type: 'string' } };
    for (const type of documented.textTypes ?? []) success.content[type] = { schema: { type: 'string' } };
  } else success.description = 'Done; no body';
  if (!success.headers) delete success.headers;
  responses[String(row.successStatus)] = success;
  for (const [status, response] of Object.entries(documented.otherResponses ?? {})) {
    responses[status] = {
      description: response.description,
      headers: headersOf(response.headers),
      ...(response.body ? { content: { 'application/json': { schema: schemaRef(response.body) } } } : {}),
    };
  }
  for (const [status, codes] of errorCodesOf(row)) {
    const description =
      status === 413 && codes.includes('REQUEST_TOO_LARGE')
        ? `${STATUS_DESCRIPTIONS[status]}; REQUEST_TOO_LARGE: API Gateway refuses bodies over ${MAX_REQUEST_BODY_BYTES} bytes`
        : (STATUS_DESCRIPTIONS[status] ?? 'Error');
    const codeList = codes
      .map((code) => (errorCodeEntry(code).spec ? code : `${code} (extension)`))
      .join(', ');
    responses[String(status)] = {
      description: `${description}: ${codeList}`,
      content: {
        'application/json': {
          schema: errorBodySchema({
            codes,
            issueFormat: status === 400 ? (row.errorFormat ?? 'validationErrors') : undefined,
            writtenByGateway: writtenByGateway(row, status),
          }),
        },
      },
    };
  }
  return responses;
}

function operationOf(row: Row): OpenApiOperation {
  const specSection = specSectionOf(row);
  const parameters = [
    ...parametersOf(row.pathParameters, 'path'),
    ...parametersOf(row.query, 'query'),
    ...(row.idempotent === true ? [idempotencyKeyParameter] : []),
  ];
  const requestBody = requestBodyOf(row);
  return {
    operationId: row.id,
    summary: row.summary,
    description: descriptionOf(row),
    tags: [tagOf(row)],
    security: securityOf(row),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(row),
    ...(specSection ? { 'x-spec-section': specSection } : { 'x-extension': true }),
  };
}

/** API Gateway's greedy parameter `{name+}` is written `{name}` in OpenAPI, which has no such syntax. */

/**
 * Builds the document for a list of operations (the table by default).
 *
 * @example
 * const document = buildOpenApiDocument({ serverUrl: '/prod' });
 * document.paths['/v2/categories'].get.operationId // 'listCategories'
 */
export function buildOpenApiDocument(
  options: { serverUrl?: string; operations?: readonly Row[] } = {},
): OpenApiDocument {
  const rows = options.operations ?? operationList;
  const paths: OpenApiDocument['paths'] = {};
  for (const row of rows)
    (paths[documentedPath(row.path)] ??= {})[row.method.toLowerCase()] = operationOf(row);
  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Asset Registry', version: '2.0.0', description: DESCRIPTION, license: LICENSE },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl, description: SERVER_DESCRIPTION }] } : {}),
    tags: [...new Set(rows.map(tagOf))].map((name) => ({ name, description: tagDescriptionOf(name) })),
    paths,
    components: {
      schemas: responseSchemas,
      securitySchemes: {
        [API_KEY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'A company key (categories, subcategories, objects, files) or an App key (wallets)',
        },
        [WALLET_SESSION_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'arw_ session token',
          description:
            'A wallet session token from POST /v2/wallets/login; acts for its App with wallets:read',
        },
        [PERSON_TOKEN_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A person's ID token from the company's OpenID Connect provider (RS256, ES256 or EdDSA), " +
            'registered with the admin CLI; acts for the company with the permissions of the role ' +
            'its roles claim names: viewer, auditor, editor or admin (docs/people-sign-in.md)',
        },
      },
    },
  };
}

const SERVER_DESCRIPTION =
  'this deployment: a path relative to where this document was read, with the stage prefix in AWS';

let cached: OpenApiDocument | undefined;

/**
 * The table's document (built once per container), for the server at `stagePrefix`: a
 * relative URL (`/prod` in AWS, `/` locally), resolved against the address the document was
 * read from. Never a host or scheme from request headers, which a caller (or a cache between)
 * chooses.
 *
 * @example
 * openApiDocument('/prod').servers // [{ url: '/prod', description: '...' }]
 */
export function openApiDocument(stagePrefix: string): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return { ...cached, servers: [{ url: stagePrefix || '/', description: SERVER_DESCRIPTION }] };
}
