/**
 * The local gateway must enforce the authorizer's policy as API Gateway does: a request is let
 * through only when an Allow statement's Resource matches the request's method ARN. The
 * authorizer is replaced here by one that allows GET only.
 */
import { freePort } from '../../local/free-port';
import { type LocalGateway, startLocalGateway } from '../../local/local-gateway';

jest.mock('../../lambdas/authorizer/api-key-authorizer', () => {
  // A tenant of its own, so that nothing it writes meets other tests' data.
  const tenantId = jest.requireActual<typeof import('node:crypto')>('node:crypto').randomUUID();
  return {
    handler: async (event: { methodArn: string }) => {
      const [arnAndApiId, stage] = event.methodArn.split('/');
      return {
        principalId: 'key-1',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnAndApiId}/${stage}/GET/*` },
          ],
        },
        context: {
          principalType: 'company',
          tenantId,
          keyId: 'key-1',
          permissions: 'categories:read categories:write',
        },
      };
    },
  };
});

describe('local gateway policy enforcement', () => {
  let gateway: LocalGateway;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startLocalGateway({ port });
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('lets a GET through under an Allow policy for GET/*', async () => {
    // Act
    const response = await fetch(`${url}/v2/categories`, { headers: { 'X-API-Key': 'any' } });
    await response.arrayBuffer();
    // Assess
    expect(response.status).toBe(200);
  });

  it('responds 401 UNAUTHORIZED (the ACCESS_DENIED gateway response) to a POST the policy does not cover', async () => {
    // Act
    const response = await fetch(`${url}/v2/categories`, {
      method: 'POST',
      headers: { 'X-API-Key': 'any', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Not allowed' }),
    });
    const body = await response.json();
    // Assess
    expect(response.status).toBe(401);
    expect(body).toEqual({
      error: 'The credentials were refused',
      code: 'UNAUTHORIZED',
      timestamp: expect.any(String),
    });
  });
});
