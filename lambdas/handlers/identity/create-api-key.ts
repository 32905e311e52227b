import { issueCompanyKey } from '#domain/identity/company-keys.js';
import { httpHandler } from '#http/http-handler.js';
import { identityOperations } from '../../operations/identity.js';

export const handler = httpHandler(identityOperations.createApiKey, async ({ principal, body }) => ({
  body: await issueCompanyKey(principal.tenantId, body),
}));
