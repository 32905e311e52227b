/** Companies and Apps: the tenants that own data, each created with a first, all-permission key. */
import { randomUUID } from 'node:crypto';
import { findTenant, insertTenant } from '#repositories/identity-repository.js';
import { nowIso } from '#shared/clock.js';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS, type PrincipalType } from '#shared/principal.js';
import { issueApiKey } from './api-keys.js';

async function createTenant(
  type: PrincipalType,
  name: string,
): Promise<{ tenantId: string; keyId: string; apiKey: string }> {
  const tenantId = randomUUID();
  await insertTenant({ id: tenantId, type, name, createdAt: nowIso() });
  const key = await issueApiKey(type, tenantId, type === 'company' ? COMPANY_PERMISSIONS : APP_PERMISSIONS);
  return { tenantId, ...key };
}

/** A company and a key with every company permission. */
export const createCompany = (name: string) => createTenant('company', name);
/** An App and a key with every wallet permission. */
export const createApp = (name: string) => createTenant('app', name);

export async function tenantExists(type: PrincipalType, tenantId: string): Promise<boolean> {
  return (await findTenant(type, tenantId)) !== undefined;
}
