/**
 * A person's token from their company's identity provider (`Authorization: Bearer <JWT>`),
 * checked with `jose`: the issuer must be registered (for exactly one company), the signature
 * must verify against a key of the issuer's JWKS (found through its OpenID discovery document),
 * with one of {@link PERSON_TOKEN_ALGORITHMS}, and `iss`, `aud`, `exp` and `nbf` must hold with
 * at most {@link CLOCK_SKEW_SECONDS} of skew. The person's role comes from the provider's roles
 * claim (docs/people-sign-in.md). Nothing of the token is kept but the principal it yields.
 */
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import type { IdentityProviderRecord } from '#repositories/identity-provider-repository.js';
import { MemoryCache } from '#shared/memory-cache.js';
import { PERFORMED_BY_MAX, type Principal } from '#shared/principal.js';
import { highestRole, isRole, ROLE_NAMES, ROLES, type Role } from '#shared/roles.js';
import { loopbackHttpAllowed, untrustedAddress } from './issuer-urls.js';
import { unregistrableIssuer } from './registrable-issuer.js';

/** Asymmetric algorithms only: never `none`, never an HMAC (whose key a verifier would share). */
const PERSON_TOKEN_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];
export const CLOCK_SKEW_SECONDS = 60;
/** Longer than any provider's ID token; refused before any decoding. */
const MAX_TOKEN_CHARACTERS = 16_384;
const MAX_SUBJECT_CHARACTERS = 255;
const FETCH_TIMEOUT_MS = 3000;
/** How long an issuer's discovery document (and so its key set's address) is trusted. */
const DISCOVERY_CACHE_MS = 60 * 60 * 1000;
/** At most this many issuers' key sets are held; the oldest goes first. */
const MAX_CACHED_ISSUERS = 100;
/** A key set is fetched again at most this often, even for tokens with unknown `kid`s. */
export const JWKS_COOLDOWN_MS = 30_000;
const JWKS_MAX_AGE_MS = 10 * 60 * 1000;

/** Why a person's token is refused (401), in words the caller can act on. */
export const PERSON_TOKEN_REFUSALS = {
  malformed: 'The bearer token is not a JWT this API can read',
  unknownIssuer: "The token's issuer is not registered as any company's identity provider",
  algorithm: `The token's algorithm is not accepted (only ${PERSON_TOKEN_ALGORITHMS.join(', ')})`,
  expired: 'The token has expired: sign in again',
  notYetValid: 'The token is not valid yet (nbf)',
  audience:
    "The token's audience (aud) is not the one registered for its issuer (or, with several, its azp is not)",
  issuer: "The token's issuer (iss) does not match its provider",
  claims: `The token lacks a required claim (sub, exp), or its sub is not a string of at most ${MAX_SUBJECT_CHARACTERS} characters`,
  unknownKey: "The token's key (kid) is not among its identity provider's keys",
  signature: "The token's signature does not verify",
  providerUnreachable: "The identity provider's discovery document or keys could not be read",
  discoveryMismatch:
    "The identity provider's discovery document names another issuer, no jwks_uri, or an untrusted one",
} as const;

type PersonTokenOutcome = { principal: Principal } | { refusal: string };

/** `user:<sub>@<issuer host>`: how the ledger names the person. */
const personPrincipalOf = (subject: string, issuer: string): string =>
  `user:${subject}@${new URL(issuer).host}`;

/** A bearer token that is a JWT (three base64url parts), not a wallet's session token. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

type KeySet = ReturnType<typeof createRemoteJWKSet>;
const keySets = new MemoryCache<KeySet>({ ttlMs: DISCOVERY_CACHE_MS, maxEntries: MAX_CACHED_ISSUERS });

/** Forgets every issuer's key set (tests; the local gateway's cache flush). */
export function clearPersonTokenKeys(): void {
  keySets.clear();
  failedDiscoveries.clear();
}

class ProviderUnreachableError extends Error {}
/** The discovery document was read, but does not describe the registered issuer's keys. */
class DiscoveryMismatchError extends Error {}

