/**
 * Rows of the operation table (`lambdas/operations.ts`): the caller's own identity, and the
 * company's access (its API keys and identity providers), which only an admin person manages
 * (extension).
 */
import {
  addIdentityProviderBody,
  apiKeyIdPath,
  createApiKeyBody,
  identityProviderQuery,
} from '#domain/identity/access-schemas.js';
import { companyOperation, type Operation, withIds } from '../operation-row.js';

/**
 * Who may manage the company's access: a person whose role `managesAccess` (admin), never a
 * key. The row's `permission` is required by its type: `webhooks:write` is the one permission
 * only the admin role holds, so the docs' "needs" names no role below admin.
 */
const accessManagement = {
  ...companyOperation,
  accessManagement: true,
  permission: 'webhooks:write',
} as const;

export const identityOperations = withIds({
  getMe: {
    ...companyOperation,
    // Every caller may ask who it is: a company's key, an App's, or a wallet's session.
    anyKey: true,
    method: 'GET',
    path: '/v2/me',
    handler: 'identity/get-me',
    // The caller comes from the authorizer's context; only its tenant's key labels are read.
    access: { table: ['Query'] },
    summary: "The caller: its kind (company, App or wallet), id, permissions and key's label (extension)",
    permission: 'objects:read',
    successStatus: 200,
  },
  createApiKey: {
    ...accessManagement,
    method: 'POST',
    path: '/v2/keys',
    handler: 'identity/create-api-key',
    // The key item, and its label's item when it has a label (one transaction of two Puts).
    access: { table: ['PutItem'] },
    summary: 'Issue an API key of the company; the response shows the key, once (extension)',
    body: createApiKeyBody,
    // Not idempotent: the idempotency record would keep the response, and so the key, in clear.
    responseHasCredential: true,
    successStatus: 201,
  },
  revokeApiKey: {
    ...accessManagement,
    method: 'DELETE',
    path: '/v2/keys/{keyId}',
    handler: 'identity/revoke-api-key',
    // Reads the key's tenant, then marks it revoked.
    access: { table: ['GetItem', 'UpdateItem'] },
    summary: 'Revoke an API key of the company (extension)',
    pathParameters: apiKeyIdPath,
    successStatus: 204,
  },
  listIdentityProviders: {
    ...accessManagement,
    method: 'GET',
    path: '/v2/identity-providers',
    handler: 'identity/list-identity-providers',
    access: { table: ['Query'] },
    summary: "List the company's OpenID Connect providers (extension)",
    successStatus: 200,
  },
  addIdentityProvider: {
    ...accessManagement,
    method: 'POST',
    path: '/v2/identity-providers',
    handler: 'identity/add-identity-provider',
    access: { table: ['PutItem'] },
    summary:
      "Register an OpenID Connect provider for the company: its people's tokens are accepted (extension)",
    body: addIdentityProviderBody,
    successStatus: 201,
  },
  removeIdentityProvider: {
    ...accessManagement,
    method: 'DELETE',
    path: '/v2/identity-providers',
    handler: 'identity/remove-identity-provider',
    access: { table: ['DeleteItem'] },
    summary:
      "Remove one of the company's OpenID Connect providers: its people's tokens are refused (extension)",
    query: identityProviderQuery,
    successStatus: 204,
  },
} as const satisfies Record<string, Operation>);
