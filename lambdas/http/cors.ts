/**
 * CORS for browser clients (the web console, a page calling the API). The allowed origins come
 * from the environment (`CORS_ALLOWED_ORIGINS`, comma-separated), which the CDK stack sets from
 * its `corsAllowedOrigins` context and `npm start` from the local console's origin. API Gateway
 * (or the local gateway) responds to preflights; the handlers add the headers of actual responses,
 * errors included, so that a browser can read them.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { headerValue } from './http-request.js';

/** The environment variable holding the allowed origins, comma-separated (`*` for any). */
export const CORS_ALLOWED_ORIGINS_ENVIRONMENT = 'CORS_ALLOWED_ORIGINS';

/** Request headers a browser may send (the API key, a wallet token, idempotency, conditional GETs). */
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'X-API-Key',
  'Authorization',
  'Idempotency-Key',
  'If-None-Match',
] as const;

/** Response headers a browser script may read besides the CORS-safelisted ones. */
const CORS_EXPOSED_HEADERS = [
  'Location',
  'ETag',
  'Content-Disposition',
  'Content-Length',
  'x-amzn-RequestId',
] as const;

/** Every method of the API, HEAD and the preflight's OPTIONS included. */
export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const;

/** How long a browser may reuse a preflight response. */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * Parses a comma-separated list of origins (`https://console.example.com,http://localhost:5173`);
 * blanks are dropped and a trailing slash is removed, since an `Origin` header never has one.
 *
 * @example
 * parseOrigins(' https://a.example/ ,,http://b.example') // ['https://a.example', 'http://b.example']
 */
export function parseOrigins(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
}

/** The origins this process allows, from {@link CORS_ALLOWED_ORIGINS_ENVIRONMENT}. */
export const allowedOrigins = (): string[] => parseOrigins(process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT]);

/**
 * The CORS headers of a response to a request from `origin`: none when the origin is not
 * allowed (the browser then keeps the response from the page), else that origin (`Vary: Origin`,
 * since the response depends on it) and the readable headers.
 *
 * @example
 * corsHeaders('https://console.example.com', ['https://console.example.com'])
 * // { 'Access-Control-Allow-Origin': 'https://console.example.com', Vary: 'Origin', ... }
 */
export function corsHeaders(
  origin: string | undefined,
  allowed: readonly string[] = allowedOrigins(),
): Record<string, string> {
  if (!origin || !(allowed.includes('*') || allowed.includes(origin))) return {};
  return {
    'Access-Control-Allow-Origin': allowed.includes('*') ? '*' : origin,
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/** The headers of a preflight response (`OPTIONS`) from `origin`, as API Gateway's CORS mock returns it. */
export function preflightHeaders(
  origin: string | undefined,
  allowed: readonly string[] = allowedOrigins(),
): Record<string, string> {
  const headers = corsHeaders(origin, allowed);
  if (Object.keys(headers).length === 0) return {};
  return {
    ...headers,
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS.join(','),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(','),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}

/**
 * Middleware adding the CORS headers to every response of a handler, errors too (it must run
 * after the error responder has shaped them: `use` it before that one).
 */
export function corsMiddleware(): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const addHeaders = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    if (!request.response) return;
    const headers = corsHeaders(headerValue(request.event.headers, 'origin'));
    if (Object.keys(headers).length === 0) return;
    request.response = { ...request.response, headers: { ...request.response.headers, ...headers } };
  };
  return { after: addHeaders, onError: addHeaders };
}
