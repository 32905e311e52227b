/** `GET /v2/me`: the caller told from its principal (a company's key, an App's, a wallet's session, a person). */
import { callerOf } from '../../lambdas/domain/identity/caller';
import type { Principal } from '../../lambdas/shared/principal';

const COMPANY_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const KEY_ID = 'a'.repeat(24);

describe('callerOf', () => {
  it("answers a company key's kind, company, label and permissions in the catalogue's order", () => {
    // Prepare
    const principal: Principal = {
      type: 'company',
      tenantId: COMPANY_ID,
      keyId: KEY_ID,
      keyLabel: 'Auditor',
      permissions: new Set(['files:read', 'objects:read']),
    };
    // Act
    const caller = callerOf(principal, [{ keyId: KEY_ID, label: 'Auditor' }]);
    // Assess
    expect(caller).toEqual({
      kind: 'company',
      id: COMPANY_ID,
      appId: null,
      keyId: KEY_ID,
      label: 'Auditor',
      permissions: ['objects:read', 'files:read'],
      keyLabels: [{ keyId: KEY_ID, label: 'Auditor' }],
      person: null,
    });
  });

  it('answers a wallet as a wallet of its App, with no key', () => {
    // Prepare
    const principal: Principal = {
      type: 'app',
      tenantId: COMPANY_ID,
      keyId: 'wallet-1',
      permissions: new Set(['wallets:read']),
      wallet: { id: 'wallet-1', fullUsername: `scanner@${COMPANY_ID}` },
    };
    // Act
    const caller = callerOf(principal, []);
    // Assess
    expect(caller).toEqual({
      kind: 'wallet',
      id: 'wallet-1',
      appId: COMPANY_ID,
      keyId: null,
      label: null,
      permissions: ['wallets:read'],
      keyLabels: [],
      person: null,
    });
  });

  it("answers a person as a person of their company, with the role's permissions and no key", () => {
    // Prepare
    const personPrincipal = 'user:ada@idp.example.com';
    const principal: Principal = {
      type: 'company',
      tenantId: COMPANY_ID,
      keyId: personPrincipal,
      permissions: new Set(['objects:read', 'categories:read']),
      person: { principal: personPrincipal, role: 'viewer', displayName: 'Ada Lovelace' },
    };
    // Act
    const caller = callerOf(principal, [{ keyId: KEY_ID, label: 'Auditor' }]);
    // Assess
    expect(caller).toEqual({
      kind: 'person',
      id: COMPANY_ID,
      appId: null,
      keyId: null,
      label: null,
      permissions: ['objects:read', 'categories:read'],
      keyLabels: [{ keyId: KEY_ID, label: 'Auditor' }],
      person: { principal: personPrincipal, role: 'viewer', name: 'Ada Lovelace' },
    });
  });
});
