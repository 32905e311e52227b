/**
 * Calling handler modules in process, as API Gateway would after the authorizer allowed the
 * request: REST (v1) proxy events built from an operation row, its path parameters and the
 * caller, and the handler module named by the row.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Operation } from '../../lambdas/operation-row';
import { type Principal, toAuthorizerContext } from '../../lambdas/shared/principal';
import { handlersDirectory } from '../../local/project-paths';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** One request to an operation. */
export interface OperationRequest {
  principal?: Principal;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A binary body (multipart uploads), sent base64-encoded as API Gateway does. */
  binaryBody?: { content: Buffer; contentType: string };
  headers?: Record<string, string>;
}

export interface HandlerResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: responses of every shape
  body: any;
}

const lambdaContext = { awsRequestId: 'bench-request', functionName: 'bench' } as Context;

/** `/v2/objects/{objectId}` with `{ objectId: 'x' }` → `/v2/objects/x`. */
function fillPath(template: string, parameters: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ''));
}

function proxyEvent(operation: Operation, request: OperationRequest): APIGatewayProxyEvent {
  const path = fillPath(operation.path, request.pathParameters);
  const binary = request.binaryBody;
  const headers: Record<string, string> = {
    'Content-Type': binary ? binary.contentType : 'application/json',
    ...(binary ? { 'Content-Length': String(binary.content.length) } : {}),
    ...request.headers,
  };
  const body = binary
    ? binary.content.toString('base64')
    : request.body === undefined
      ? null
      : JSON.stringify(request.body);
  return {
    resource: operation.path,
    path,
    httpMethod: operation.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: request.query
      ? Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, [value]]))
      : null,
    pathParameters: request.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: binary !== undefined,
    requestContext: {
      authorizer: request.principal
        ? { principalId: request.principal.keyId, ...toAuthorizerContext(request.principal) }
        : null,
      path,
      requestId: randomUUID(),
      httpMethod: operation.method,
      stage: 'bench',
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

const loaded = new Map<string, Promise<ProxyHandler>>();

/** The handler module of an operation row (loaded once, as in a warm Lambda container). */
function loadHandler(operation: Operation): Promise<ProxyHandler> {
  let handler = loaded.get(operation.handler);
  if (!handler) {
    handler = import(join(handlersDirectory, `${operation.handler}.ts`)).then(
      (module: { handler: ProxyHandler }) => module.handler,
    );
    loaded.set(operation.handler, handler);
  }
  return handler;
}

/** Calls the operation's handler; the response's JSON body is parsed. */
export async function invokeOperation(
  operation: Operation,
  request: OperationRequest,
): Promise<HandlerResponse> {
  const handler = await loadHandler(operation);
  const result = await handler(proxyEvent(operation, request), lambdaContext);
  const json = String(result.headers?.['Content-Type'] ?? '').includes('json');
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: result.body && json && !result.isBase64Encoded ? JSON.parse(result.body) : result.body,
  };
}

/** Calls the handler and fails unless it returns `expectedStatus`. */
export async function invokeExpecting(
  operation: Operation & { id: string },
  request: OperationRequest,
  expectedStatus = operation.successStatus,
): Promise<HandlerResponse> {
  const response = await invokeOperation(operation, request);
  if (response.statusCode !== expectedStatus) {
    throw new Error(
      `${operation.id} responded ${response.statusCode}, expected ${expectedStatus}: ${JSON.stringify(response.body).slice(0, 500)}`,
    );
  }
  return response;
}

/** A `multipart/form-data` body with text fields and one file part. */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; fileName: string; contentType: string; content: Buffer },
): { content: Buffer; contentType: string } {
  const boundary = `----bench${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.fileName}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { content: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A small PDF-looking file (the type check reads the leading `%PDF-`). */
export function samplePdf(bytes = 2048): Buffer {
  const head = Buffer.from('%PDF-1.7\n% asset registry bench\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 0x41)]);
}
