/**
 * Settings of the API Gateway front door that the CDK stack and the local gateway share, so
 * that local mode answers as the deployed API does.
 */

/**
 * How long API Gateway keeps an authorizer answer: 0, caching off. API Gateway caches per
 * identity source and calls the authorizer only when every identity source is present, so a
 * cache keyed on `X-API-Key` would refuse wallets, which send `Authorization: Bearer` instead.
 * With caching off the authorizer has no identity sources and runs on every request; it keeps
 * its own short cache of API keys ({@link AUTHORIZER_MEMORY_CACHE_SECONDS}) and checks wallet
 * sessions against the wallet on every call (wallet revocation takes effect at once).
 */
export const AUTHORIZER_CACHE_TTL_SECONDS = 0;

/**
 * How long a warm authorizer reuses a resolved API key from memory: the bound on how long a
 * revoked API key keeps working in AWS (flushing the stage cache cannot reach Lambda memory).
 */
export const AUTHORIZER_MEMORY_CACHE_SECONDS = 5;

/** The header the authorizer reads an API key from. */
export const API_KEY_HEADER = 'X-API-Key';

/** The header a wallet sends its session token in, as `Bearer <token>`. */
export const WALLET_TOKEN_HEADER = 'Authorization';

/**
 * Content types API Gateway passes through base64-encoded, byte for byte. `*\/*`: every body,
 * because downloads answer files of any type, and API Gateway decides whether to decode a
 * proxy answer from this list; handlers decode base64 request bodies (even JSON) themselves.
 */
export const BINARY_MEDIA_TYPES = ['*/*'];

/** API Gateway refuses larger request bodies before any Lambda runs. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Answers API Gateway gives by itself (no Lambda runs), in the spec's error format. In AWS the
 * `timestamp` is API Gateway's `$context.requestTime` (gateway response templates substitute
 * variables but cannot format dates); local mode writes ISO 8601.
 */
export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: { statusCode: 401, code: 'UNAUTHORIZED', error: 'Missing or invalid API key' },
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, code: 'ROUTE_NOT_FOUND', error: 'No such operation' },
  ACCESS_DENIED: { statusCode: 403, code: 'ACCESS_DENIED', error: 'Access denied' },
  REQUEST_TOO_LARGE: { statusCode: 413, code: 'REQUEST_TOO_LARGE', error: 'The request body is too large' },
  THROTTLED: { statusCode: 429, code: 'TOO_MANY_REQUESTS', error: 'Too many requests' },
  DEFAULT_5XX: { statusCode: 500, code: 'INTERNAL_ERROR', error: 'Internal server error' },
} as const;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;
