/**
 * An admin person manages the company's access through the API (docs/people-sign-in.md,
 * "Managing keys and providers through the API"): issues a key and uses it, revokes it (then
 * the authorizer refuses it), registers a second identity provider whose people then sign in,
 * and removes it. An editor and an API key are refused each of those operations. Each function
 * runs bundled, with its own role (so a DynamoDB action missing from a row's `access` fails here).
 */
import { randomUUID } from 'node:crypto';
import { handler as authorizer } from '../../lambdas/authorizer/api-key-authorizer';
import { handler as addIdentityProvider } from '../../lambdas/handlers/identity/add-identity-provider';
import { handler as createApiKey } from '../../lambdas/handlers/identity/create-api-key';
import { handler as getMe } from '../../lambdas/handlers/identity/get-me';
import { handler as listIdentityProviders } from '../../lambdas/handlers/identity/list-identity-providers';
import { handler as removeIdentityProvider } from '../../lambdas/handlers/identity/remove-identity-provider';
import { handler as revokeApiKey } from '../../lambdas/handlers/identity/revoke-api-key';
import { ACCESS_MANAGEMENT_REFUSAL } from '../../lambdas/http/http-handler';
import { operations } from '../../lambdas/operations';
import { type Principal, principalFromEvent } from '../../lambdas/shared/principal';
import { AUTHORIZER_MEMORY_CACHE_SECONDS } from '../../lib/api-gateway-settings';
import { type EventOptions, invoke } from '../support/api-events';
import { personPrincipalOf, registerTestProvider } from '../support/person-principals';
import { companyPrincipal } from '../support/principals';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/test-identity-provider';

jest.setTimeout(120_000);

const COMPANY_ID = randomUUID();
const METHOD_ARN = 'arn:aws:execute-api:us-east-1:000000000000:api/test/GET/v2/me';
const AUDIENCE = 'asset-registry-console';

let provider: TestIdentityProvider;
let secondProvider: TestIdentityProvider;
let unregisterProvider: () => Promise<void>;
let admin: Principal;
let editor: Principal;

/** What the authorizer makes of a credential header: the principal, or 401 when it refuses it. */
async function authorize(headers: Record<string, string>): Promise<Principal | 401> {
  const result = await authorizer({ type: 'REQUEST', methodArn: METHOD_ARN, headers } as never);
  if (result.policyDocument.Statement[0]?.Effect !== 'Allow') return 401;
  return principalFromEvent({ requestContext: { authorizer: result.context } } as never);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The requests of the five operations, each as a caller would send it. */
const requests: ReadonlyArray<[string, typeof createApiKey, (principal: Principal) => EventOptions]> = [
  [
    'createApiKey',
    createApiKey,
    (principal) => ({ method: 'POST', path: '/v2/keys', principal, body: { permissions: [] } }),
  ],
  [
    'revokeApiKey',
    revokeApiKey,
    (principal) => ({
      method: 'DELETE',
      path: '/v2/keys/0123456789abcdef01234567',
      pathParameters: { keyId: '0123456789abcdef01234567' },
      principal,
    }),
  ],
  [
    'listIdentityProviders',
    listIdentityProviders,
    (principal) => ({ method: 'GET', path: '/v2/identity-providers', principal }),
  ],
  [
    'addIdentityProvider',
    addIdentityProvider,
    (principal) => ({
      method: 'POST',
      path: '/v2/identity-providers',
      principal,
      body: { issuer: `https://idp-${randomUUID()}.example`, audience: AUDIENCE },
    }),
  ],
  [
    'removeIdentityProvider',
    removeIdentityProvider,
    (principal) => ({
      method: 'DELETE',
      path: '/v2/identity-providers',
      principal,
      query: { issuer: provider.issuer },
    }),
  ],
];

beforeAll(async () => {
  [provider, secondProvider] = await Promise.all([startTestIdentityProvider(), startTestIdentityProvider()]);
  unregisterProvider = await registerTestProvider(provider, COMPANY_ID);
  [admin, editor] = await Promise.all([
    personPrincipalOf(provider, { roles: ['admin'], name: 'Ada Admin' }),
    personPrincipalOf(provider, { roles: ['editor'] }),
  ]);
});

afterAll(async () => {
  await unregisterProvider?.();
  await Promise.all([provider?.close(), secondProvider?.close()]);
});

describe("an admin person managing the company's keys", () => {
  it('issues a key that works at once, and revokes it: the authorizer then refuses it', async () => {
    // Prepare
    const created = await invoke(createApiKey, {
      method: 'POST',
      path: '/v2/keys',
      principal: admin,
      body: { permissions: ['categories:read', 'categories:read'], label: '  Scanner 3  ' },
    });
    const keyHolder = await authorize({ 'X-API-Key': created.body.apiKey });
    const me =
      keyHolder === 401
        ? undefined
        : await invoke(getMe, { method: 'GET', path: '/v2/me', principal: keyHolder });
    // Act
    const revoked = await invoke(revokeApiKey, {
      method: 'DELETE',
      path: `/v2/keys/${created.body.keyId}`,
      pathParameters: { keyId: created.body.keyId },
      principal: admin,
    });
    // A warm authorizer keeps a resolved key this long (docs/people-sign-in.md says so).
    await sleep(AUTHORIZER_MEMORY_CACHE_SECONDS * 1000 + 500);
    const afterRevocation = await authorize({ 'X-API-Key': created.body.apiKey });
    // Assess
    expect(created.statusCode).toBe(201);
    expect(created.headers['Cache-Control']).toBe('no-store');
    expect(created.body).toEqual({
      keyId: expect.stringMatching(/^[0-9a-f]{24}$/),
      apiKey: expect.stringMatching(new RegExp(`^ark_${created.body.keyId}_`)),
      label: 'Scanner 3',
      permissions: ['categories:read'],
    });
    expect(keyHolder).toMatchObject({ type: 'company', tenantId: COMPANY_ID, keyId: created.body.keyId });
    expect(me?.body).toMatchObject({ label: 'Scanner 3', permissions: ['categories:read'] });
    expect(revoked.statusCode).toBe(204);
    expect(afterRevocation).toBe(401);
  });

  it("answers 404 API_KEY_NOT_FOUND for another company's key, and leaves it working", async () => {
    // Prepare
    const otherCompanyKey = await invoke(createApiKey, {
      method: 'POST',
      path: '/v2/keys',
      principal: { ...admin, tenantId: randomUUID() },
      body: { permissions: ['objects:read'] },
    });
    // Act
    const refused = await invoke(revokeApiKey, {
      method: 'DELETE',
      path: `/v2/keys/${otherCompanyKey.body.keyId}`,
      pathParameters: { keyId: otherCompanyKey.body.keyId },
      principal: admin,
    });
    const stillWorks = await authorize({ 'X-API-Key': otherCompanyKey.body.apiKey });
    // Assess
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    expect(stillWorks).toMatchObject({ type: 'company', keyId: otherCompanyKey.body.keyId });
  });

  it("refuses an App's permission in a key of the company with 400", async () => {
    // Act
    const refused = await invoke(createApiKey, {
      method: 'POST',
      path: '/v2/keys',
      principal: admin,
      body: { permissions: ['wallets:write'] },
    });
    // Assess
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      validationErrors: [expect.objectContaining({ field: 'permissions[0]', code: 'ENUM_INVALID' })],
    });
  });
});

