/**
 * The shared handler stack. A handler file is one call:
 * `export const handler = httpHandler(operations.x, async (request) => ({ body: await domain(...) }))`.
 * This module checks the caller against the operation's row (principal kind, permission, and the
 * permissions of each of the row's conditions that the request meets),
 * parses path, query and body with the row's schemas, runs creating POSTs idempotently, and
 * shapes the response; errors become the spec's bodies in {@link errorResponder}. Every call is
 * logged (with the caller's ids), counted and traced (`#shared/observability.js`, `xray-tracing.js`).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { CodeWithStatus } from '#shared/error-catalogue.js';
import { ForbiddenError } from '#shared/errors.js';
import type { UploadedFile } from '#shared/multipart-stream.js';
import {
  countResponse,
  logger,
  metrics,
  observedServiceName,
  startInvocation,
} from '#shared/observability.js';
import { type Principal, principalFromEvent } from '#shared/principal.js';
import { ROLES } from '#shared/roles.js';
import type { Infer, ObjectSchema } from '#shared/schema.js';
import { traceInvocation } from '#shared/xray-tracing.js';
import {
  type KeyedOperation,
  keyedOperation,
  type Operation,
  operationIdOf,
  type RequestParts,
} from '../operation-row.js';
import { corsMiddleware } from './cors.js';
import { errorResponder } from './error-responder.js';
import type { readFormBody } from './form-body.js';
import { parseJsonBody, parsePart } from './http-request.js';
import { jsonResponse } from './http-response.js';
import type { runIdempotently } from './idempotency.js';

type PartOf<S> = S extends ObjectSchema<infer Shape> ? Infer<Shape> : Record<string, never>;

/** What a handler receives: the caller and the validated request parts. */
export interface OperationRequest<Op extends Operation> {
  event: APIGatewayProxyEvent;
  /** The caller; none for operations without authorization (wallet login). */
  principal: Op['authorization'] extends 'none' ? undefined : Principal;
  path: PartOf<Op['pathParameters']>;
  query: PartOf<Op['query']>;
  body: PartOf<Op['body']>;
  /** The parsed form of operations with a `form` row: its fields and, if one came, its file. */
  form: { fields: PartOf<NonNullable<Op['form']>['fields']>; file?: UploadedFile };
}

/** What a handler returns; the status defaults to the row's `successStatus`. */
export interface HttpResult {
  statusCode?: number;
  /** A JSON body. */
  body?: unknown;
  /** Bytes returned as they are (file downloads), instead of JSON. */
  rawBody?: Buffer;
  headers?: Record<string, string>;
}

/**
 * What only some operations need, passed by their handler files so that the others neither
 * bundle nor load it: idempotent creation (`idempotent-requests.ts`, rows with `idempotent`) and
 * form bodies (`form-requests.ts`, rows with `form`).
 */
export interface RequestExtensions {
  runIdempotently?: typeof runIdempotently;
  readFormBody?: typeof readFormBody;
}

/** What lacks a permission, in a 403's message: the key, or the person's role. */
const credentialOf = (principal: Principal): string =>
  principal.person ? `The role ${principal.person.role}` : 'The API key';

/** The 403 message of a row marked `accessManagement` for any caller but an admin person. */
export const ACCESS_MANAGEMENT_REFUSAL =
  "Only a person with the admin role may manage the company's API keys and identity providers " +
  '(signed in through its identity provider; an API key may not)';

/** Refuses a caller of the wrong kind or without the operation's permission. */
export function authorizeOperation(operation: KeyedOperation, principal: Principal): void {
  if (principal.refusal) throw new ForbiddenError(operation.deniedCode, principal.refusal);
  // Before `anyKey`: a row that any key may call still keeps the audit trail from a viewer.
  if (operation.auditTrail && principal.person && !ROLES[principal.person.role].auditTrail) {
    throw new ForbiddenError(
      operation.deniedCode,
      `The role ${principal.person.role} may not read the audit trail (ledger proofs, bundles, exports, ` +
        "imports' reports): the auditor, editor and admin roles may",
    );
  }
  if (operation.accessManagement && !(principal.person && ROLES[principal.person.role].managesAccess)) {
    throw new ForbiddenError(operation.deniedCode, ACCESS_MANAGEMENT_REFUSAL);
  }
  if (operation.anyKey) return;
  if (principal.type !== operation.principal) {
    throw new ForbiddenError(
      operation.deniedCode,
      `This operation needs a key of ${operation.principal === 'company' ? 'a company' : 'an App'}`,
    );
  }
  if (!principal.permissions.has(operation.permission)) {
    throw new ForbiddenError(
      operation.deniedCode,
      `${credentialOf(principal)} lacks the permission ${operation.permission}`,
    );
  }
}

/**
 * Refuses a request that meets one of the row's conditions (`conditionalPermissions`) with a key
 * that lacks the permissions the condition adds. Called by the shared handler for conditions
 * it can read in the request, and by a handler for a condition that lies in stored data.
 */
export function requireConditionalPermissions(
  operation: KeyedOperation,
  principal: Principal,
  conditionName: string,
): void {
  const condition = operation.conditionalPermissions?.[conditionName];
  if (!condition) throw new Error(`${operationIdOf(operation)} declares no condition ${conditionName}`);
  if (operation.anyKey) return;
  const missing = condition.permissions.filter((permission) => !principal.permissions.has(permission));
  if (missing.length === 0) return;
  throw new ForbiddenError(
    operation.deniedCode,
    `${credentialOf(principal)} lacks the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, ` +
      `which ${condition.when} needs`,
  );
}