/**
 * A discovery that failed is not tried again for this long: while a registered issuer is down or
 * misconfigured, its tokens are refused at once instead of each waiting for the fetch timeout.
 */
export const FAILED_DISCOVERY_RETRY_MS = 10_000;
/** Longer than any discovery document; a longer answer is refused unread. */
const MAX_DISCOVERY_BYTES = 64 * 1024;
const failedDiscoveries = new MemoryCache<Error>({
  ttlMs: FAILED_DISCOVERY_RETRY_MS,
  maxEntries: MAX_CACHED_ISSUERS,
});
/** Discoveries under way, so that simultaneous first tokens of an issuer share one fetch. */
const discoveriesUnderWay = new Map<string, Promise<KeySet>>();

/**
 * The issuer's key set, from its discovery document's `jwks_uri`: cached, shared by the calls
 * that ask at the same time, and a failure remembered for {@link FAILED_DISCOVERY_RETRY_MS}.
 */
async function keySetOf(issuer: string): Promise<KeySet> {
  const cached = keySets.get(issuer);
  if (cached) return cached;
  const failed = failedDiscoveries.get(issuer);
  if (failed) throw failed;
  let underWay = discoveriesUnderWay.get(issuer);
  if (!underWay) {
    underWay = discoverKeySet(issuer).then(
      (keySet) => {
        keySets.set(issuer, keySet);
        return keySet;
      },
      (error: Error) => {
        failedDiscoveries.set(issuer, error);
        throw error;
      },
    );
    discoveriesUnderWay.set(issuer, underWay);
    void underWay.then(
      () => discoveriesUnderWay.delete(issuer),
      () => discoveriesUnderWay.delete(issuer),
    );
  }
  return underWay;
}

async function discoverKeySet(issuer: string): Promise<KeySet> {
  const discoveryUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let document: { issuer?: unknown; jwks_uri?: unknown };
  try {
    const response = await fetch(discoveryUrl, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_DISCOVERY_BYTES) {
      throw new Error('the discovery document is too long');
    }
    const text = await response.text();
    if (text.length > MAX_DISCOVERY_BYTES) throw new Error('the discovery document is too long');
    document = JSON.parse(text) as typeof document;
  } catch (error) {
    throw new ProviderUnreachableError(String(error));
  }
  // OpenID Connect Discovery 1.0 section 4.3: the document must name the very issuer asked for.
  if (document.issuer !== issuer || typeof document.jwks_uri !== 'string') {
    throw new DiscoveryMismatchError('the discovery document names another issuer or no jwks_uri');
  }
  if (untrustedAddress(document.jwks_uri, loopbackHttpAllowed())) {
    throw new DiscoveryMismatchError('the jwks_uri is not trusted');
  }
  return createRemoteJWKSet(new URL(document.jwks_uri), {
    timeoutDuration: FETCH_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
  });
}

/** The refusal a failed verification means. */
function refusalOf(error: unknown): string {
  if (error instanceof ProviderUnreachableError) return PERSON_TOKEN_REFUSALS.providerUnreachable;
  if (error instanceof DiscoveryMismatchError) return PERSON_TOKEN_REFUSALS.discoveryMismatch;
  if (error instanceof errors.JWTExpired) return PERSON_TOKEN_REFUSALS.expired;
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return PERSON_TOKEN_REFUSALS.notYetValid;
    if (error.claim === 'aud') return PERSON_TOKEN_REFUSALS.audience;
    if (error.claim === 'iss') return PERSON_TOKEN_REFUSALS.issuer;
    return PERSON_TOKEN_REFUSALS.claims;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return PERSON_TOKEN_REFUSALS.algorithm;
  if (error instanceof errors.JWKSNoMatchingKey) return PERSON_TOKEN_REFUSALS.unknownKey;
  if (error instanceof errors.JWSSignatureVerificationFailed) return PERSON_TOKEN_REFUSALS.signature;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return PERSON_TOKEN_REFUSALS.providerUnreachable;
  }
  return PERSON_TOKEN_REFUSALS.malformed;
}

