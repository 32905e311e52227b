/**
 * API Gateway REQUEST authorizer. It maps a credential to a principal and allows the whole API;
 * per-operation permission checks happen in the handlers, against the operation table, where
 * they can respond 403 in the spec's format. Three credentials are accepted:
 * - `X-API-Key: ark_...`: a company's or an App's key, with the key's permissions;
 * - `Authorization: Bearer arw_...`: a wallet's session token (from `POST /v2/wallets/login`),
 *   acting for the wallet's App with the wallet permissions; each such call is counted on the
 *   wallet, in the same conditional write that checks the session was not ended;
 * - `Authorization: Bearer <JWT>`: a person's token from their company's identity provider
 *   (`person-tokens.ts`), acting with the permissions of the person's role.
 * When both are sent, `X-API-Key` decides. API Gateway's cache is off (see
 * `lib/api-gateway-settings.ts`), so this runs on every request; resolved API keys are kept in
 * memory for a few seconds, sessions (which never change) for a minute.
 * No credential at all is refused with "Unauthorized" (API Gateway's UNAUTHORIZED response, 401
 * "Missing credentials"); a credential that was sent but is unknown, revoked, expired or
 * malformed gets a Deny whose context names why, which the ACCESS_DENIED gateway response
 * responds as 401 with that reason (so the caller learns which credential to fix).
 */
import { createHash } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { resolveApiKey } from '#domain/identity/api-keys.js';
import { clearPersonTokenKeys, looksLikeJwt, resolvePersonToken } from '#domain/identity/person-tokens.js';
import { bearerTokenOf, resolveSessionToken } from '#domain/wallets/wallet-sessions.js';
import { headerValue } from '#http/http-request.js';
import {
  findIdentityProvider,
  type IdentityProviderRecord,
} from '#repositories/identity-provider-repository.js';
import { findSession, type WalletSessionRecord } from '#repositories/wallet-session-repository.js';
import { MemoryCache } from '#shared/memory-cache.js';
import { type Principal, toAuthorizerContext } from '#shared/principal.js';
import {
  API_KEY_HEADER,
  AUTHORIZER_MEMORY_CACHE_SECONDS,
  CREDENTIAL_REFUSALS,
  DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
  REFUSAL_REASON_CONTEXT_KEY,
  WALLET_TOKEN_HEADER,
} from '../../lib/api-gateway-settings.js';

const MAX_CACHED_CREDENTIALS = 1000;
/** Sessions never change, so how long one is cached does not delay any revocation. */
const SESSION_CACHE_SECONDS = 60;
/** A removed identity provider's tokens are refused at most this long after (docs/people-sign-in.md). */
const IDENTITY_PROVIDER_CACHE_SECONDS = 60;

const apiKeyCache = new MemoryCache<Principal>({
  ttlMs: AUTHORIZER_MEMORY_CACHE_SECONDS * 1000,
  maxEntries: MAX_CACHED_CREDENTIALS,
});
const sessionCache = new MemoryCache<WalletSessionRecord>({
  ttlMs: SESSION_CACHE_SECONDS * 1000,
  maxEntries: MAX_CACHED_CREDENTIALS,
});
const providerCache = new MemoryCache<IdentityProviderRecord>({
  ttlMs: IDENTITY_PROVIDER_CACHE_SECONDS * 1000,
  maxEntries: MAX_CACHED_CREDENTIALS,
});

/** Forgets every cached credential (the local gateway's cache flush; tests). */
export function clearAuthorizerCache(): void {
  apiKeyCache.clear();
  sessionCache.clear();
  providerCache.clear();
  clearPersonTokenKeys();
}

/** `arn:...:apiId/stage/VERB/path` → `arn:...:apiId/stage/*` (the response fits every route). */
export function wholeApiArn(methodArn: string): string {
  // The API id ends the part before the first slash: `arn:aws:execute-api:region:account:apiId`.
  const [arnPrefixWithApiId, stage] = methodArn.split('/');
  return `${arnPrefixWithApiId}/${stage}/*`;
}

const principalOfApiKey = (apiKey: string): Promise<Principal | undefined> =>
  apiKeyCache.getOrLoad(createHash('sha256').update(apiKey, 'utf8').digest('hex'), () =>
    resolveApiKey(apiKey),
  );

const cachedSession = (tokenHash: string): Promise<WalletSessionRecord | undefined> =>
  sessionCache.getOrLoad(tokenHash, () => findSession(tokenHash));

const cachedProvider = (issuer: string): Promise<IdentityProviderRecord | undefined> =>
  providerCache.getOrLoad(issuer, () => findIdentityProvider(issuer));

/** A Deny of the whole API that names why (the ACCESS_DENIED gateway response's message). */
function refusal(methodArn: string, reason: string): APIGatewayAuthorizerResult {
  return {
    principalId: 'refused',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: wholeApiArn(methodArn) }],
    },
    context: { [REFUSAL_REASON_CONTEXT_KEY]: reason },
  };
}

export const handler = async (
  event: APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewayAuthorizerResult> => {
  const apiKey = headerValue(event.headers, API_KEY_HEADER);
  const authorization = headerValue(event.headers, WALLET_TOKEN_HEADER);
  // This exact message is what makes API Gateway respond 401 (not 500): nothing was sent.
  if (!apiKey && !authorization) throw new Error('Unauthorized');
  let principal: Principal | undefined;
  if (apiKey) {
    principal = await principalOfApiKey(apiKey);
    if (!principal) return refusal(event.methodArn, CREDENTIAL_REFUSALS.apiKey);
  } else {
    const token = bearerTokenOf(authorization);
    if (!token) return refusal(event.methodArn, CREDENTIAL_REFUSALS.authorizationFormat);
    if (looksLikeJwt(token)) {
      const outcome = await resolvePersonToken(token, cachedProvider);
      if ('refusal' in outcome) return refusal(event.methodArn, outcome.refusal);
      principal = outcome.principal;
    } else {
      principal = await resolveSessionToken(token, cachedSession);
      if (!principal) return refusal(event.methodArn, CREDENTIAL_REFUSALS.walletToken);
    }
  }
  return {
    principalId: principal.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiArn(event.methodArn) }],
    },
    context: toAuthorizerContext(principal),
    // Whose usage plan throttles the call (the API reads keys from the authorizer).
    usageIdentifierKey: principal.usageIdentifierKey ?? process.env[DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT],
  };
};
