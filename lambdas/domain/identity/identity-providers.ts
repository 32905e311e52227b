/**
 * Registering a company's OpenID Connect provider: the admin CLI's `add-identity-provider`,
 * `list-identity-providers`, `remove-identity-provider`, and an admin person's
 * `/v2/identity-providers`. Nothing is fetched from the issuer here: its discovery document and
 * keys are read when the first token arrives. Refusals are typed errors, so that the API answers
 * them with 4xx and the CLI prints their message.
 */
import {
  deleteIdentityProvider,
  type IdentityProviderRecord,
  insertIdentityProvider,
  listIdentityProviders,
  MAX_ISSUER_BYTES,
} from '#repositories/identity-provider-repository.js';
import { nowIso } from '#shared/clock.js';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors.js';
import type { Role } from '#shared/roles.js';
import { unregistrableIssuer } from './registrable-issuer.js';
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

/** Refuses an issuer the stack would not trust, or one too long to be looked up, as a field issue. */
function checkIssuer(issuer: string): void {
  const problem = unregistrableIssuer(issuer);
  if (!problem) return;
  const message = `The issuer ${issuer} is not accepted: ${problem}`;
  throw new ValidationError([{ field: 'issuer', code: 'FORMAT_INVALID', message }], message);
}

/**
 * Registers a provider for a company the caller knows exists (an admin person's own); an issuer
 * already registered (for any company) is refused with 409 `ISSUER_ALREADY_REGISTERED`.
 */
export async function registerIdentityProvider(
  provider: NewIdentityProvider,
): Promise<IdentityProviderRecord> {
  checkIssuer(provider.issuer);
  const record: IdentityProviderRecord = {
    issuer: provider.issuer,
    companyId: provider.companyId,
    audience: provider.audience,
    rolesClaim: provider.rolesClaim ?? DEFAULT_ROLES_CLAIM,
    roleMappings: provider.roleMappings ?? {},
    createdAt: nowIso(),
  };
  if (!(await insertIdentityProvider(record))) {
    throw new ConflictError(
      'ISSUER_ALREADY_REGISTERED',
      `The issuer ${provider.issuer} is registered already (an issuer belongs to one company): remove it first`,
    );
  }
  return record;
}

/** Registers a provider for a company named by the operator (the admin CLI): it must exist. */
export async function addIdentityProvider(provider: NewIdentityProvider): Promise<IdentityProviderRecord> {
  checkIssuer(provider.issuer);
  if (!(await tenantExists('company', provider.companyId)))
    throw new Error(`No company ${provider.companyId}`);
  return registerIdentityProvider(provider);
}

export { listIdentityProviders };

/** A provider as the API shows it to its own company: without the company's id. */
export type IdentityProviderView = Omit<IdentityProviderRecord, 'companyId'>;

export const identityProviderView = ({
  companyId: _companyId,
  ...view
}: IdentityProviderRecord): IdentityProviderView => view;

/** Removes a company's provider; its people's tokens are refused from then on. */
export async function removeIdentityProvider(companyId: string, issuer: string): Promise<void> {
  // An issuer too long for a sort key was never registered (and DynamoDB would refuse the key).
  const registrable = Buffer.byteLength(issuer, 'utf8') <= MAX_ISSUER_BYTES;
  if (!registrable || !(await deleteIdentityProvider(issuer, companyId))) {
    throw new NotFoundError(
      'IDENTITY_PROVIDER_NOT_FOUND',
      `Company ${companyId} has no identity provider ${issuer}`,
    );
  }
}
