/**
 * A company's API keys as an admin person manages them (`POST /v2/keys`, `DELETE
 * /v2/keys/{keyId}`): the same keys as the admin CLI's `create-key` and `revoke-key`, limited to
 * the caller's company and to a company's permissions.
 */
import { findApiKey } from '#repositories/identity-repository.js';
import { NotFoundError } from '#shared/errors.js';
import type { Permission } from '#shared/principal.js';
import { issueApiKey, revokeApiKey } from './api-keys.js';

export interface IssuedCompanyKey {
  keyId: string;
  /** The key itself: shown in this response only, never again. */
  apiKey: string;
  label: string | null;
  permissions: Permission[];
}

/**
 * Issues a key of the company with these permissions (each once, in the order given) and an
 * optional label (trimmed; blank: none). It starts on the stack's shared usage plan
 * (`set-plan` of the admin CLI moves it).
 */
export async function issueCompanyKey(
  companyId: string,
  request: { permissions: readonly Permission[]; label?: string },
): Promise<IssuedCompanyKey> {
  const permissions = [...new Set(request.permissions)];
  const label = request.label?.trim() || undefined;
  const { keyId, apiKey } = await issueApiKey('company', companyId, permissions, label);
  return { keyId, apiKey, label: label ?? null, permissions };
}

/**
 * Revokes a key of the company; another company's key, an App's, or an unknown id is 404
 * `API_KEY_NOT_FOUND` (the same answer, so that no id of another tenant is confirmed). Revoking
 * a revoked key again succeeds and keeps the first time.
 */
export async function revokeCompanyKey(companyId: string, keyId: string): Promise<void> {
  const record = await findApiKey(keyId);
  if (record?.principalType !== 'company' || record.tenantId !== companyId) {
    throw new NotFoundError('API_KEY_NOT_FOUND', `No API key ${keyId} in this company`);
  }
  await revokeApiKey(keyId);
}
