import { identityProviderView, registerIdentityProvider } from '#domain/identity/identity-providers.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(identityOperations.addIdentityProvider, async ({ principal, body }) => ({
  body: identityProviderView(await registerIdentityProvider({ ...body, companyId: principal.tenantId })),
}));
