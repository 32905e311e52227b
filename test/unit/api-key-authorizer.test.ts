/**
 * The REQUEST authorizer, offline: the policy resource it allows, and its responses for missing,
 * unknown, revoked and valid keys (DynamoDB mocked with aws-sdk-client-mock).
 */

import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { clearAuthorizerCache, handler, wholeApiArn } from '../../lambdas/authorizer/api-key-authorizer';
import { generateApiKey, hashApiKey } from '../../lambdas/domain/identity/api-keys';
import { generateSessionToken, hashSessionToken } from '../../lambdas/domain/wallets/wallet-sessions';
import { refusedFor } from '../support/authorizer-refusals';

const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/GET/v2/categories';
const WHOLE_API = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/*';

describe('wholeApiArn', () => {
  it('widens a method ARN to every method and path of the stage', () => {
    // Act
    const arn = wholeApiArn(METHOD_ARN);
    // Assess
    expect(arn).toBe(WHOLE_API);
  });

  it('gives the same ARN for a POST on another path, so one cached response fits every route', () => {
    // Act
    const fromGet = wholeApiArn(METHOD_ARN);
    const fromPost = wholeApiArn(
      'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/POST/v2/categories/42/subcategories',
    );
    // Assess
    expect(fromPost).toBe(fromGet);
  });
});

describe('authorizer handler', () => {
  const documentClient = mockClient(DynamoDBDocumentClient);
  const tenantId = '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f';

  const authorizerEvent = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
    ({ type: 'REQUEST', methodArn: METHOD_ARN, headers }) as unknown as APIGatewayRequestAuthorizerEvent;

  /** Stores one key item in the mocked table. */
  function storeKey(apiKey: string, keyId: string, extra: Record<string, unknown> = {}) {
    documentClient.on(GetCommand, { Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' } }).resolves({
      Item: {
        keyId,
        secretHash: hashApiKey(apiKey),
        principalType: 'company',
        tenantId,
        permissions: ['categories:read', 'categories:write'],
        createdAt: '2025-01-01T00:00:00.000Z',
        ...extra,
      },
    });
  }

  beforeAll(() => {
    process.env.TABLE_NAME = 'asset-registry-unit';
  });
  beforeEach(() => {
    // The authorizer keeps resolved keys in memory for a few seconds; each test starts cold.
    clearAuthorizerCache();
    documentClient.reset();
    documentClient.on(GetCommand).resolves({});
  });
  afterAll(() => {
    documentClient.restore();
  });

  it('allows the whole API for a valid key and passes the principal as string context', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    // Act
    const result = await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    // Assess
    expect(result).toEqual({
      principalId: keyId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: WHOLE_API }],
      },
      context: {
        principalType: 'company',
        tenantId,
        keyId,
        permissions: 'categories:read categories:write',
      },
    });
  });

  it("names the key's own usage key for API Gateway's usage plan, else the stack's shared one", async () => {
    // Prepare
    const own = generateApiKey();
    storeKey(own.apiKey, own.keyId, { usageIdentifierKey: 'ark-usage-own' });
    const plain = generateApiKey();
    storeKey(plain.apiKey, plain.keyId);
    process.env.DEFAULT_USAGE_IDENTIFIER_KEY = 'ark-usage-shared';
    // Act
    const withOwn = await handler(authorizerEvent({ 'X-API-Key': own.apiKey }));
    const withShared = await handler(authorizerEvent({ 'X-API-Key': plain.apiKey }));
    delete process.env.DEFAULT_USAGE_IDENTIFIER_KEY;
    // Assess
    expect(withOwn.usageIdentifierKey).toBe('ark-usage-own');
    expect(withShared.usageIdentifierKey).toBe('ark-usage-shared');
    expect(JSON.stringify(withOwn.context)).not.toContain('ark-usage');
  });

  it("names a wallet session's App usage key (copied at login), else the stack's shared one", async () => {
    // Prepare: two sessions, one of an App with its own wallet usage key
    const session = (tokenHash: string, extra: Record<string, unknown>) =>
      documentClient.on(GetCommand, { Key: { pk: `WALLET_SESSION#${tokenHash}`, sk: 'SESSION' } }).resolves({
        Item: {
          tokenHash,
          appId: tenantId,
          walletId: '0f0e0d0c-0b0a-4909-8807-060504030201',
          fullUsername: `scanner@${tenantId}`,
          sessionVersion: 1,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + 3600_000).toISOString(),
          ...extra,
        },
      });
    const ownToken = generateSessionToken();
    const plainToken = generateSessionToken();
    session(hashSessionToken(ownToken), { usageIdentifierKey: 'ark-usage-app' });
    session(hashSessionToken(plainToken), {});
    documentClient.on(UpdateCommand).resolves({});
    process.env.DEFAULT_USAGE_IDENTIFIER_KEY = 'ark-usage-shared';
    // Act
    const withOwn = await handler(authorizerEvent({ Authorization: `Bearer ${ownToken}` }));
    const withShared = await handler(authorizerEvent({ Authorization: `Bearer ${plainToken}` }));
    delete process.env.DEFAULT_USAGE_IDENTIFIER_KEY;
    // Assess
    expect(withOwn.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(withOwn.usageIdentifierKey).toBe('ark-usage-app');
    expect(withShared.usageIdentifierKey).toBe('ark-usage-shared');
    expect(JSON.stringify(withOwn.context)).not.toContain('ark-usage');
  });

  it('reads the header whatever the case of its name', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    // Act
    const result = await handler(authorizerEvent({ 'x-api-key': apiKey }));
    // Assess
    expect(result.principalId).toBe(keyId);
  });

  it('throws "Unauthorized" without any credential (401 Missing credentials), without reading the table', async () => {
    // Act / Assess
    await expect(handler(authorizerEvent({}))).rejects.toThrow(/^Unauthorized$/);
    await expect(handler(authorizerEvent({ 'X-API-Key': '' }))).rejects.toThrow(/^Unauthorized$/);
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('denies, naming the reason, a malformed key, without reading the table', async () => {
    // Act / Assess
    await expect(handler(authorizerEvent({ 'X-API-Key': 'let-me-in' }))).resolves.toEqual(
      refusedFor('apiKey'),
    );
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('denies, naming the reason, a well-formed key that is not stored', async () => {
    // Prepare
    const { apiKey } = generateApiKey();
    // Act / Assess
    await expect(handler(authorizerEvent({ 'X-API-Key': apiKey }))).resolves.toEqual(refusedFor('apiKey'));
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(1);
  });

  it('denies, naming the reason, a stored key id with another secret', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    const forged = `ark_${keyId}_${'A'.repeat(43)}`;
    // Act / Assess
    await expect(handler(authorizerEvent({ 'X-API-Key': forged }))).resolves.toEqual(refusedFor('apiKey'));
  });

  it('denies, naming the reason, a revoked key', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId, { revokedAt: '2025-02-01T00:00:00.000Z' });
    // Act / Assess
    await expect(handler(authorizerEvent({ 'X-API-Key': apiKey }))).resolves.toEqual(refusedFor('apiKey'));
  });
});
