/**
 * API keys: random secrets shown once, stored as SHA-256 only. A key reads
 * `ark_<keyId>_<secret>`: the key id (not secret) finds the stored hash with one GetItem,
 * and the hash of the whole key must match it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findApiKey, insertApiKey, markApiKeyRevoked } from '#repositories/identity-repository.js';
import { nowIso } from '#shared/clock.js';
import type { Permission, Principal, PrincipalType } from '#shared/principal.js';
import { API_KEY_PATTERN } from './api-key-format.js';

export const hashApiKey = (apiKey: string): string =>
  createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** The key id inside a well-formed key, or undefined. */
export function keyIdOf(apiKey: string): string | undefined {
  return API_KEY_PATTERN.exec(apiKey)?.[1];
}

/** A new random key (24 hex digits of id, 256 bits of secret). */
export function generateApiKey(): { keyId: string; apiKey: string } {
  const keyId = randomBytes(12).toString('hex');
  return { keyId, apiKey: `ark_${keyId}_${randomBytes(32).toString('base64url')}` };
}

/**
 * Issues a key for a company or an App. The key is returned here once and never again. The
 * optional label (who holds the key; not secret) is stored with it and travels with its principal.
 *
 * @example
 * const { keyId, apiKey } = await issueApiKey('company', companyId, ['objects:read'], 'Auditor');
 */
export async function issueApiKey(
  principalType: PrincipalType,
  tenantId: string,
  permissions: readonly Permission[],
  label?: string,
): Promise<{ keyId: string; apiKey: string }> {
  const { keyId, apiKey } = generateApiKey();
  await insertApiKey({
    keyId,
    secretHash: hashApiKey(apiKey),
    principalType,
    tenantId,
    permissions: [...permissions],
    createdAt: nowIso(),
    ...(label ? { label } : {}),
  });
  return { keyId, apiKey };
}

/** The principal of a valid, unrevoked key; undefined for anything else. */
export async function resolveApiKey(apiKey: string): Promise<Principal | undefined> {
  const keyId = keyIdOf(apiKey);
  if (!keyId) return undefined;
  const record = await findApiKey(keyId);
  if (!record || record.revokedAt) return undefined;
  const expected = Buffer.from(record.secretHash, 'hex');
  const actual = Buffer.from(hashApiKey(apiKey), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  return {
    type: record.principalType,
    tenantId: record.tenantId,
    keyId: record.keyId,
    permissions: new Set(record.permissions),
    usageIdentifierKey: record.usageIdentifierKey,
    ...(record.label ? { keyLabel: record.label } : {}),
  };
}

/** Revokes a key; false when no key has that id. */
export async function revokeApiKey(keyId: string): Promise<boolean> {
  return markApiKeyRevoked(keyId, nowIso());
}
