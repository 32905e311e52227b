/**
 * Registering a company's OpenID Connect provider (the admin CLI's `add-identity-provider`,
 * `list-identity-providers`, `remove-identity-provider`). Nothing is fetched from the issuer
 * here: its discovery document and keys are read when the first token arrives.
 */
import {
  deleteIdentityProvider,
  type IdentityProviderRecord,
  insertIdentityProvider,
  listIdentityProviders,
} from '#repositories/identity-provider-repository.js';
import { nowIso } from '#shared/clock.js';
import type { Role } from '#shared/roles.js';
import { loopbackHttpAllowed, untrustedAddress } from './issuer-urls.js';
import { tenantExists } from './tenants.js';

/** The claim read for roles when `--roles-claim` is not given. */
const DEFAULT_ROLES_CLAIM = 'roles';

export interface NewIdentityProvider {
  companyId: string;
  issuer: string;
  audience: string;
  rolesClaim?: string;
  roleMappings?: Record<string, Role>;
}

/** Registers a provider for a company; an issuer already registered (for any company) is refused. */
export async function addIdentityProvider(provider: NewIdentityProvider): Promise<IdentityProviderRecord> {
  const problem = untrustedAddress(provider.issuer, loopbackHttpAllowed());
  if (problem) throw new Error(`The issuer ${provider.issuer} is not accepted: ${problem}`);
  if (!(await tenantExists('company', provider.companyId)))
    throw new Error(`No company ${provider.companyId}`);
  const record: IdentityProviderRecord = {
    issuer: provider.issuer,
    companyId: provider.companyId,
    audience: provider.audience,
    rolesClaim: provider.rolesClaim ?? DEFAULT_ROLES_CLAIM,
    roleMappings: provider.roleMappings ?? {},
    createdAt: nowIso(),
  };
  if (!(await insertIdentityProvider(record))) {
    throw new Error(
      `The issuer ${provider.issuer} is registered already (an issuer belongs to one company): remove it first`,
    );
  }
  return record;
}

export { listIdentityProviders };

/** Removes a company's provider; its people's tokens are refused from then on. */
export async function removeIdentityProvider(companyId: string, issuer: string): Promise<void> {
  if (!(await deleteIdentityProvider(issuer, companyId))) {
    throw new Error(`Company ${companyId} has no identity provider ${issuer}`);
  }
}
