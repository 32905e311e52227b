/**
 * The OpenAPI document, offline: generated from the operation table (every row, with its method,
 * path, parameters, bodies, security and responses), valid against the official OpenAPI 3.1
 * schema, every Schema Object valid JSON Schema 2020-12, and served by its handler without a key.
 */

import { handler as getOpenApi } from '../../lambdas/handlers/openapi/get-openapi';
import {
  API_KEY_SCHEME,
  buildOpenApiDocument,
  documentedPath,
  type OpenApiDocument,
  PERSON_TOKEN_SCHEME,
  WALLET_SESSION_SCHEME,
} from '../../lambdas/openapi/openapi-document';
import type { OperationResponses } from '../../lambdas/openapi/operation-responses';
import { operationList, operations } from '../../lambdas/operations';
import { type ErrorCode, errorCodeEntry, errorCodes } from '../../lambdas/shared/error-catalogue';
import { NotFoundError } from '../../lambdas/shared/errors';
import { actorOf, type Principal } from '../../lambdas/shared/principal';
import type { JsonSchema } from '../../lambdas/shared/schema';
import { GATEWAY_RESPONSES, USAGE_PLAN_GATEWAY_RESPONSES } from '../../lib/api-gateway-settings';
import { invoke } from '../support/api-events';
import { officialSchemaProblems, ResponseValidator } from '../support/openapi-validator';

const SERVER = 'https://api.example.com/prod';
const document = buildOpenApiDocument({ serverUrl: SERVER });
const operationOf = (row: (typeof operationList)[number]) =>
  document.paths[documentedPath(row.path)]?.[row.method.toLowerCase()];

/** Every Schema Object of the document, with where it is. */
function schemaObjects(openApi: OpenApiDocument): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = [];
  for (const [path, item] of Object.entries(openApi.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        found.push([`${where} parameter ${parameter.name}`, parameter.schema]);
      }
      for (const [mediaType, content] of Object.entries(operation.requestBody?.content ?? {})) {
        found.push([`${where} request ${mediaType}`, content.schema]);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          found.push([`${where} ${status} ${mediaType}`, content.schema]);
        }
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          found.push([`${where} ${status} header ${name}`, header.schema]);
        }
      }
    }
  }
  return found;
}

