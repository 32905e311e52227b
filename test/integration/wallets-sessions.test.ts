/**
 * Using the API as a wallet: `Authorization: Bearer <token>` through the real authorizer, then
 * the wallet handlers with the context it returns, against DynamoDB Local. Sessions end at once
 * on delete, suspension, inactivation and password change; the stats stay exact.
 */
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as authorizer, clearAuthorizerCache } from '../../lambdas/authorizer/api-key-authorizer';
import { issueApiKey } from '../../lambdas/domain/identity/api-keys';
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { APP_PERMISSIONS, actorOf, type Principal, principalFromEvent } from '../../lambdas/shared/principal';
import { type EventOptions, invoke, lambdaContext, proxyEvent } from '../support/api-events';
import { appPrincipal } from '../support/principals';

jest.setTimeout(30_000);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'first password';
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:a1b2c3d4e5/prod/GET/v2/wallets';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** A wallet response: the view the API responds with. */
type WalletBody = WalletView;

const walletRequest = (method: string, walletId: string, body?: unknown): EventOptions => ({
  method,
  path: `/v2/wallets/${walletId}`,
  resource: '/v2/wallets/{walletId}',
  pathParameters: { walletId },
  body,
});

/**
 * One request as API Gateway makes it: the authorizer on the request's headers (a refusal is
 * the gateway's 401), then the handler with the authorizer's context.
 */
