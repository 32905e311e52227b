/**
 * The local gateway: an HTTP server that does what API Gateway does for this API. It routes by
 * the operation table, runs the REQUEST authorizer (caching its response per key for the same
 * TTL as in AWS), builds a REST (v1) proxy event, calls the same handler module Lambda would,
 * and writes the proxy result back. Responses API Gateway gives by itself come from the shared
 * gateway-response table.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { API_TIMEOUT_SECONDS } from '../lambdas/http/api-timeout.js';
import { attachBodyStream } from '../lambdas/http/body-stream.js';
import { allowedOrigins, corsHeaders, preflightHeaders } from '../lambdas/http/cors.js';
import {
  API_KEY_HEADER,
  AUTHORIZER_CACHE_TTL_SECONDS,
  BINARY_MEDIA_TYPES,
  GATEWAY_RESPONSES,
  type GatewayResponseType,
  WALLET_TOKEN_HEADER,
} from '../lib/api-gateway-settings.js';
import { type ConsoleSignIn, serveConsoleFile } from './console-files.js';
import { handlersDirectory, projectRoot } from './project-paths.js';
import type { RouteMatch } from './route-matcher.js';
import { matchRoute } from './route-matcher.js';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
interface AuthorizerModule {
  handler: AuthorizerHandler;
  /** Forgets the authorizer's own in-memory cache of credentials. */
  clearAuthorizerCache?: () => void;
}

const STAGE = 'local';
const LOCAL_API_ID = 'local';
/** Loopback-only maintenance route: what `aws apigateway flush-stage-authorizers-cache` does in AWS. */
export const AUTHORIZER_CACHE_PATH = '/_local/authorizer-cache';

export interface LocalGatewayOptions {
  port: number;
  /** How the functions run; the handler modules in this process when not given. */
  apiFunctions?: ApiFunctions;
  /** Seconds an authorizer response is reused per key; API Gateway's TTL by default. */
  authorizerCacheTtlSeconds?: number;
  /** The identity provider the console signs people in with (npm start's). */
  consoleSignIn?: ConsoleSignIn;
}

export interface LocalGateway {
  server: Server;
  /** Counts of authorizer runs and cache hits, for the benchmarks. */
  authorizerStatistics: { invocations: number; cacheHits: number };
  close(): Promise<void>;
}

const handlerCache = new Map<string, Promise<ProxyHandler>>();

function loadHandler(modulePath: string): Promise<ProxyHandler> {
  let loaded = handlerCache.get(modulePath);
  if (!loaded) {
    loaded = import(join(handlersDirectory, `${modulePath}.ts`)).then(
      (module) => module.handler as ProxyHandler,
    );
    handlerCache.set(modulePath, loaded);
  }
  return loaded;
}

const loadAuthorizer = (): Promise<AuthorizerModule> =>
  import(join(projectRoot, 'lambdas', 'authorizer', 'api-key-authorizer.ts')) as Promise<AuthorizerModule>;

/**
 * How the gateway runs the API's functions: `npm start` runs each from its bundle in its own
 * execution environment (`local/functions/api-functions.ts`); without one, the handler modules
 * run in this process from their sources (the integration tests that call the gateway).
 */
export interface ApiFunctions {
  authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult>;
  /** Runs an operation's function; throws when it failed (API Gateway then responds 5xx). */
  invokeOperation(
    operation: RouteMatch['operation'],
    event: APIGatewayProxyEvent,
    bodyStream: Readable | undefined,
  ): Promise<APIGatewayProxyResult>;
  /** Forgets the authorizer's own in-memory cache of credentials. */
  flushAuthorizer(): void;
}

/** The handler modules in this process, from their sources. */
async function inProcessApiFunctions(): Promise<ApiFunctions> {
  const authorizerModule = await loadAuthorizer();
  return {
    authorize: (event) => authorizerModule.handler(event),
    async invokeOperation(operation, event, bodyStream) {
      if (bodyStream) attachBodyStream(event, bodyStream);
      const handler = await loadHandler(operation.handler);
      return handler(event, lambdaContext(operation.id));
    },
    flushAuthorizer: () => authorizerModule.clearAuthorizerCache?.(),
  };
}

