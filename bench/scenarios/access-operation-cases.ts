/**
 * The bench cases of the operations that manage a company's access (one per row, as
 * `operation-cases.ts` has for the others): each is called by an admin person of the world's
 * company, as the authorizer would pass one on. Issuers are made up: nothing is fetched from them.
 */
import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../lambdas/domain/identity/api-keys';
import { registerIdentityProvider } from '../../lambdas/domain/identity/identity-providers';
import type { identityOperations } from '../../lambdas/operations/identity';
import type { Principal } from '../../lambdas/shared/principal';
import { ROLES } from '../../lambdas/shared/roles';
import type { MeasuredOperationId } from '../operation-minimums';
import type { Tenant } from '../support/fixtures';
import type { CaseWorld, OperationCaseOf } from './operation-cases';

type AccessCaseKey = Extract<MeasuredOperationId, Exclude<keyof typeof identityOperations, 'getMe'>>;

/** A person with the admin role of the company, as the authorizer resolves one. */
const adminPersonOf = (company: Tenant): Principal => ({
  type: 'company',
  tenantId: company.tenantId,
  keyId: 'user:bench-admin@idp.bench.example',
  permissions: new Set(ROLES.admin.permissions),
  person: { principal: 'user:bench-admin@idp.bench.example', role: 'admin', displayName: 'Bench Admin' },
});

const newIssuer = () => `https://idp-${randomUUID()}.bench.example`;

async function givenProvider(company: Tenant): Promise<string> {
  const issuer = newIssuer();
  await registerIdentityProvider({ companyId: company.tenantId, issuer, audience: 'bench-console' });
  return issuer;
}

export const accessOperationCases: Record<AccessCaseKey, OperationCaseOf> = {
  createApiKey: {
    fixture: 'a labelled key with one permission',
    async prepare({ company }: CaseWorld) {
      return {
        request: () => ({
          principal: adminPersonOf(company),
          body: { permissions: ['objects:read'], label: 'Bench reader' },
        }),
      };
    },
  },
  revokeApiKey: {
    fixture: 'a new key each run (issued untimed)',
    async prepare({ company }: CaseWorld) {
      return {
        request: async () => ({
          principal: adminPersonOf(company),
          pathParameters: {
            keyId: (await issueApiKey('company', company.tenantId, ['objects:read'])).keyId,
          },
        }),
      };
    },
  },
  listIdentityProviders: {
    fixture: 'a company with one provider',
    async prepare({ company }: CaseWorld) {
      await givenProvider(company);
      return { request: () => ({ principal: adminPersonOf(company) }) };
    },
  },
  addIdentityProvider: {
    fixture: 'a new issuer each run',
    async prepare({ company }: CaseWorld) {
      return {
        request: () => ({
          principal: adminPersonOf(company),
          body: { issuer: newIssuer(), audience: 'bench-console', roleMappings: { Admins: 'admin' } },
        }),
      };
    },
  },
  removeIdentityProvider: {
    fixture: 'a new provider each run (registered untimed)',
    async prepare({ company }: CaseWorld) {
      return {
        request: async () => ({
          principal: adminPersonOf(company),
          query: { issuer: await givenProvider(company) },
        }),
      };
    },
  },
};
