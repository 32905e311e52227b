/**
 * People's principals for handler tests, as the real authorizer resolves them: a test OpenID
 * provider (`test-identity-provider.ts`) registered for a company in the table, its tokens sent
 * through the authorizer's handler, and the context it returns read back as the handlers read it.
 */
import { randomUUID } from 'node:crypto';
import { handler as authorizer } from '../../lambdas/authorizer/api-key-authorizer';
import {
  deleteIdentityProvider,
  insertIdentityProvider,
} from '../../lambdas/repositories/identity-provider-repository';
import { type Principal, principalFromEvent } from '../../lambdas/shared/principal';
import { TEST_PROVIDER_AUDIENCE, type TestClaims, type TestIdentityProvider } from './test-identity-provider';

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:000000000000:api/test/GET/v2/me';

/**
 * Registers the provider for the company, straight in the table (the company need not exist as
 * a tenant, and the issuer is plain http on loopback); resolves with what removes it again.
 */
export async function registerTestProvider(
  provider: TestIdentityProvider,
  companyId: string,
): Promise<() => Promise<void>> {
  const inserted = await insertIdentityProvider({
    issuer: provider.issuer,
    companyId,
    audience: TEST_PROVIDER_AUDIENCE,
    rolesClaim: 'roles',
    roleMappings: {},
    createdAt: new Date().toISOString(),
  });
  if (!inserted) throw new Error(`${provider.issuer} is registered already`);
  return async () => {
    await deleteIdentityProvider(provider.issuer, companyId);
  };
}

/** The principal the authorizer makes of a token of the registered provider with these claims. */
export async function personPrincipalOf(
  provider: TestIdentityProvider,
  claims: TestClaims,
): Promise<Principal> {
  const token = await provider.mintTestToken({
    claims: { aud: TEST_PROVIDER_AUDIENCE, sub: `person-${randomUUID()}`, ...claims },
  });
  const result = await authorizer({
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    headers: { Authorization: `Bearer ${token}` },
  } as never);
  if (result.policyDocument.Statement[0]?.Effect !== 'Allow') {
    throw new Error(`the authorizer refused the token: ${JSON.stringify(result.context)}`);
  }
  return principalFromEvent({ requestContext: { authorizer: result.context } } as never);
}
