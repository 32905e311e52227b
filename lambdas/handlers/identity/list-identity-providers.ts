import { identityProviderView, listIdentityProviders } from '#domain/identity/identity-providers.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(identityOperations.listIdentityProviders, async ({ principal }) => ({
  body: { data: (await listIdentityProviders(principal.tenantId)).map(identityProviderView) },
}));