describe('OpenAPI document: generated from the operation table', () => {
  it.each(operationList)('has $id as $method $path', (row) => {
    // Act
    const operation = operationOf(row);
    // Assess
    expect(operation).toBeDefined();
    expect(operation?.operationId).toBe(row.id);
    expect(operation?.summary).toBe(row.summary);
    expect(operation?.responses[String(row.successStatus)]).toBeDefined();
  });

  it('has no operation that is not a row of the table', () => {
    // Act
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(
        ([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path}`,
      ),
    );
    // Assess
    expect(documented.sort()).toEqual(
      operationList.map((row) => `${row.id} ${row.method} ${documentedPath(row.path)}`).sort(),
    );
  });

  it.each(operationList)('declares every path parameter of $id as required, with its schema', (row) => {
    // Prepare
    // A greedy `{name+}` (API Gateway's form) is the parameter `name`.
    const placeholders = [...row.path.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1]);
    // Act
    const pathParameters = (operationOf(row)?.parameters ?? []).filter(
      (parameter) => parameter.in === 'path',
    );
    // Assess
    expect(pathParameters.map((parameter) => parameter.name).sort()).toEqual([...placeholders].sort());
    for (const parameter of pathParameters) {
      expect(parameter.required).toBe(true);
      expect(parameter.schema.type).toBe('string');
    }
  });

  it('takes query parameters from the schemas, with defaults, bounds, enums and required flags', () => {
    // Act
    const parameters = operationOf({ ...operations.listCategories, id: 'listCategories' })?.parameters ?? [];
    const byName = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
    // Assess
    expect(byName.limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(byName.offset?.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(byName.status?.schema).toEqual({
      type: 'string',
      enum: ['active', 'inactive', 'all'],
      default: 'active',
    });
    expect(byName.sort?.schema).toMatchObject({ default: 'createdAt:desc' });
    expect(byName.name?.description).toMatch(/partial match/);
  });

  it('gives path ids their uuid format, and the upload objectId (UUID or externalId) none', () => {
    // Act
    const getObject = operationOf({ ...operations.getObject, id: 'getObject' });
    const upload = operationOf({ ...operations.uploadFile, id: 'uploadFile' });
    // Assess
    expect(getObject?.parameters?.[0]?.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(upload?.parameters?.find((parameter) => parameter.name === 'objectId')?.schema).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 100,
    });
  });

  it('describes JSON bodies, required when the schema has required fields', () => {
    // Act
    const create = operationOf({ ...operations.createCategory, id: 'createCategory' })?.requestBody;
    const update = operationOf({ ...operations.updateCategory, id: 'updateCategory' })?.requestBody;
    // Assess
    expect(create?.required).toBe(true);
    expect(create?.content['application/json']?.schema).toMatchObject({
      required: ['name'],
      properties: { name: { type: 'string', minLength: 2, maxLength: 100 } },
    });
    expect(update?.required).toBe(false);
    expect(update?.content['application/json']?.schema.properties).toMatchObject({
      status: { enum: ['active', 'inactive', 'archived', null] },
    });
  });

  it('types optional body fields as nullable, and query parameters without null', () => {
    // Act
    const create = operationOf({ ...operations.createObject, id: 'createObject' });
    const list = operationOf({ ...operations.listObjects, id: 'listObjects' });
    // Assess
    expect(create?.requestBody?.content['application/json']?.schema.properties).toMatchObject({
      externalId: { type: 'string' },
      summary: { type: ['string', 'null'] },
      metadata: { type: ['object', 'null'], 'x-max-json-bytes': 16_384 },
    });
    expect(list?.parameters?.find((parameter) => parameter.name === 'status')?.schema).toEqual({
      type: 'string',
      enum: ['active', 'inactive', 'all'],
      default: 'active',
    });
  });

  it('says that transfer needs an owner (if/then) and lists the subcategory actions', () => {
    // Act
    const update = operationOf({ ...operations.updateObject, id: 'updateObject' });
    const subcategory = operationOf({ ...operations.updateSubcategory, id: 'updateSubcategory' });
    // Assess
    expect(update?.requestBody?.content['application/json']?.schema.allOf).toEqual([
      expect.objectContaining({
        if: expect.objectContaining({ properties: { action: { const: 'transfer' } } }),
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then`, never awaited
        then: expect.objectContaining({ required: ['owner'] }),
      }),
    ]);
    expect(subcategory?.requestBody?.content['multipart/form-data']?.schema.properties).toMatchObject({
      action: { enum: ['CHANGE', 'ACTIVATE', 'DEACTIVATE', 'REMOVE'] },
    });
  });

  it('describes the subcategory update as multipart with an image part, or JSON without it', () => {
    // Act
    const body = operationOf({ ...operations.updateSubcategory, id: 'updateSubcategory' })?.requestBody;
    // Assess
    expect(Object.keys(body?.content ?? {}).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(body?.content['multipart/form-data']?.schema.properties).toMatchObject({
      name: { type: 'string' },
      action: { type: 'string' },
      file: { type: 'string', contentMediaType: 'application/octet-stream' },
    });
    expect(body?.content['multipart/form-data']?.encoding?.file?.contentType).toBe(
      'image/jpeg, image/png, image/gif, image/webp',
    );
    expect(body?.content['application/json']?.schema.properties).not.toHaveProperty('file');
  });

  it('describes the file upload as multipart with a required file part of any supported type', () => {
    // Act
    const body = operationOf({ ...operations.uploadFile, id: 'uploadFile' })?.requestBody;
    const multipart = body?.content['multipart/form-data'];
    // Assess
    expect(Object.keys(body?.content ?? {})).toEqual(['multipart/form-data']);
    expect(multipart?.schema.required).toEqual(['file']);
    expect(multipart?.schema.properties).toMatchObject({ description: {}, tags: {}, file: {} });
    expect(multipart?.encoding?.file?.contentType).toContain('application/pdf');
    expect(multipart?.encoding?.file?.contentType).toContain('text/csv');
  });

  it('describes the import body as a CSV or JSON Lines form part, JSON options, or the file as the whole body', () => {
    // Act
    const body = operationOf({ ...operations.createImport, id: 'createImport' })?.requestBody;
    const multipart = body?.content['multipart/form-data'];
    // Assess
    expect(Object.keys(body?.content ?? {})).toEqual([
      'multipart/form-data',
      'application/json',
      'text/csv',
      'application/jsonl',
      'application/x-ndjson',
      'application/x-jsonlines',
    ]);
    expect(body?.content['text/csv']?.schema).toMatchObject({ type: 'string', format: 'binary' });
    expect(multipart?.encoding?.file?.contentType).toBe(
      'text/csv, application/jsonl, application/x-ndjson, application/x-jsonlines',
    );
    const parts = multipart?.schema.properties as Record<string, JsonSchema> | undefined;
    expect(parts?.file?.description).toMatch(/CSV .* or JSON Lines/);
    expect(body?.content['application/json']?.schema.properties).toHaveProperty('size');
  });

  it('documents the export as CSV or JSON Lines (200) or an export job (202), and import errors as JSON or CSV', () => {
    // Act
    const exported = operationOf({ ...operations.exportObjects, id: 'exportObjects' })?.responses;
    const errors = operationOf({ ...operations.listImportErrors, id: 'listImportErrors' })?.responses;
    // Assess
    expect(Object.keys(exported?.['200']?.content ?? {})).toEqual(['text/csv', 'application/x-ndjson']);
    expect(exported?.['202']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ExportJob',
    });
    expect(exported?.['202']?.headers).toHaveProperty('Location');
    expect(Object.keys(errors?.['200']?.content ?? {})).toEqual(['application/json', 'text/csv']);
  });

  it('asks for the API key on every keyed row, a wallet session or a person where they may act, nothing on public rows', () => {
    // Act
    const security = Object.fromEntries(operationList.map((row) => [row.id, operationOf(row)?.security]));
    // Assess
    expect(security.walletLogin).toEqual([]);
    expect(security.openapi).toEqual([]);
    expect(security.getWallet).toEqual([{ [API_KEY_SCHEME]: [] }, { [WALLET_SESSION_SCHEME]: [] }]);
    expect(security.listWallets).toEqual([{ [API_KEY_SCHEME]: [] }, { [WALLET_SESSION_SCHEME]: [] }]);
    expect(security.updateWallet).toEqual([{ [API_KEY_SCHEME]: [] }]);
    expect(security.createCategory).toEqual([{ [API_KEY_SCHEME]: [] }, { [PERSON_TOKEN_SCHEME]: [] }]);
    expect(document.components.securitySchemes[API_KEY_SCHEME]).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    );
    expect(document.components.securitySchemes[WALLET_SESSION_SCHEME]).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(document.components.securitySchemes[PERSON_TOKEN_SCHEME]).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    );
  });

  it.each(operationList.filter((row) => row.authorization !== 'none'))(
    "documents 401 UNAUTHORIZED and 403 with the row's deniedCode for $id",
    (row) => {
      // Act
      const responses = operationOf(row)?.responses ?? {};
      // Assess
      expect(responses['401']?.content?.['application/json']?.schema.properties).toMatchObject({
        code: { enum: ['UNAUTHORIZED'] },
      });
      expect(responses['403']?.content?.['application/json']?.schema.properties).toMatchObject({
        code: { enum: [row.deniedCode] },
      });
    },
  );

  it('documents no 403 on the public rows', () => {
    // Assess
    for (const row of operationList.filter((each) => each.authorization === 'none')) {
      expect(operationOf(row)?.responses).not.toHaveProperty('403');
    }
  });

  it('documents the error codes each domain service throws, per status', () => {
    // Act
    const codes = (id: keyof typeof operations, status: number) =>
      operationOf({ ...operations[id], id } as (typeof operationList)[number])?.responses[String(status)]
        ?.content?.['application/json']?.schema.properties as { code: { enum: string[] } } | undefined;
    // Assess
    expect(codes('createObject', 404)?.code.enum).toEqual(['SUBCATEGORY_NOT_FOUND']);
    expect(codes('createObject', 409)?.code.enum).toEqual(
      expect.arrayContaining(['EXTERNAL_ID_EXISTS', 'SUBCATEGORY_NOT_ACTIVE']),
    );
    expect(codes('createCategory', 409)?.code.enum).toContain('CATEGORY_NAME_EXISTS');
    expect(codes('getWallet', 404)?.code.enum).toEqual(['RESOURCE_NOT_FOUND']);
    expect(codes('uploadFile', 400)?.code.enum).toEqual(['VALIDATION_ERROR', 'FILE_REQUIRED']);
    expect(codes('uploadFile', 413)?.code.enum).toEqual(['FILE_TOO_LARGE', 'REQUEST_TOO_LARGE']);
    expect(codes('uploadFile', 415)?.code.enum).toEqual(['UNSUPPORTED_FILE_TYPE']);
    expect(codes('updateSubcategory', 400)?.code.enum).toEqual(['VALIDATION_ERROR', 'INVALID_ACTION']);
    expect(codes('downloadFile', 403)?.code.enum).toEqual(['FILE_ACCESS_DENIED']);
    expect(codes('deleteFile', 403)?.code.enum).toEqual(['FILE_DELETE_DENIED']);
    expect(codes('walletLogin', 401)?.code.enum).toEqual(['UNAUTHORIZED']);
  });

  it('documents every code of the error catalogue at its status, but the ones only API Gateway returns', () => {
    // Act: the codes of each error response, with the statuses they are documented under
    const documented = new Map<string, Set<number>>();
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const schema = response.content?.['application/json']?.schema.properties as
            | { code?: { enum?: string[] } }
            | undefined;
          for (const code of schema?.code?.enum ?? []) {
            documented.set(code, new Set([...(documented.get(code) ?? []), Number(status)]));
          }
        }
      }
    }
    // Assess
    expect(errorCodes().filter((code) => !documented.has(code))).toEqual(
      errorCodes().filter((code) => errorCodeEntry(code).gatewayOnly),
    );
    for (const [code, statuses] of documented) {
      const entry = errorCodeEntry(code as ErrorCode);
      expect([
        code,
        [...statuses].filter((status) => status !== entry.status && status !== entry.alsoStatus?.status),
      ]).toEqual([code, []]);
    }
  });

  it("gives API Gateway's own responses the codes and statuses of the catalogue", () => {
    // Assess
    for (const response of [
      ...Object.values(GATEWAY_RESPONSES),
      ...Object.values(USAGE_PLAN_GATEWAY_RESPONSES),
    ]) {
      expect([response.code, response.statusCode]).toEqual([
        response.code,
        errorCodeEntry(response.code).status,
      ]);
    }
  });

  it('refuses, when compiling, a code the catalogue does not hold or holds under another status', () => {
    // Assess: tsc fails when one of these compiles (the test file is type-checked)
    const refused = [
      // @ts-expect-error: a typo
      (): OperationResponses => ({ body: null, errors: ['CATEGORY_NOT_FOUNDD'] }),
      // @ts-expect-error: FILE_TOO_LARGE responds 413, or 400 written out, never 404
      (): OperationResponses => ({ body: null, errors: [{ code: 'FILE_TOO_LARGE', status: 404 }] }),
      // @ts-expect-error: a 409 code is no NotFoundError
      () => new NotFoundError('CATEGORY_NAME_EXISTS', 'taken'),
    ];
    expect(refused).toHaveLength(3);
  });

  it('documents Idempotency-Key and its 409s on the rows the table marks idempotent', () => {
    // Prepare
    const marked = operationList.filter((row) => row.idempotent === true);
    // Act / Assess
    for (const row of operationList) {
      const operation = operationOf(row);
      const header = operation?.parameters?.find((parameter) => parameter.in === 'header');
      const conflictCodes = (
        operation?.responses['409']?.content?.['application/json']?.schema.properties as
          | { code: { enum: string[] } }
          | undefined
      )?.code.enum;
      if (marked.includes(row)) {
        expect(header).toMatchObject({ name: 'Idempotency-Key', required: false });
        expect(conflictCodes).toEqual(
          expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS']),
        );
      } else {
        expect(header).toBeUndefined();
        expect(conflictCodes ?? []).not.toContain('IDEMPOTENCY_KEY_REUSED');
      }
    }
  });

  it('gives 400s validationErrors, or details on the subcategory rows', () => {
    // Act
    const issueField = (row: (typeof operationList)[number]) =>
      Object.keys(
        (operationOf(row)?.responses['400']?.content?.['application/json']?.schema.properties ??
          {}) as object,
      ).find((name) => name === 'validationErrors' || name === 'details');
    // Assess
    for (const row of operationList.filter((each) => operationOf(each)?.responses['400'])) {
      expect(issueField(row)).toBe(row.errorFormat === 'details' ? 'details' : 'validationErrors');
    }
  });

  it('marks the extensions and names the spec section of the others', () => {
    // Act
    const getObject = operationOf({ ...operations.getObject, id: 'getObject' });
    const listObjects = operationOf({ ...operations.listObjects, id: 'listObjects' });
    // Assess
    expect(getObject?.['x-extension']).toBe(true);
    expect(getObject?.description).toMatch(/Extension/);
    expect(listObjects?.['x-spec-section']).toBe('4.1');
    expect(listObjects?.['x-extension']).toBeUndefined();
  });

  it("names each caller's form in an event's principal and a file's uploadedBy", () => {
    // Prepare
    const base: Principal = {
      type: 'company',
      tenantId: 'c',
      keyId: '0123456789abcdef01234567',
      permissions: new Set(),
    };
    const actors = [
      actorOf(base),
      actorOf({ ...base, type: 'app', wallet: { id: 'w', fullUsername: 'vera@app' } }),
      actorOf({ ...base, person: { principal: 'user:demo-vera@idp.example.com', role: 'viewer' } }),
    ];
    const descriptionOf = (schema: string, property: string) =>
      (document.components.schemas[schema] as { properties: Record<string, { description?: string }> })
        .properties[property]?.description ?? '';
    // Act
    const described = [descriptionOf('LedgerEvent', 'principal'), descriptionOf('FileRecord', 'uploadedBy')];
    // Assess
    for (const description of described) {
      for (const actor of actors) expect(description).toContain(`\`${actor.split(':')[0]}:`);
    }
  });
});

