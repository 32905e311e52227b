/**
 * Settings of the API Gateway front door that the CDK stack and the local gateway share, so
 * that local mode responds as the deployed API does.
 */
import type { ErrorCode, StatusOf } from '../lambdas/shared/error-catalogue.js';

/** A response API Gateway writes itself: a code of the catalogue, with the catalogue's status (type-checked). */
type GatewayResponse = {
  [Code in ErrorCode]: {
    statusCode: StatusOf<Code>;
    code: Code;
    error: string;
    errorFromAuthorizerContext?: string;
  };
}[ErrorCode];

/**
 * How long API Gateway keeps an authorizer response: 0, caching off. API Gateway caches per
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
 * because downloads return files of any type, and API Gateway decides whether to decode a
 * proxy response from this list; handlers decode base64 request bodies (even JSON) themselves.
 */
export const BINARY_MEDIA_TYPES = ['*/*'];

/** API Gateway refuses larger request bodies before any Lambda runs. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Responses API Gateway gives by itself (no Lambda runs), in the spec's error format. In AWS the
 * `timestamp` is API Gateway's `$context.requestTime` (gateway response templates substitute
 * variables but cannot format dates); local mode writes ISO 8601.
 */
export const GATEWAY_RESPONSES = {
  // The authorizer throws "Unauthorized" only when no credential was sent at all.
  UNAUTHORIZED: {
    statusCode: 401,
    code: 'UNAUTHORIZED',
    error:
      'Missing credentials: send an API key in X-API-Key, or a wallet session token as Authorization: Bearer <token>',
  },
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, code: 'ROUTE_NOT_FOUND', error: 'No such operation' },
  // The authorizer denies a credential that was sent but is not valid, naming why in its
  // context; the response is the 401 the spec asks for, with that reason as the message.
  ACCESS_DENIED: {
    statusCode: 401,
    code: 'UNAUTHORIZED',
    error: 'The credentials were refused',
    errorFromAuthorizerContext: 'refusalReason',
  },
  REQUEST_TOO_LARGE: { statusCode: 413, code: 'REQUEST_TOO_LARGE', error: 'The request body is too large' },
  THROTTLED: { statusCode: 429, code: 'TOO_MANY_REQUESTS', error: 'Too many requests' },
  DEFAULT_5XX: { statusCode: 500, code: 'INTERNAL_ERROR', error: 'Internal server error' },
} as const satisfies Record<string, GatewayResponse>;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/** The authorizer context key that carries why a credential was refused (ACCESS_DENIED). */
export const REFUSAL_REASON_CONTEXT_KEY = GATEWAY_RESPONSES.ACCESS_DENIED.errorFromAuthorizerContext;

/**
 * Why the authorizer refused a credential that was sent: the 401's message. Plain text without
 * double quotes or backslashes, since the AWS gateway response pastes it into a JSON template.
 */
export const CREDENTIAL_REFUSALS = {
  apiKey: 'Invalid API key: it is not a key of this API, or it was revoked',
  authorizationFormat:
    "The Authorization header must read Bearer <wallet session token or identity provider's token>",
  walletToken: 'Invalid wallet session token: unknown, expired, or ended (log in again)',
} as const;

/**
 * Per-key throttling and quotas (API Gateway usage plans, AWS only: the local gateway has
 * none). The authorizer names the caller's API Gateway API key (`usageIdentifierKey`); that
 * key's plan limits the caller: a steady rate and a burst (requests per second, token bucket)
 * and a quota of requests per period. Every key starts on {@link DEFAULT_USAGE_PLAN}.
 */
export const USAGE_PLANS = {
  default: {
    description: 'Every new key: 25 requests/s, bursts of 50, 1,000,000 requests a month',
    rateLimit: 25,
    burstLimit: 50,
    quota: { limit: 1_000_000, period: 'MONTH' },
  },
  high: {
    description: 'Heavy integrations: 250 requests/s, bursts of 500, 25,000,000 requests a month',
    rateLimit: 250,
    burstLimit: 500,
    quota: { limit: 25_000_000, period: 'MONTH' },
  },
} as const;

export type UsagePlanName = keyof typeof USAGE_PLANS;

/** The plan of every new key. */
export const DEFAULT_USAGE_PLAN: UsagePlanName = 'default';

/**
 * The plan of the stack's shared API Gateway key: callers without a usage key of their own
 * (keys issued before usage keys existed, wallets of Apps without one) count on it together,
 * so it gets the larger limits.
 */
export const SHARED_USAGE_PLAN: UsagePlanName = 'high';

/**
 * The authorizer's environment variable holding the value of the stack's shared API Gateway
 * key (in {@link SHARED_USAGE_PLAN}), returned as `usageIdentifierKey` for callers whose key
 * item carries none of its own.
 */
export const DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT = 'DEFAULT_USAGE_IDENTIFIER_KEY';

/** Stage-wide throttling of each method, all callers together: a ceiling above every plan. */
export const STAGE_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

/**
 * Throttling of each public route (no key, so no usage plan), all callers together: wallet
 * logins (scrypt per attempt) and the OpenAPI document.
 */
export const PUBLIC_ROUTE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/**
 * Responses API Gateway gives by itself when a usage plan refuses a call, in the spec's error
 * format (AWS only: the local gateway has no usage plans). A quota used up is 429 like a
 * throttle; a usage identifier that names no key of a plan of this stage is our configuration
 * error, with 403.
 */
export const USAGE_PLAN_GATEWAY_RESPONSES = {
  QUOTA_EXCEEDED: {
    statusCode: 429,
    code: 'QUOTA_EXCEEDED',
    error: 'The API key has used up its request quota for this period',
  },
  INVALID_API_KEY: { statusCode: 403, code: 'ACCESS_DENIED', error: 'The API key has no usage plan' },
} as const satisfies Record<string, GatewayResponse>;