describe("an admin person managing the company's identity providers", () => {
  it('registers a second provider whose people then sign in, lists both, and removes it', async () => {
    // Prepare
    const body = { issuer: secondProvider.issuer, audience: AUDIENCE, roleMappings: { Auditors: 'auditor' } };
    // Act
    const added = await invoke(addIdentityProvider, {
      method: 'POST',
      path: '/v2/identity-providers',
      principal: admin,
      body,
    });
    const again = await invoke(addIdentityProvider, {
      method: 'POST',
      path: '/v2/identity-providers',
      principal: admin,
      body,
    });
    const auditor = await personPrincipalOf(secondProvider, { roles: ['Auditors'] });
    const listed = await invoke(listIdentityProviders, {
      method: 'GET',
      path: '/v2/identity-providers',
      principal: admin,
    });
    const removal = {
      method: 'DELETE',
      path: '/v2/identity-providers',
      principal: admin,
      query: { issuer: secondProvider.issuer },
    };
    const removed = await invoke(removeIdentityProvider, removal);
    const removedAgain = await invoke(removeIdentityProvider, removal);
    // Assess
    expect(added.statusCode).toBe(201);
    expect(added.body).toEqual({
      issuer: secondProvider.issuer,
      audience: AUDIENCE,
      rolesClaim: 'roles',
      roleMappings: { Auditors: 'auditor' },
      createdAt: expect.any(String),
    });
    expect(again.statusCode).toBe(409);
    expect(again.body).toMatchObject({ code: 'ISSUER_ALREADY_REGISTERED' });
    expect(auditor).toMatchObject({
      tenantId: COMPANY_ID,
      person: expect.objectContaining({ role: 'auditor' }),
    });
    expect(listed.body.data.map((each: { issuer: string }) => each.issuer).sort()).toEqual(
      [provider.issuer, secondProvider.issuer].sort(),
    );
    expect(removed.statusCode).toBe(204);
    expect(removedAgain.statusCode).toBe(404);
    expect(removedAgain.body).toMatchObject({ code: 'IDENTITY_PROVIDER_NOT_FOUND' });
  });

  it('refuses an issuer the stack does not trust with 400 on the field issuer', async () => {
    // Act
    const refused = await invoke(addIdentityProvider, {
      method: 'POST',
      path: '/v2/identity-providers',
      principal: admin,
      body: { issuer: 'http://idp.example.com', audience: AUDIENCE },
    });
    // Assess
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      validationErrors: [
        { field: 'issuer', code: 'FORMAT_INVALID', message: expect.stringContaining('it must use https') },
      ],
    });
  });
});

describe("who else asks to manage the company's access", () => {
  it.each(requests)(
    '%s: an editor and an API key with every permission get 403',
    async (id, handler, request) => {
      // Prepare
      const row = operations[id as keyof typeof operations];
      // Act
      const responses = [
        await invoke(handler, request(editor)),
        await invoke(handler, request(companyPrincipal(undefined, COMPANY_ID))),
      ];
      // Assess
      expect(row).toMatchObject({ accessManagement: true });
      for (const response of responses) {
        expect(response.statusCode).toBe(403);
        expect(response.body).toEqual({
          error: ACCESS_MANAGEMENT_REFUSAL,
          code: 'COMPANY_ACCESS_DENIED',
          timestamp: expect.any(String),
        });
      }
    },
  );
});
