/**
 * Wallet login (`POST /v2/wallets/login`, not shown in the spec; see docs/api-decisions.md) through
 * the handler, against DynamoDB Local: the token and the one 401 for every refusal. The throttle
 * of repeated failures is `wallets-login-throttle.test.ts`.
 */
import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal } from '../support/principals';
import { createWalletOk, WALLET_PASSWORD } from '../support/wallet-requests';

// Every login does one scrypt (about 0.1-0.2 s).
jest.setTimeout(30_000);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^arw_[A-Za-z0-9_-]{43}$/;

/** A wallet response: the view the API responds with. */
type WalletBody = WalletView;

const login = (username: unknown, password: unknown) =>
  invoke(loginHandler, { method: 'POST', path: '/v2/wallets/login', body: { username, password } });
const walletRequest = (principal: Principal, method: string, walletId: string, body?: unknown) => ({
  method,
  path: `/v2/wallets/${walletId}`,
  resource: '/v2/wallets/{walletId}',
  principal,
  pathParameters: { walletId },
  body,
});
const putWallet = (principal: Principal, walletId: string, body: unknown) =>
  invoke(updateWalletHandler, walletRequest(principal, 'PUT', walletId, body));

/** The 401 every refused login gets, the same whatever the reason. */
const REFUSED = {
  statusCode: 401,
  body: {
    error: 'Invalid username or password',
    code: 'UNAUTHORIZED',
    timestamp: expect.stringMatching(ISO_UTC),
  },
};

describe('wallet login', () => {
  it('responds 200 with a token, its expiry one hour ahead, and the wallet with lastLoginAt set', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const before = Date.now();
    // Act
    const response = await login(wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers['Cache-Control']).toBe('no-store');
    expect(Object.keys(response.body)).toEqual(['token', 'expiresAt', 'wallet']);
    expect(response.body.token).toMatch(TOKEN);
    const lifetimeMs = Date.parse(response.body.expiresAt) - before;
    expect(lifetimeMs).toBeGreaterThanOrEqual(3600_000);
    expect(lifetimeMs).toBeLessThan(3600_000 + 10_000);
    expect(response.body.wallet).toEqual({
      ...wallet,
      lastLoginAt: expect.stringMatching(ISO_UTC),
    });
  });

  it('counts logins exactly and keeps lastLoginAt in the wallet', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    // Act
    await login(wallet.fullUsername, WALLET_PASSWORD);
    await login(wallet.fullUsername, 'wrong password');
    const last = await login(wallet.fullUsername, WALLET_PASSWORD);
    const readBack = await invoke(getWalletHandler, walletRequest(app, 'GET', wallet.id));
    // Assess
    expect(readBack.body.stats).toEqual({ loginCount: 2, apiCallCount: 0, lastApiCallAt: null });
    expect(readBack.body.lastLoginAt).toBe(last.body.wallet.lastLoginAt);
  });

  it('gives a new token at every login', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    // Act
    const first = await login(wallet.fullUsername, WALLET_PASSWORD);
    const second = await login(wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(first.body.token).not.toBe(second.body.token);
  });

  it('finds the username ignoring its case', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'Scanner-01');
    // Act
    const response = await login(`sCANNER-01@${app.tenantId.toUpperCase()}`, WALLET_PASSWORD);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.wallet.id).toBe(wallet.id);
  });

  it.each([
    ['30 emoji', '😀'.repeat(30)],
    ['24 ASCII letters and 26 emoji (50 characters, 76 UTF-16 units)', `${'a'.repeat(24)}${'🦊'.repeat(26)}`],
  ])(
    'logs in a wallet whose username is %s: lengths count characters (code points)',
    async (_label, username) => {
      // Prepare
      const app = appPrincipal();
      const wallet = await createWalletOk(app, username);
      // Act
      const response = await login(`${username}@${app.tenantId}`, WALLET_PASSWORD);
      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body.wallet).toMatchObject({ id: wallet.id, username });
    },
  );

  it('stores only the SHA-256 of the token, in a session item with a TTL attribute', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    // Act
    const response = await login(wallet.fullUsername, WALLET_PASSWORD);
    const tokenHash = createHash('sha256').update(response.body.token).digest('hex');
    const { Item } = await dynamoDb.send(
      new GetCommand({ TableName: tableName(), Key: { pk: `WALLET_SESSION#${tokenHash}`, sk: 'SESSION' } }),
    );
    // Assess
    expect(Item).toMatchObject({
      walletId: wallet.id,
      fullUsername: wallet.fullUsername,
      sessionVersion: 1,
      expiresAt: response.body.expiresAt,
      ttl: Math.ceil(Date.parse(response.body.expiresAt) / 1000),
    });
    expect(JSON.stringify(Item)).not.toContain(response.body.token);
  });

  it('works with the new password after a change, and no longer with the old one', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    // Act
    await putWallet(app, wallet.id, { password: 'second password' });
    const withOld = await login(wallet.fullUsername, WALLET_PASSWORD);
    const withNew = await login(wallet.fullUsername, 'second password');
    // Assess
    expect(withOld).toMatchObject(REFUSED);
    expect(withNew.statusCode).toBe(200);
  });

  it('works again once a suspended wallet is active again', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    await putWallet(app, wallet.id, { status: 'suspended' });
    // Act
    const whileSuspended = await login(wallet.fullUsername, WALLET_PASSWORD);
    await putWallet(app, wallet.id, { status: 'active' });
    const afterwards = await login(wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(whileSuspended).toMatchObject(REFUSED);
    expect(afterwards.statusCode).toBe(200);
  });

  it('responds 400 REQUIRED for missing fields (the shape of the request, not the credentials)', async () => {
    // Act
    const response = await invoke(loginHandler, { method: 'POST', path: '/v2/wallets/login', body: {} });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'username', code: 'REQUIRED', message: 'username is required' },
      { field: 'password', code: 'REQUIRED', message: 'password is required' },
    ]);
  });

  it('responds 400 LENGTH_INVALID for a password over 1024 characters, without hashing it', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    // Act
    const response = await login(wallet.fullUsername, 'p'.repeat(1025));
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors[0]).toMatchObject({ field: 'password', code: 'LENGTH_INVALID' });
  });
});

