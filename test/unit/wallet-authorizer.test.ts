/**
 * The authorizer with wallet session tokens and its memory cache, offline (DynamoDB mocked):
 * Bearer tokens, the precedence of X-API-Key, and what the cache keeps and for how long.
 */

import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { clearAuthorizerCache, handler } from '../../lambdas/authorizer/api-key-authorizer';
import { generateApiKey, hashApiKey } from '../../lambdas/domain/identity/api-keys';
import { generateSessionToken, hashSessionToken } from '../../lambdas/domain/wallets/wallet-sessions';
import { MemoryCache } from '../../lambdas/shared/memory-cache';
import { AUTHORIZER_MEMORY_CACHE_SECONDS } from '../../lib/api-gateway-settings';
import { refusedFor } from '../support/authorizer-refusals';

const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/GET/v2/wallets';
const APP_ID = '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f';
const WALLET_ID = '0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b';

const authorizerEvent = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
  ({ type: 'REQUEST', methodArn: METHOD_ARN, headers }) as unknown as APIGatewayRequestAuthorizerEvent;

describe('authorizer with wallet session tokens', () => {
  const documentClient = mockClient(DynamoDBDocumentClient);

  function storeSession(token: string) {
    documentClient
      .on(GetCommand, { Key: { pk: `WALLET_SESSION#${hashSessionToken(token)}`, sk: 'SESSION' } })
      .resolves({
        Item: {
          tokenHash: hashSessionToken(token),
          appId: APP_ID,
          walletId: WALLET_ID,
          fullUsername: `scanner@${APP_ID}`,
          sessionVersion: 1,
          createdAt: '2025-01-01T00:00:00.000Z',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
      });
  }

  function storeKey(apiKey: string, keyId: string) {
    documentClient.on(GetCommand, { Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' } }).resolves({
      Item: {
        keyId,
        secretHash: hashApiKey(apiKey),
        principalType: 'app',
        tenantId: APP_ID,
        permissions: ['wallets:read', 'wallets:write'],
        createdAt: '2025-01-01T00:00:00.000Z',
      },
    });
  }

  beforeAll(() => {
    process.env.TABLE_NAME = 'asset-registry-unit';
  });
  beforeEach(() => {
    clearAuthorizerCache();
    documentClient.reset();
    documentClient.on(GetCommand).resolves({});
    documentClient.on(UpdateCommand).resolves({});
  });
  afterEach(() => {
    jest.useRealTimers();
  });
  afterAll(() => {
    documentClient.restore();
  });

  it('allows the whole API for a live session, with the wallet in the context', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token);
    // Act
    const result = await handler(authorizerEvent({ Authorization: `Bearer ${token}` }));
    // Assess
    expect(result.principalId).toBe(WALLET_ID);
    expect(result.policyDocument.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/*',
      },
    ]);
    expect(result.context).toEqual({
      principalType: 'app',
      tenantId: APP_ID,
      keyId: WALLET_ID,
      permissions: 'wallets:read',
      walletId: WALLET_ID,
      walletFullUsername: `scanner@${APP_ID}`,
    });
  });

  it('reads the session once but counts (and checks) every call on the wallet', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token);
    // Act
    for (let call = 0; call < 3; call++) await handler(authorizerEvent({ Authorization: `Bearer ${token}` }));
    // Assess
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(1);
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(3);
  });

  it('lets X-API-Key decide when both headers are sent', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    const token = generateSessionToken();
    storeSession(token);
    // Act
    const result = await handler(authorizerEvent({ 'X-API-Key': apiKey, Authorization: `Bearer ${token}` }));
    // Assess
    expect(result.principalId).toBe(keyId);
    expect(result.context?.walletId).toBeUndefined();
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('denies an invalid X-API-Key even beside a valid Bearer token', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token);
    // Act / Assess
    await expect(
      handler(authorizerEvent({ 'X-API-Key': 'let-me-in', Authorization: `Bearer ${token}` })),
    ).resolves.toEqual(refusedFor('apiKey'));
  });

  it('denies, naming the reason, an unknown token, without counting a call', async () => {
    // Act / Assess
    await expect(
      handler(authorizerEvent({ Authorization: `Bearer ${generateSessionToken()}` })),
    ).resolves.toEqual(refusedFor('walletToken'));
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('denies an Authorization header that is not a Bearer token, naming the expected form', async () => {
    // Act / Assess
    await expect(handler(authorizerEvent({ Authorization: 'Basic dXNlcjpwYXNz' }))).resolves.toEqual(
      refusedFor('authorizationFormat'),
    );
  });

  it(`keeps a resolved API key in memory for ${AUTHORIZER_MEMORY_CACHE_SECONDS} s, then reads it again`, async () => {
    // Prepare
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    // Act
    await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    const readsWhileCached = documentClient.commandCalls(GetCommand).length;
    jest.advanceTimersByTime(AUTHORIZER_MEMORY_CACHE_SECONDS * 1000);
    await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    // Assess
    expect(readsWhileCached).toBe(1);
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('does not cache a refusal: a key issued a moment later works at once', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    await expect(handler(authorizerEvent({ 'X-API-Key': apiKey }))).resolves.toEqual(refusedFor('apiKey'));
    storeKey(apiKey, keyId);
    // Act
    const result = await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    // Assess
    expect(result.principalId).toBe(keyId);
  });

  it('forgets every cached credential on clearAuthorizerCache', async () => {
    // Prepare
    const { keyId, apiKey } = generateApiKey();
    storeKey(apiKey, keyId);
    await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    // Act
    clearAuthorizerCache();
    await handler(authorizerEvent({ 'X-API-Key': apiKey }));
    // Assess
    expect(documentClient.commandCalls(GetCommand)).toHaveLength(2);
  });
});

describe('MemoryCache', () => {
  it('forgets an entry at its time to live', () => {
    // Prepare
    const cache = new MemoryCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('k', 'v', 0);
    // Act / Assess
    expect(cache.get('k', 999)).toBe('v');
    expect(cache.get('k', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry when full', () => {
    // Prepare
    const cache = new MemoryCache<number>({ ttlMs: 1000, maxEntries: 2 });
    // Act
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    // Assess
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 2, 3]);
  });

  it('keeps nothing with a time to live of 0', () => {
    // Prepare
    const cache = new MemoryCache<number>({ ttlMs: 0, maxEntries: 2 });
    // Act
    cache.set('a', 1, 0);
    // Assess
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('loads a missing entry once and keeps it, but keeps no miss', async () => {
    // Prepare
    const cache = new MemoryCache<string>({ ttlMs: 1000, maxEntries: 2 });
    const load = jest.fn(async (found: boolean) => (found ? 'v' : undefined));
    // Act
    const first = await cache.getOrLoad('k', () => load(true));
    const second = await cache.getOrLoad('k', () => load(true));
    const misses = [
      await cache.getOrLoad('gone', () => load(false)),
      await cache.getOrLoad('gone', () => load(false)),
    ];
    // Assess
    expect([first, second, ...misses]).toEqual(['v', 'v', undefined, undefined]);
    expect(load.mock.calls).toEqual([[true], [false], [false]]);
  });
});