describe('OpenAPI document: validity', () => {
  it('is valid against the official OpenAPI 3.1 schema', () => {
    // Act
    const problems = officialSchemaProblems(document);
    // Assess
    expect(problems).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('is valid without a server too (OpenAPI then takes "/")', () => {
    // Act
    const withoutServer = buildOpenApiDocument();
    // Assess
    expect(withoutServer).not.toHaveProperty('servers');
    expect(officialSchemaProblems(withoutServer)).toEqual([]);
  });

  it('would be refused by the same check when broken (the check is not vacuous)', () => {
    // Prepare
    const broken = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses?: unknown; parameters?: Array<{ in: string }> }>>;
    };
    const listCategories = broken.paths['/v2/categories']?.get;
    if (listCategories) listCategories.responses = { 200: { content: {} } };
    const parameter = broken.paths['/v2/objects/{objectId}']?.get?.parameters?.[0];
    if (parameter) parameter.in = 'body';
    // Act
    const problems = officialSchemaProblems(broken);
    // Assess
    expect(problems.join('\n')).toMatch(/responses/);
    expect(problems.join('\n')).toMatch(/parameters\/0/);
  });

  it('holds only Schema Objects that are valid JSON Schema 2020-12 (strict)', () => {
    // Prepare
    const validator = new ResponseValidator(document);
    const failures: string[] = [];
    // Act
    for (const [where, schema] of schemaObjects(document)) {
      try {
        validator.compileSchema(schema);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    // Assess
    expect(failures).toEqual([]);
  });

  it('compiles every response schema, with every $ref resolved', () => {
    // Act / Assess
    expect(() => new ResponseValidator(document).compileAll()).not.toThrow();
  });

  it('tells a spec error body from a malformed one', () => {
    // Prepare
    const validator = new ResponseValidator(document);
    const response = (status: number, body: unknown) => ({
      status,
      contentType: 'application/json; charset=utf-8',
      text: JSON.stringify(body),
    });
    const timestamp = new Date().toISOString();
    // Act
    const valid = validator.problemsOf(
      'createCategory',
      response(400, {
        error: 'The request is not valid',
        code: 'VALIDATION_ERROR',
        timestamp,
        validationErrors: [{ field: 'name', code: 'REQUIRED', message: 'name is required' }],
      }),
    );
    const withoutIssues = validator.problemsOf(
      'createCategory',
      response(400, { error: 'x', code: 'VALIDATION_ERROR', timestamp }),
    );
    const fileRequired = validator.problemsOf(
      'uploadFile',
      response(400, { error: 'x', code: 'FILE_REQUIRED', timestamp }),
    );
    const wrongCode = validator.problemsOf(
      'getCategory',
      response(404, { error: 'x', code: 'OBJECT_NOT_FOUND', timestamp }),
    );
    const undocumented = validator.problemsOf('listCategories', response(418, {}));
    const extraField = validator.problemsOf(
      'getCategory',
      response(404, { error: 'x', code: 'CATEGORY_NOT_FOUND', timestamp, stack: 'at ...' }),
    );
    // Assess
    expect(valid).toEqual([]);
    expect(withoutIssues.join()).toMatch(/validationErrors/);
    expect(fileRequired).toEqual([]);
    expect(wrongCode.join()).toMatch(/allowed values/);
    expect(undocumented.join()).toMatch(/not documented/);
    expect(extraField.join()).toMatch(/additional properties/);
  });
});

describe('GET /v2/openapi.json handler', () => {
  it('responds 200 without any principal, with a relative server: the stage prefix', async () => {
    // Act
    const response = await invoke(getOpenApi, { method: 'GET', path: '/v2/openapi.json' });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    // proxyEvent puts the request under the stage `/test`.
    expect(response.body.servers).toEqual([expect.objectContaining({ url: '/test' })]);
    expect(Object.keys(response.body.paths)).toContain('/v2/openapi.json');
  });

  it('never takes the server from Host or X-Forwarded-Proto: the cached document is the same for everyone', async () => {
    // Act
    const plain = await invoke(getOpenApi, { method: 'GET', path: '/v2/openapi.json' });
    const spoofed = await invoke(getOpenApi, {
      method: 'GET',
      path: '/v2/openapi.json',
      headers: {
        Host: 'attacker.example',
        'X-Forwarded-Proto': 'http',
        'X-Forwarded-Host': 'attacker.example',
      },
    });
    // Assess
    expect(spoofed.body.servers).toEqual(plain.body.servers);
    expect(JSON.stringify(spoofed.body)).not.toContain('attacker.example');
    expect(spoofed.headers?.['Cache-Control']).toBe('public, max-age=300');
  });

  it("declares the document's own info and paths, tag descriptions and a licence", () => {
    // Act
    const schema = document.components.schemas.OpenApiDocument as { properties: Record<string, unknown> };
    // Assess
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['openapi', 'info', 'paths']));
    expect(document.tags.every((tag) => tag.description.length > 0)).toBe(true);
    expect(document.info.license.name).toMatch(/UNLICENSED/);
  });

  it('types file parts and downloads as binary', () => {
    // Act
    const upload = document.paths['/v2/companies/{companyId}/objects/{objectId}/files']?.post;
    const download = document.paths['/v2/companies/{companyId}/files/{fileId}']?.get;
    // Assess
    expect(upload?.requestBody?.content['multipart/form-data']?.schema.properties).toMatchObject({
      file: { type: 'string', format: 'binary' },
    });
    expect(download?.responses['200']?.content?.['image/png']?.schema).toMatchObject({ format: 'binary' });
  });
});