function sendGatewayResponse(
  response: ServerResponse,
  type: GatewayResponseType,
  authorizerContext?: APIGatewayAuthorizerResult['context'],
): void {
  // The stack gives every gateway response the CORS header too, so that a page can read errors.
  const cors = corsHeaders(response.req.headers.origin);
  const setting: { statusCode: number; code: string; error: string; errorFromAuthorizerContext?: string } =
    GATEWAY_RESPONSES[type];
  const { statusCode, code } = setting;
  // As `$context.authorizer.<key>` in the AWS template: the reason a Deny named.
  const error = setting.errorFromAuthorizerContext
    ? String(authorizerContext?.[setting.errorFromAuthorizerContext] ?? setting.error)
    : setting.error;
  const body = JSON.stringify({ error, code, timestamp: new Date().toISOString() });
  response.writeHead(statusCode, {
    'Content-Type': 'application/json; charset=utf-8',
    'x-amzn-ErrorType': type,
    ...cors,
  });
  response.end(body);
}

/**
 * Local mode takes bodies up to 64 MB, above API Gateway's 10 MB cap, so that the spec's own
 * limits (a 10 MB subcategory image as base64, a 50 MB file) can be used directly here; in
 * AWS such uploads take the presigned S3 route.
 */
export const LOCAL_MAX_REQUEST_BODY_BYTES = 64 * 1024 * 1024;

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > LOCAL_MAX_REQUEST_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function isBinary(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === undefined) return false;
  return BINARY_MEDIA_TYPES.some((type) => type === '*/*' || type === mediaType);
}

/**
 * Maps without a prototype: a header or query parameter may be named `toString`,
 * `constructor` or `__proto__`, which on a plain object would be inherited members.
 */
const plainMap = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

function headerMaps(request: IncomingMessage) {
  const headers = plainMap<string>();
  const multiValueHeaders = plainMap<string[]>();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index] as string;
    const value = request.rawHeaders[index + 1] as string;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function queryMaps(url: URL) {
  const single = plainMap<string>();
  const multi = plainMap<string[]>();
  for (const [name, value] of url.searchParams) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  const empty = Object.keys(single).length === 0;
  return {
    queryStringParameters: empty ? null : single,
    multiValueQueryStringParameters: empty ? null : multi,
  };
}

