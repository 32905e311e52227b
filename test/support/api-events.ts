/**
 * Builds API Gateway REST proxy events for calling handler modules in process, as API Gateway
 * would after the authorizer allowed the request.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type Principal, toAuthorizerContext } from '../../lambdas/shared/principal';

export interface EventOptions {
  method: string;
  path: string;
  resource?: string;
  principal?: Principal;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A raw body text (for malformed JSON); wins over `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export function proxyEvent(options: EventOptions): APIGatewayProxyEvent {
  const body = options.rawBody ?? (options.body === undefined ? null : JSON.stringify(options.body));
  return {
    resource: options.resource ?? options.path,
    path: options.path,
    httpMethod: options.method,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      authorizer: options.principal
        ? { principalId: options.principal.keyId, ...toAuthorizerContext(options.principal) }
        : null,
      path: `/test${options.path}`,
      requestId: randomUUID(),
      httpMethod: options.method,
      stage: 'test',
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

export const lambdaContext = { awsRequestId: 'test-request' } as Context;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Calls a handler and parses its JSON body. */
export async function invoke(
  handler: Handler,
  options: EventOptions,
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies of every shape
): Promise<{ statusCode: number; headers: Record<string, unknown>; body: any }> {
  const result = await handler(proxyEvent(options), lambdaContext);
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}
