/**
 * The local stack's "Demo company", whose people sign in through the local identity provider:
 * created at the data folder's first start, and the provider's issuer registered for it (as the
 * admin CLI's `add-identity-provider` would), the previous issuer removed when the port changed.
 * Load once the environment names the embedded stack (the domain modules' clients read it).
 */
import {
  addIdentityProvider,
  listIdentityProviders,
  removeIdentityProvider,
} from '../../lambdas/domain/identity/identity-providers.js';
import { createCompany, tenantExists } from '../../lambdas/domain/identity/tenants.js';
import { DEMO_COMPANY_NAME } from './demo-people.js';
import { readDemoRegistration, writeDemoRegistration } from './provider-files.js';

/** Registers the provider's issuer for the demo company (made if missing); answers its id. */
export async function registerDemoCompany(
  dataDirectory: string,
  provider: { issuer: string; clientId: string },
): Promise<string> {
  const last = readDemoRegistration(dataDirectory);
  // A data folder whose database was emptied gets a new demo company.
  const companyId =
    last && (await tenantExists('company', last.companyId))
      ? last.companyId
      : (await createCompany(DEMO_COMPANY_NAME)).tenantId;
  const registered = (await listIdentityProviders(companyId)).map((each) => each.issuer);
  if (
    last &&
    last.companyId === companyId &&
    last.issuer !== provider.issuer &&
    registered.includes(last.issuer)
  ) {
    await removeIdentityProvider(companyId, last.issuer);
  }
  if (!registered.includes(provider.issuer)) {
    // The console's people send their ID token, whose audience is the console's client id.
    await addIdentityProvider({ companyId, issuer: provider.issuer, audience: provider.clientId });
  }
  writeDemoRegistration(dataDirectory, { companyId, issuer: provider.issuer });
  return companyId;
}
