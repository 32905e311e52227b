/**
 * Wallet session tokens: `arw_` and 32 random bytes in base64url (43 characters), shown once at
 * login and stored only as SHA-256. A token works until it expires (1 hour) or until its
 * wallet's session version moves on (password change, inactive, suspended, deleted).
 */
import { createHash, randomBytes } from 'node:crypto';
import { recordApiCall } from '#repositories/wallet-repository.js';
import { findSession, type WalletSessionRecord } from '#repositories/wallet-session-repository.js';
import { type Principal, WALLET_PERMISSIONS } from '#shared/principal.js';

/** How long a session token works after login. */
export const SESSION_LIFETIME_SECONDS = 60 * 60;

export const SESSION_TOKEN_PATTERN = /^arw_[A-Za-z0-9_-]{43}$/;

/** A new random session token. */
export const generateSessionToken = (): string => `arw_${randomBytes(32).toString('base64url')}`;

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/** The `Bearer` token of an `Authorization` header value, or undefined. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
}

/**
 * Resolves a session token to the wallet's principal, and counts the call on the wallet
 * (`apiCallCount`, `lastApiCallAt`). Undefined for a malformed, unknown or expired token, and
 * for a session its wallet ended. `findSessionRecord` lets the authorizer put a memory cache
 * in front of the session lookup: sessions never change, so caching them cannot delay a
 * revocation, which is checked against the wallet on every call.
 *
 * @example
 * const principal = await resolveSessionToken(token); // { type: 'app', tenantId: appId, wallet: {...} }
 */
export async function resolveSessionToken(
  token: string,
  findSessionRecord: (tokenHash: string) => Promise<WalletSessionRecord | undefined> = findSession,
): Promise<Principal | undefined> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return undefined;
  const session = await findSessionRecord(hashSessionToken(token));
  const now = Date.now();
  if (!session || Date.parse(session.expiresAt) <= now) return undefined;
  const stillValid = await recordApiCall(
    session.appId,
    session.walletId,
    session.sessionVersion,
    new Date(now).toISOString(),
  );
  if (!stillValid) return undefined;
  return {
    type: 'app',
    tenantId: session.appId,
    keyId: session.walletId,
    permissions: new Set(WALLET_PERMISSIONS),
    wallet: { id: session.walletId, fullUsername: session.fullUsername },
    // The App's own usage key: each App's wallets count against the App's plan, not a shared one.
    ...(session.usageIdentifierKey ? { usageIdentifierKey: session.usageIdentifierKey } : {}),
  };
}