async function callWithHeaders(handler: Handler, headers: Record<string, string>, options: EventOptions) {
  let authorization: Awaited<ReturnType<typeof authorizer>>;
  try {
    authorization = await authorizer({ type: 'REQUEST', methodArn: METHOD_ARN, headers } as never);
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized')
      return { statusCode: 401, body: undefined };
    throw error;
  }
  const event = proxyEvent({ ...options, headers });
  (event.requestContext as { authorizer: unknown }).authorizer = {
    principalId: authorization.principalId,
    ...authorization.context,
  };
  const result = await handler(event, lambdaContext);
  return { statusCode: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
}

const asWallet = (token: string, handler: Handler, options: EventOptions) =>
  callWithHeaders(handler, { Authorization: `Bearer ${token}` }, options);

const asApp = (app: Principal, handler: Handler, options: EventOptions) =>
  invoke(handler, { ...options, principal: app });

async function createWalletOk(app: Principal, username: string): Promise<WalletBody> {
  const response = await asApp(app, createWalletHandler, {
    method: 'POST',
    path: '/v2/wallets',
    body: { username, password: PASSWORD },
  });
  if (response.statusCode !== 201) throw new Error(`create ${username}: ${JSON.stringify(response.body)}`);
  return response.body;
}

async function loginOk(fullUsername: string, password = PASSWORD): Promise<string> {
  const response = await invoke(loginHandler, {
    method: 'POST',
    path: '/v2/wallets/login',
    body: { username: fullUsername, password },
  });
  if (response.statusCode !== 200) throw new Error(`login ${fullUsername}: ${JSON.stringify(response.body)}`);
  return response.body.token;
}

/** An App with its wallet, logged in. */
async function loggedInWallet(username = 'scanner') {
  const app = appPrincipal();
  const wallet = await createWalletOk(app, username);
  const token = await loginOk(wallet.fullUsername);
  return { app, wallet, token };
}

describe('a wallet calling with its session token', () => {
  it('reads its own wallet: 200, with stats counting this very call', async () => {
    // Prepare
    const { wallet, token } = await loggedInWallet();
    // Act
    const response = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatchObject({
      id: wallet.id,
      lastLoginAt: expect.stringMatching(ISO_UTC),
      stats: { loginCount: 1, apiCallCount: 1, lastApiCallAt: expect.stringMatching(ISO_UTC) },
    });
  });

  it('keeps apiCallCount and loginCount exact over several calls and logins', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    const secondToken = await loginOk(wallet.fullUsername);
    // Act
    for (let call = 0; call < 3; call++)
      await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    await Promise.all(
      Array.from({ length: 4 }, () =>
        asWallet(secondToken, listWalletsHandler, { method: 'GET', path: '/v2/wallets' }),
      ),
    );
    const seenByApp = await asApp(app, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(seenByApp.body.stats).toEqual({
      loginCount: 2,
      apiCallCount: 7,
      lastApiCallAt: expect.stringMatching(ISO_UTC),
    });
    expect(seenByApp.body.stats.lastApiCallAt >= seenByApp.body.lastLoginAt).toBe(true);
  });

  it('sees only itself: another wallet of its App is 404, and the list holds only its own record', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet('first');
    const sibling = await createWalletOk(app, 'second');
    // Act
    const other = await asWallet(token, getWalletHandler, walletRequest('GET', sibling.id));
    const listed = await asWallet(token, listWalletsHandler, {
      method: 'GET',
      path: '/v2/wallets',
      query: { status: 'all' },
    });
    const filteredOut = await asWallet(token, listWalletsHandler, {
      method: 'GET',
      path: '/v2/wallets',
      query: { username: 'second' },
    });
    // Assess
    expect(other.statusCode).toBe(404);
    expect(other.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(listed.body.data.map((item: WalletBody) => item.id)).toEqual([wallet.id]);
    expect(listed.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 1,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
    expect(filteredOut.body.pagination.total).toBe(0);
  });

  it.each([
    [
      'create a wallet',
      createWalletHandler,
      { method: 'POST', path: '/v2/wallets', body: { username: 'x-1', password: PASSWORD } },
    ],
    ['update itself', updateWalletHandler, 'PUT'],
    ['delete itself', deleteWalletHandler, 'DELETE'],
  ] as const)(
    'may not %s: 403 APP_ACCESS_DENIED (wallets act with wallets:read only)',
    async (_label, handler, request) => {
      // Prepare
      const { app, wallet, token } = await loggedInWallet();
      const options: EventOptions =
        typeof request === 'string'
          ? walletRequest(request, wallet.id, { status: 'active' })
          : { ...request };
      // Act
      const response = await asWallet(token, handler, options);
      const readBack = await asApp(app, getWalletHandler, walletRequest('GET', wallet.id));
      // Assess
      expect(response.statusCode).toBe(403);
      expect(response.body).toMatchObject({
        code: 'APP_ACCESS_DENIED',
        error: 'The API key lacks the permission wallets:write',
      });
      expect(readBack.statusCode).toBe(200);
    },
  );

  it('cannot reach a wallet of another App, even one with the same username', async () => {
    // Prepare
    const { token } = await loggedInWallet('same-name');
    const otherApp = appPrincipal();
    const foreign = await createWalletOk(otherApp, 'same-name');
    // Act
    const response = await asWallet(token, getWalletHandler, walletRequest('GET', foreign.id));
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('is named wallet:<fullUsername> as the actor of what it does', async () => {
    // Prepare
    const { wallet, token } = await loggedInWallet();
    let actor = '';
    const recordingHandler: Handler = async (event) => {
      actor = actorOf(principalFromEvent(event));
      return { statusCode: 204, body: '' };
    };
    // Act
    await asWallet(token, recordingHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(actor).toBe(`wallet:${wallet.fullUsername}`);
  });
});

describe('the end of sessions', () => {
  afterEach(() => {
    // Each test below also passes with a warm memory cache; this keeps them independent.
    clearAuthorizerCache();
  });

  it.each([
    [
      'the wallet is deleted',
      (app: Principal, id: string) => asApp(app, deleteWalletHandler, walletRequest('DELETE', id)),
    ],
    [
      'the wallet is suspended',
      (app: Principal, id: string) =>
        asApp(app, updateWalletHandler, walletRequest('PUT', id, { status: 'suspended' })),
    ],
    [
      'the wallet is made inactive',
      (app: Principal, id: string) =>
        asApp(app, updateWalletHandler, walletRequest('PUT', id, { status: 'inactive' })),
    ],
    [
      'the password changes',
      (app: Principal, id: string) =>
        asApp(app, updateWalletHandler, walletRequest('PUT', id, { password: 'second password' })),
    ],
  ])('refuses the token (401) at the very next call once %s', async (_label, change) => {
    // Prepare: a session that works and whose session the authorizer now has in memory
    const { app, wallet, token } = await loggedInWallet();
    const before = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    // Act
    await change(app, wallet.id);
    const after = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(before.statusCode).toBe(200);
    expect(after.statusCode).toBe(401);
  });

  it('ends every session of the wallet, not only the latest', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    const secondToken = await loginOk(wallet.fullUsername);
    // Act
    await asApp(app, updateWalletHandler, walletRequest('PUT', wallet.id, { password: 'second password' }));
    const first = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    const second = await asWallet(secondToken, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect([first.statusCode, second.statusCode]).toEqual([401, 401]);
  });

  it('does not bring an ended session back when the wallet is made active again; a new login works', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    await asApp(app, updateWalletHandler, walletRequest('PUT', wallet.id, { status: 'suspended' }));
    // Act
    await asApp(app, updateWalletHandler, walletRequest('PUT', wallet.id, { status: 'active' }));
    const oldSession = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    const newSession = await asWallet(
      await loginOk(wallet.fullUsername),
      getWalletHandler,
      walletRequest('GET', wallet.id),
    );
    // Assess
    expect(oldSession.statusCode).toBe(401);
    expect(newSession.statusCode).toBe(200);
  });

  it('keeps the session through a metadata change', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    // Act
    await asApp(app, updateWalletHandler, walletRequest('PUT', wallet.id, { metadata: { note: 'moved' } }));
    const response = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('refuses an expired session', async () => {
    // Prepare
    const { wallet, token } = await loggedInWallet();
    const tokenHash = createHash('sha256').update(token).digest('hex');
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `WALLET_SESSION#${tokenHash}`, sk: 'SESSION' },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    // Act
    const response = await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(response.statusCode).toBe(401);
  });

  it('does not count refused calls', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    await asApp(app, updateWalletHandler, walletRequest('PUT', wallet.id, { status: 'inactive' }));
    // Act
    await asWallet(token, getWalletHandler, walletRequest('GET', wallet.id));
    const seenByApp = await asApp(app, getWalletHandler, walletRequest('GET', wallet.id));
    // Assess
    expect(seenByApp.body.stats.apiCallCount).toBe(1);
  });
});

describe('credentials the authorizer refuses or prefers', () => {
  it.each([
    ['a token of the wrong format', 'Bearer let-me-in'],
    ['a well-formed token never issued', `Bearer arw_${'A'.repeat(43)}`],
    ['another scheme', 'Basic c2Nhbm5lcjpwYXNzd29yZA=='],
    ['an empty Bearer', 'Bearer '],
  ])('responds 401 for %s', async (_label, header) => {
    // Act
    const response = await callWithHeaders(
      getWalletHandler,
      { Authorization: header },
      walletRequest('GET', 'x'),
    );
    // Assess
    expect(response.statusCode).toBe(401);
  });

  it('accepts the scheme name in any case', async () => {
    // Prepare
    const { wallet, token } = await loggedInWallet();
    // Act
    const response = await callWithHeaders(
      getWalletHandler,
      { authorization: `bearer ${token}` },
      walletRequest('GET', wallet.id),
    );
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('uses X-API-Key when both credentials are sent', async () => {
    // Prepare
    const { app, wallet, token } = await loggedInWallet();
    const { apiKey } = await issueApiKey('app', app.tenantId, APP_PERMISSIONS);
    // Act
    const response = await callWithHeaders(
      updateWalletHandler,
      { 'X-API-Key': apiKey, Authorization: `Bearer ${token}` },
      walletRequest('PUT', wallet.id, { metadata: { by: 'app' } }),
    );
    // Assess: the App key may write, the wallet may not
    expect(response.statusCode).toBe(200);
  });

  it('does not take an API key as a Bearer token', async () => {
    // Prepare
    const app = appPrincipal();
    const { apiKey } = await issueApiKey('app', app.tenantId, APP_PERMISSIONS);
    // Act
    const response = await callWithHeaders(
      listWalletsHandler,
      { Authorization: `Bearer ${apiKey}` },
      { method: 'GET', path: '/v2/wallets' },
    );
    // Assess
    expect(response.statusCode).toBe(401);
  });
});