/** The roles the token's roles claim grants through the provider's mapping. */
function rolesOf(payload: JWTPayload, provider: IdentityProviderRecord): Role[] {
  const claim = payload[provider.rolesClaim];
  const values = typeof claim === 'string' ? [claim] : Array.isArray(claim) ? claim : [];
  const mapped = values
    .filter((value): value is string => typeof value === 'string')
    .map((value) => (Object.keys(provider.roleMappings).length > 0 ? provider.roleMappings[value] : value));
  return mapped.filter((role): role is Role => role !== undefined && isRole(role));
}

const stringClaim = (payload: JWTPayload, name: string): string | undefined => {
  const value = payload[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/**
 * The principal of a person's token, or why it is refused. A valid token whose roles claim maps
 * to no role yields a principal with no permissions and a `refusal` (403 on every operation),
 * since the token itself is fine.
 */
export async function resolvePersonToken(
  token: string,
  findProvider: (issuer: string) => Promise<IdentityProviderRecord | undefined>,
): Promise<PersonTokenOutcome> {
  if (token.length > MAX_TOKEN_CHARACTERS) return { refusal: PERSON_TOKEN_REFUSALS.malformed };
  let issuer: unknown;
  try {
    // Read before the signature is checked, only to find whose keys check it.
    const { alg } = decodeProtectedHeader(token);
    if (!alg || !PERSON_TOKEN_ALGORITHMS.includes(alg)) return { refusal: PERSON_TOKEN_REFUSALS.algorithm };
    issuer = decodeJwt(token).iss;
  } catch {
    return { refusal: PERSON_TOKEN_REFUSALS.malformed };
  }
  // An issuer no registration could hold is not looked up: an empty or overlong one would make
  // the lookup itself fail (a 500 for anyone who sends such a token, instead of this 401).
  if (typeof issuer !== 'string' || unregistrableIssuer(issuer)) {
    return { refusal: PERSON_TOKEN_REFUSALS.unknownIssuer };
  }
  const provider = await findProvider(issuer);
  if (!provider) return { refusal: PERSON_TOKEN_REFUSALS.unknownIssuer };
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, await keySetOf(provider.issuer), {
      issuer: provider.issuer,
      audience: provider.audience,
      algorithms: PERSON_TOKEN_ALGORITHMS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['sub', 'exp'],
    }));
  } catch (error) {
    return { refusal: refusalOf(error) };
  }
  // An ID token for several audiences names the party it was issued to (OpenID Connect Core
  // 1.0, 3.1.3.7): it must be the registered client, or a token issued to another app of the
  // same provider that happens to list ours would act here.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.audience) {
    return { refusal: PERSON_TOKEN_REFUSALS.audience };
  }
  // jose checks that `sub` is present, not that it is a string (OpenID Connect Core 1.0, 2).
  const subject: unknown = payload.sub;
  if (typeof subject !== 'string' || subject === '' || subject.length > MAX_SUBJECT_CHARACTERS)
    return { refusal: PERSON_TOKEN_REFUSALS.claims };
  const personPrincipal = personPrincipalOf(subject, provider.issuer);
  const displayName = (stringClaim(payload, 'name') ?? stringClaim(payload, 'email'))?.slice(
    0,
    PERFORMED_BY_MAX,
  );
  const role = highestRole(rolesOf(payload, provider));
  const base = { type: 'company', tenantId: provider.companyId, keyId: personPrincipal } as const;
  if (!role) {
    return {
      principal: {
        ...base,
        permissions: new Set(),
        refusal:
          `The token's "${provider.rolesClaim}" claim maps to no role of this company ` +
          `(${ROLE_NAMES.join(', ')}): ask the company's admin for one`,
      },
    };
  }
  return {
    principal: {
      ...base,
      permissions: new Set(ROLES[role].permissions),
      person: { principal: personPrincipal, role, ...(displayName ? { displayName } : {}) },
    },
  };
}
