/** Wallet session tokens: format, hashing, the Bearer header, and resolving a session (table mocked). */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import {
  bearerTokenOf,
  generateSessionToken,
  hashSessionToken,
  resolveSessionToken,
  SESSION_LIFETIME_SECONDS,
  SESSION_TOKEN_PATTERN,
} from '../../lambdas/domain/wallets/wallet-sessions';

describe('session tokens', () => {
  it('read arw_ and 43 base64url characters (32 random bytes)', () => {
    // Act
    const token = generateSessionToken();
    // Assess
    expect(token).toMatch(/^arw_[A-Za-z0-9_-]{43}$/);
    expect(SESSION_TOKEN_PATTERN.test(token)).toBe(true);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
  });

  it('are never the same twice', () => {
    // Act
    const tokens = new Set(Array.from({ length: 1000 }, generateSessionToken));
    // Assess
    expect(tokens.size).toBe(1000);
  });

  it('are told apart from API keys by their prefix', () => {
    // Assess
    expect(SESSION_TOKEN_PATTERN.test(`ark_${'0'.repeat(24)}_${'a'.repeat(43)}`)).toBe(false);
  });

  it('are stored as their SHA-256 in hex', () => {
    // Act
    const hash = hashSessionToken('abc');
    // Assess: the FIPS 180-2 test vector
    expect(hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('live one hour', () => {
    // Assess
    expect(SESSION_LIFETIME_SECONDS).toBe(3600);
  });
});

describe('bearerTokenOf', () => {
  it.each([
    ['Bearer arw_abc', 'arw_abc'],
    ['bearer arw_abc', 'arw_abc'],
    ['BEARER  arw_abc ', 'arw_abc'],
  ])('reads the token of %j', (header, token) => {
    // Act / Assess
    expect(bearerTokenOf(header)).toBe(token);
  });

  it.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Basic abc'], ['Bearer a b'], ['arw_abc']])(
    'finds no token in %j',
    (header) => {
      // Act / Assess
      expect(bearerTokenOf(header)).toBeUndefined();
    },
  );
});

describe('resolveSessionToken', () => {
  const documentClient = mockClient(DynamoDBDocumentClient);
  const appId = '7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f';
  const walletId = '0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b';

  function storeSession(token: string, expiresAt: string) {
    documentClient
      .on(GetCommand, { Key: { pk: `WALLET_SESSION#${hashSessionToken(token)}`, sk: 'SESSION' } })
      .resolves({
        Item: {
          tokenHash: hashSessionToken(token),
          appId,
          walletId,
          fullUsername: `scanner@${appId}`,
          sessionVersion: 3,
          createdAt: '2025-01-01T00:00:00.000Z',
          expiresAt,
        },
      });
  }

  beforeAll(() => {
    process.env.TABLE_NAME = 'asset-registry-unit';
  });
  beforeEach(() => {
    documentClient.reset();
    documentClient.on(GetCommand).resolves({});
    documentClient.on(UpdateCommand).resolves({});
  });
  afterAll(() => {
    documentClient.restore();
  });

  it('gives the wallet principal of a live session and counts the call on the wallet, checking its session version', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token, new Date(Date.now() + 60_000).toISOString());
    // Act
    const principal = await resolveSessionToken(token);
    // Assess
    expect(principal).toEqual({
      type: 'app',
      tenantId: appId,
      keyId: walletId,
      permissions: new Set(['wallets:read']),
      wallet: { id: walletId, fullUsername: `scanner@${appId}` },
    });
    const [update] = documentClient.commandCalls(UpdateCommand);
    expect(update?.args[0].input).toMatchObject({
      Key: { pk: `T#${appId}#WALLET#${walletId}`, sk: 'WALLET' },
      UpdateExpression: 'SET lastApiCallAt = :now ADD apiCallCount :one',
      ExpressionAttributeValues: { ':active': 'active', ':sessionVersion': 3, ':one': 1 },
    });
  });

  it('refuses a malformed token without reading the table', async () => {
    // Act / Assess
    await expect(resolveSessionToken('arw_short')).resolves.toBeUndefined();
    expect(documentClient.calls()).toHaveLength(0);
  });

  it('refuses an expired session without counting a call', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token, new Date(Date.now() - 1).toISOString());
    // Act / Assess
    await expect(resolveSessionToken(token)).resolves.toBeUndefined();
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('refuses a session its wallet ended (the conditional count fails)', async () => {
    // Prepare
    const token = generateSessionToken();
    storeSession(token, new Date(Date.now() + 60_000).toISOString());
    documentClient
      .on(UpdateCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    // Act / Assess
    await expect(resolveSessionToken(token)).resolves.toBeUndefined();
  });

  it('refuses an unknown token', async () => {
    // Act / Assess
    await expect(resolveSessionToken(generateSessionToken())).resolves.toBeUndefined();
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