/** Checks every condition of the row that the parsed request meets. */
function authorizeConditions(operation: KeyedOperation, principal: Principal, request: RequestParts): void {
  for (const [name, condition] of Object.entries(operation.conditionalPermissions ?? {})) {
    if (condition.appliesTo?.(request)) requireConditionalPermissions(operation, principal, name);
  }
}

/** Refuses a company id in the path that is not the caller's own company. */
function assertOwnCompany(
  principal: Principal,
  companyId: string,
  deniedCode: CodeWithStatus<403> = 'COMPANY_ACCESS_DENIED',
): void {
  if (principal.tenantId !== companyId) {
    throw new ForbiddenError(deniedCode, 'The API key does not belong to this company');
  }
}

/**
 * The address of a resource, as a path reference that keeps the stage prefix API Gateway
 * adds in AWS (`/prod/v2/...`) and that is bare in local mode (`/v2/...`).
 */
export function resourceLocation(event: APIGatewayProxyEvent, resourcePath: string): string {
  const fullPath = event.requestContext?.path ?? event.path;
  const stagePrefix = fullPath.endsWith(event.path)
    ? fullPath.slice(0, fullPath.length - event.path.length)
    : '';
  return `${stagePrefix}${resourcePath}`;
}

async function parseForm(
  form: NonNullable<Operation['form']>,
  event: APIGatewayProxyEvent,
  read: typeof readFormBody,
) {
  const { fields, file } = await read(event, form);
  return { fields: parsePart(form.fields, fields, 'body'), file };
}

/**
 * The response to `HEAD` on a GET route: the status and headers GET would give, with the length
 * of the body it would send, and no body.
 */
function headResponse(statusCode: number, result: HttpResult): APIGatewayProxyResult {
  const full = result.rawBody
    ? { headers: result.headers ?? {}, length: result.rawBody.length }
    : (() => {
        const json = jsonResponse(statusCode, result.body, result.headers);
        return { headers: json.headers as Record<string, string>, length: Buffer.byteLength(json.body) };
      })();
  return {
    statusCode,
    headers: { 'Content-Length': String(full.length), ...full.headers },
    body: '',
  };
}

/** Builds the middy handler of one operation. */
export function httpHandler<Op extends Operation>(
  operation: Op,
  handle: (request: OperationRequest<Op>) => Promise<HttpResult>,
  extensions: RequestExtensions = {},
): middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult> {
  // Names the operation in logs, metrics and idempotency keys.
  const operationId: string = operationIdOf(operation) ?? operation.handler;
  // A row and its handler file that disagree fail when the module loads, not on some request.
  const { runIdempotently, readFormBody } = extensions;
  if (operation.idempotent && !runIdempotently)
    throw new Error(`${operationId} is idempotent: its handler must pass idempotentRequests`);
  if (operation.form && !readFormBody)
    throw new Error(`${operationId} takes a form: its handler must pass formRequests`);
  return (
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(traceInvocation({ serviceName: observedServiceName, operation: operationId }))
      .use({
        before: ({ context }) => startInvocation(context),
        after: () => metrics.publishStoredMetrics(),
        onError: () => metrics.publishStoredMetrics(),
      })
      // Before the error responder, so that its `onError` runs after it and sees the error body.
      .use(corsMiddleware())
      .use(
        errorResponder({
          errorFormat: operation.errorFormat,
          log: ({ message, ...details }) => logger.error(String(message), details),
          onResponse: (statusCode) => countResponse(operationId, statusCode),
        }),
      )
      .handler(async (event, context) => {
        const keyed = keyedOperation(operation);
        const principal = keyed && principalFromEvent(event);
        // Ids only: the key itself never reaches a log line.
        logger.appendKeys({
          operation: operationId,
          principalType: principal?.type,
          tenantId: principal?.tenantId,
          keyId: principal?.keyId,
        });
        if (keyed && principal) authorizeOperation(keyed, principal);
        const path = operation.pathParameters
          ? parsePart(operation.pathParameters, event.pathParameters, 'path')
          : {};
        // Another company's id in the path is refused before the body is even read.
        if (keyed?.companyInPath && principal) {
          assertOwnCompany(principal, (path as { companyId: string }).companyId, keyed.deniedCode);
        }
        const request = {
          event,
          principal,
          path,
          query: operation.query ? parsePart(operation.query, event.queryStringParameters, 'query') : {},
          body: operation.body ? parsePart(operation.body, parseJsonBody(event), 'body') : {},
          form:
            operation.form && readFormBody
              ? await parseForm(operation.form, event, readFormBody)
              : { fields: {} },
        } as OperationRequest<Op>;
        // What the request does beyond the row's own permission, before any work is done.
        if (keyed && principal) {
          authorizeConditions(keyed, principal, {
            path: request.path as RequestParts['path'],
            query: request.query as RequestParts['query'],
            body: request.body as RequestParts['body'],
            fields: request.form.fields as RequestParts['fields'],
          });
        }
        const result =
          runIdempotently && principal
            ? await runIdempotently(
                operationId,
                principal.tenantId,
                event,
                context,
                () => handle(request) as Promise<HttpResult & Record<string, unknown>>,
                operation.secretFields,
              )
            : await handle(request);
        if (operation.responseHasCredential) {
          result.headers = { ...result.headers, 'Cache-Control': 'no-store' };
        }
        const statusCode = result.statusCode ?? operation.successStatus;
        countResponse(operationId, statusCode);
        if (event.httpMethod === 'HEAD') return headResponse(statusCode, result);
        if (result.rawBody) {
          return {
            statusCode,
            headers: result.headers ?? {},
            body: result.rawBody.toString('base64'),
            isBase64Encoded: true,
          };
        }
        return jsonResponse(statusCode, result.body, result.headers);
      })
  );
}