function lambdaContext(functionName: string): Context {
  // As in AWS: the function's deadline is API Gateway's.
  const deadline = Date.now() + API_TIMEOUT_SECONDS * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** `*` matches any run of characters, as in IAM resource ARNs. */
function arnMatches(pattern: string, arn: string): boolean {
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`).test(arn);
}

/** As API Gateway evaluates the authorizer's policy: an explicit Deny wins, then an Allow must cover the method. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const covering = result.policyDocument.Statement.filter((statement) => {
    const resources = 'Resource' in statement ? statement.Resource : [];
    return (Array.isArray(resources) ? resources : [resources]).some((resource) =>
      arnMatches(String(resource), methodArn),
    );
  });
  return (
    covering.some((statement) => statement.Effect === 'Allow') &&
    !covering.some((statement) => statement.Effect === 'Deny')
  );
}

/** Starts the gateway; resolves once it listens. */
export async function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const ttlMs = (options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000;
  const authorizerCache = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();
  const authorizerStatistics = { invocations: 0, cacheHits: 0 };
  const apiFunctions = options.apiFunctions ?? (await inProcessApiFunctions());

  async function authorize(
    /** The identity-source values, as API Gateway keys its cache (unused while the TTL is 0). */
    cacheKey: string,
    methodArn: string,
    event: Omit<APIGatewayRequestAuthorizerEvent, 'type' | 'methodArn'>,
  ): Promise<{ result: APIGatewayAuthorizerResult; allowed: boolean } | undefined> {
    const cached = authorizerCache.get(cacheKey);
    if (cached && cached.expiresAt > Date.now()) {
      authorizerStatistics.cacheHits++;
      return { result: cached.result, allowed: policyAllows(cached.result, methodArn) };
    }
    authorizerStatistics.invocations++;
    try {
      const result = await apiFunctions.authorize({ ...event, type: 'REQUEST', methodArn });
      const allowed = policyAllows(result, methodArn);
      // Refusals are not kept (API Gateway would keep a Deny while caching is on; it is off,
      // AUTHORIZER_CACHE_TTL_SECONDS), so that a key issued a moment later works at once.
      if (ttlMs > 0 && allowed) authorizerCache.set(cacheKey, { result, expiresAt: Date.now() + ttlMs });
      return { result, allowed };
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') return undefined;
      throw error;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = (request.method ?? 'GET').toUpperCase();
    if (url.pathname === AUTHORIZER_CACHE_PATH && method === 'DELETE') {
      authorizerCache.clear();
      // In AWS a flush cannot reach the authorizer's memory (bounded by a few seconds there);
      // locally it is flushed too, so that revocation is immediate.
      apiFunctions.flushAuthorizer();
      response.writeHead(204).end();
      return;
    }
    if (
      (method === 'GET' || method === 'HEAD') &&
      (await serveConsoleFile(url.pathname, response, options.consoleSignIn))
    )
      return;
    // A CORS preflight, on any path of the API, gets its response here as API Gateway's mock gives it
    // (the stack adds those only when some origin is allowed).
    if (method === 'OPTIONS' && allowedOrigins().length > 0 && matchRoute('*', url.pathname)) {
      response.writeHead(204, preflightHeaders(request.headers.origin)).end();
      return;
    }
    const route = matchRoute(method, url.pathname);
    if (!route) return sendGatewayResponse(response, 'MISSING_AUTHENTICATION_TOKEN');

    // Uploads stream to the handler (and on to storage) instead of being read whole here.
    const streamed = route.operation.streamedBody !== undefined;
    let body: Buffer = Buffer.alloc(0);
    try {
      if (!streamed) body = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendGatewayResponse(response, 'REQUEST_TOO_LARGE');
      throw error;
    }
    const { headers, multiValueHeaders } = headerMaps(request);
    const { queryStringParameters, multiValueQueryStringParameters } = queryMaps(url);
    const pathParameters = Object.keys(route.pathParameters).length ? route.pathParameters : null;
    const requestId = randomUUID();
    const methodArn = `arn:aws:execute-api:local:000000000000:${LOCAL_API_ID}/${STAGE}/${method}${url.pathname}`;
    const apiKey = request.headers[API_KEY_HEADER.toLowerCase()];
    const walletToken = request.headers[WALLET_TOKEN_HEADER.toLowerCase()];
    const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
    // Routes marked `authorization: 'none'` (wallet login) run no authorizer, as in AWS.
    const publicRoute = route.operation.authorization === 'none';
    const presented = [apiKey, walletToken].some((value) => typeof value === 'string' && value !== '');

    const authorizerResponse =
      !publicRoute && presented
        ? await authorize(`${apiKey ?? ''}\n${walletToken ?? ''}`, methodArn, {
            resource: route.operation.path,
            path: url.pathname,
            httpMethod: method,
            headers,
            multiValueHeaders,
            pathParameters,
            queryStringParameters,
            multiValueQueryStringParameters,
            stageVariables: null,
            requestContext: {} as APIGatewayRequestAuthorizerEvent['requestContext'],
          })
        : undefined;
    if (authorizerResponse && !authorizerResponse.allowed) {
      return sendGatewayResponse(response, 'ACCESS_DENIED', authorizerResponse.result.context);
    }
    if (!authorizerResponse && !publicRoute) return sendGatewayResponse(response, 'UNAUTHORIZED');
    const authorization = authorizerResponse?.result;

    const binary = isBinary(request.headers['content-type']);
    const event: APIGatewayProxyEvent = {
      resource: route.operation.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters,
      multiValueQueryStringParameters,
      pathParameters,
      stageVariables: null,
      body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
      isBase64Encoded: binary && body.length > 0,
      requestContext: {
        accountId: '000000000000',
        apiId: LOCAL_API_ID,
        // API Gateway passes every context value as a string; a public route has no authorizer.
        authorizer: authorization
          ? {
              principalId: authorization.principalId,
              ...Object.fromEntries(
                Object.entries(authorization.context ?? {}).map(([key, value]) => [key, String(value)]),
              ),
            }
          : null,
        protocol: 'HTTP/1.1',
        httpMethod: method,
        identity: {
          sourceIp,
          userAgent: request.headers['user-agent'] ?? null,
        } as APIGatewayProxyEvent['requestContext']['identity'],
        path: url.pathname,
        stage: STAGE,
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: route.operation.id,
        resourcePath: route.operation.path,
      },
    };
    const result = await apiFunctions.invokeOperation(route.operation, event, streamed ? request : undefined);
    const responseHeaders: Record<string, string | string[]> = { ...result.headers } as Record<
      string,
      string
    >;
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
      responseHeaders[name] = values.map(String);
    }
    const responseBody = result.isBase64Encoded
      ? Buffer.from(result.body, 'base64')
      : Buffer.from(result.body ?? '', 'utf8');
    responseHeaders['x-amzn-RequestId'] = requestId;
    response.writeHead(result.statusCode, responseHeaders);
    response.end(responseBody);
    // A refused upload gets its response early: read and drop what is left of its body, never keep it.
    if (streamed && !request.readableEnded) request.resume();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A handler that throws past middy is a Lambda error; API Gateway responds 502.
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Local gateway error', errorMessage: String(error) }),
      );
      if (!response.headersSent) sendGatewayResponse(response, 'DEFAULT_5XX');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, always: nothing of local mode is meant for another machine.
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    server,
    authorizerStatistics,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