describe('wallet login refusals: one 401 for every reason', () => {
  let app: Principal;
  const wallets: Record<string, WalletBody> = {};

  beforeAll(async () => {
    app = appPrincipal();
    for (const name of ['known', 'inactive', 'suspended', 'deleted'])
      wallets[name] = await createWalletOk(app, name);
    await putWallet(app, wallets.inactive!.id, { status: 'inactive' });
    await putWallet(app, wallets.suspended!.id, { status: 'suspended' });
    await invoke(deleteWalletHandler, walletRequest(app, 'DELETE', wallets.deleted!.id));
  });

  it.each([
    ['a wrong password', () => [wallets.known!.fullUsername, 'wrong password']],
    ['an unknown username', () => [`nobody@${app.tenantId}`, WALLET_PASSWORD]],
    ['an unknown App', () => ['known@0f0e0d0c-0b0a-4909-8807-060504030201', WALLET_PASSWORD]],
    ['the username without its App id', () => ['known', WALLET_PASSWORD]],
    ['an App id that is no UUID', () => ['known@my-app', WALLET_PASSWORD]],
    ['an empty username', () => ['', WALLET_PASSWORD]],
    ['an empty password', () => [wallets.known!.fullUsername, '']],
    ['an inactive wallet with its right password', () => [wallets.inactive!.fullUsername, WALLET_PASSWORD]],
    ['a suspended wallet with its right password', () => [wallets.suspended!.fullUsername, WALLET_PASSWORD]],
    ['a deleted wallet with its right password', () => [wallets.deleted!.fullUsername, WALLET_PASSWORD]],
  ])('returns the same 401 UNAUTHORIZED for %s', async (_label, credentials) => {
    // Prepare
    const [username, password] = credentials();
    // Act
    const response = await login(username, password);
    // Assess
    expect(response).toMatchObject(REFUSED);
    expect(Object.keys(response.body)).toEqual(['error', 'code', 'timestamp']);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' });
  });

  it('responds 401 for a known username of this App presented with another App id', async () => {
    // Prepare
    const other = appPrincipal();
    // Act
    const response = await login(`known@${other.tenantId}`, WALLET_PASSWORD);
    // Assess
    expect(response).toMatchObject(REFUSED);
  });

  it('refuses a deleted wallet even when a new wallet took its username, with the old password', async () => {
    // Prepare
    const fresh = appPrincipal();
    const old = await createWalletOk(fresh, 'recycled');
    await invoke(deleteWalletHandler, walletRequest(fresh, 'DELETE', old.id));
    await invoke(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: fresh,
      body: { username: 'recycled', password: 'the new holder' },
    });
    // Act
    const withOld = await login(old.fullUsername, WALLET_PASSWORD);
    const withNew = await login(old.fullUsername, 'the new holder');
    // Assess
    expect(withOld).toMatchObject(REFUSED);
    expect(withNew.statusCode).toBe(200);
    expect(withNew.body.wallet.id).not.toBe(old.id);
  });
});

describe('login: clearing the throttle count after a success is best effort', () => {
  afterEach(() => jest.restoreAllMocks());

  it('still returns the 200 when the table refuses to clear the count', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    const send = dynamoDb.send.bind(dynamoDb);
    let refusedClears = 0;
    jest.spyOn(dynamoDb, 'send').mockImplementation(((command: { input: { UpdateExpression?: string } }) => {
      if (
        !(
          command instanceof UpdateCommand &&
          command.input.UpdateExpression?.startsWith('SET attempts = :zero')
        )
      )
        return send(command as never);
      refusedClears++;
      return Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    }) as never);
    // Act
    const response = await login(wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(refusedClears).toBe(1);
    expect(response.statusCode).toBe(200);
  });
});
