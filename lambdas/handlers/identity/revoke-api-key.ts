import { revokeCompanyKey } from '#domain/identity/company-keys.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(identityOperations.revokeApiKey, async ({ principal, path }) => {
  await revokeCompanyKey(principal.tenantId, path.keyId);
  return {};
});
