/**
 * The local gateway's routing rule "literal segments win over `{parameter}` segments", as API
 * Gateway does, checked on a stand-in operation table (the real one may not hold such a pair).
 */
import { matchRoute } from '../../local/route-matcher';

jest.mock('../../lambdas/operations', () => {
  const row = (id: string, method: string, path: string) => ({
    id,
    method,
    path,
    handler: `stand-in/${id}`,
    summary: id,
    principal: 'app',
    permission: 'wallets:read',
    deniedCode: 'ACCESS_DENIED',
    successStatus: 200,
  });
  // The parameter route comes first, so a first-match router would pick it.
  return {
    operationList: [
      row('getWallet', 'GET', '/v2/wallets/{walletId}'),
      row('walletLogin', 'GET', '/v2/wallets/login'),
      row('getSubcategory', 'GET', '/api/v2/object/{categoryId}/{subcategoryId}'),
      row('subcategoryObjects', 'GET', '/api/v2/object/{categoryId}/objects'),
    ],
  };
});

describe('matchRoute precedence', () => {
  it('prefers the literal /v2/wallets/login over /v2/wallets/{walletId}', () => {
    // Act
    const match = matchRoute('GET', '/v2/wallets/login');
    // Assess
    expect(match?.operation.id).toBe('walletLogin');
    expect(match?.pathParameters).toEqual({});
  });

  it('still routes any other value to the parameter route', () => {
    // Act
    const match = matchRoute('GET', '/v2/wallets/w-17');
    // Assess
    expect(match?.operation.id).toBe('getWallet');
    expect(match?.pathParameters).toEqual({ walletId: 'w-17' });
  });

  it('prefers the route with more literal segments at any depth', () => {
    // Act
    const literal = matchRoute('GET', '/api/v2/object/c-1/objects');
    const parameter = matchRoute('GET', '/api/v2/object/c-1/s-2');
    // Assess
    expect(literal?.operation.id).toBe('subcategoryObjects');
    expect(literal?.pathParameters).toEqual({ categoryId: 'c-1' });
    expect(parameter?.operation.id).toBe('getSubcategory');
    expect(parameter?.pathParameters).toEqual({ categoryId: 'c-1', subcategoryId: 's-2' });
  });
});
