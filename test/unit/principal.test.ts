/** The principal the handlers read from the authorizer's context (all values are strings). */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from '../../lambdas/shared/errors';
import { principalFromEvent, toAuthorizerContext } from '../../lambdas/shared/principal';
import { proxyEvent } from '../support/api-events';

/** An event whose authorizer context is exactly `authorizer`. */
function eventWith(authorizer: unknown): APIGatewayProxyEvent {
  const event = proxyEvent({ method: 'GET', path: '/v2/categories' });
  (event.requestContext as { authorizer: unknown }).authorizer = authorizer;
  return event;
}

const companyContext = {
  principalId: 'k1',
  principalType: 'company',
  tenantId: '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f',
  keyId: '0123456789abcdef01234567',
  permissions: 'categories:read categories:write',
};

describe('principalFromEvent', () => {
  it('reads type, tenant, key id and permissions from the context', () => {
    // Act
    const principal = principalFromEvent(eventWith(companyContext));
    // Assess
    expect(principal).toEqual({
      type: 'company',
      tenantId: '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f',
      keyId: '0123456789abcdef01234567',
      permissions: new Set(['categories:read', 'categories:write']),
    });
  });

  it('drops permission names it does not know', () => {
    // Act
    const principal = principalFromEvent(
      eventWith({ ...companyContext, permissions: 'categories:read admin:all  objects:write' }),
    );
    // Assess
    expect([...principal.permissions]).toEqual(['objects:write', 'categories:read']);
  });

  it('gives no permissions when the context has none', () => {
    // Act
    const principal = principalFromEvent(eventWith({ ...companyContext, permissions: undefined }));
    // Assess
    expect(principal.permissions.size).toBe(0);
  });

  it.each([
    ['no authorizer context', null],
    ['an empty context', {}],
    ['no tenant', { ...companyContext, tenantId: '' }],
    ['no key id', { ...companyContext, keyId: undefined }],
    ['an unknown principal type', { ...companyContext, principalType: 'admin' }],
  ])('throws 401 UNAUTHORIZED for %s', (_label, authorizer) => {
    // Act
    let thrown: unknown;
    try {
      principalFromEvent(eventWith(authorizer));
    } catch (error) {
      thrown = error;
    }
    // Assess
    expect(thrown).toBeInstanceOf(UnauthorizedError);
    expect(thrown).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
  });

  it('throws 401 when the event has no request context at all', () => {
    // Prepare
    const event = proxyEvent({ method: 'GET', path: '/v2/categories' });
    (event as { requestContext?: unknown }).requestContext = undefined;
    // Act / Assess
    expect(() => principalFromEvent(event)).toThrow(UnauthorizedError);
  });
});

describe('toAuthorizerContext', () => {
  it('round-trips through principalFromEvent', () => {
    // Prepare
    const principal = {
      type: 'app' as const,
      tenantId: 'a9d7b1f2-1111-4222-8333-944455566677',
      keyId: 'abcdefabcdefabcdefabcdef',
      permissions: new Set(['wallets:read', 'wallets:write'] as const),
    };
    // Act
    const context = toAuthorizerContext(principal);
    const readBack = principalFromEvent(eventWith(context));
    // Assess
    expect(context).toEqual({
      principalType: 'app',
      tenantId: 'a9d7b1f2-1111-4222-8333-944455566677',
      keyId: 'abcdefabcdefabcdefabcdef',
      permissions: 'wallets:read wallets:write',
    });
    expect(readBack).toEqual(principal);
  });
});
