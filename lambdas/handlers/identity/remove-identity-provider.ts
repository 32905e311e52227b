import { removeIdentityProvider } from '#domain/identity/identity-providers.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(
  identityOperations.removeIdentityProvider,
  async ({ principal, query }) => {
    await removeIdentityProvider(principal.tenantId, query.issuer);
    return {};
  },
);
