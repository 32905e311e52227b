/**
 * Wallet login (`POST /v2/wallets/login`, not shown in the spec; see docs/api-decisions.md) through
 * the handler, against DynamoDB Local: the token, the one 401 for every refusal, and the lock after
 * repeated failures.
 */
import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal } from '../support/principals';

// Every login does one scrypt (about 0.1-0.2 s): the throttling tests make dozens.
jest.setTimeout(30_000);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^arw_[A-Za-z0-9_-]{43}$/;
const PASSWORD = 'first password';

/** A wallet answer: the view the API answers with. */
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
const storedItem = async (appId: string, walletId: string) =>
  (await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: walletKey(appId, walletId) }))).Item;

async function createWalletOk(principal: Principal, username: string): Promise<WalletBody> {
  const response = await invoke(createWalletHandler, {
    method: 'POST',
    path: '/v2/wallets',
    principal,
    body: { username, password: PASSWORD },
  });
  if (response.statusCode !== 201) throw new Error(`create ${username}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Moves the wallet's login lock into the past, as if its time had run out. */
async function expireLock(appId: string, walletId: string): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: walletKey(appId, walletId),
      UpdateExpression: 'SET lockedUntil = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}

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
  it('answers 200 with a token, its expiry one hour ahead, and the wallet with lastLoginAt set', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const before = Date.now();
    // Act
    const response = await login(wallet.fullUsername, PASSWORD);
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
    await login(wallet.fullUsername, PASSWORD);
    await login(wallet.fullUsername, 'wrong password');
    const last = await login(wallet.fullUsername, PASSWORD);
    const readBack = await invoke(getWalletHandler, walletRequest(app, 'GET', wallet.id));
    // Assess
    expect(readBack.body.stats).toEqual({ loginCount: 2, apiCallCount: 0, lastApiCallAt: null });
    expect(readBack.body.lastLoginAt).toBe(last.body.wallet.lastLoginAt);
  });

  it('gives a new token at every login', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    // Act
    const first = await login(wallet.fullUsername, PASSWORD);
    const second = await login(wallet.fullUsername, PASSWORD);
    // Assess
    expect(first.body.token).not.toBe(second.body.token);
  });

  it('finds the username ignoring its case', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'Scanner-01');
    // Act
    const response = await login(`sCANNER-01@${app.tenantId.toUpperCase()}`, PASSWORD);
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
      const response = await login(`${username}@${app.tenantId}`, PASSWORD);
      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body.wallet).toMatchObject({ id: wallet.id, username });
    },
  );

  it('stores only the SHA-256 of the token, in a session item with a TTL attribute', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    // Act
    const response = await login(wallet.fullUsername, PASSWORD);
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
    const withOld = await login(wallet.fullUsername, PASSWORD);
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
    const whileSuspended = await login(wallet.fullUsername, PASSWORD);
    await putWallet(app, wallet.id, { status: 'active' });
    const afterwards = await login(wallet.fullUsername, PASSWORD);
    // Assess
    expect(whileSuspended).toMatchObject(REFUSED);
    expect(afterwards.statusCode).toBe(200);
  });

  it('answers 400 REQUIRED for missing fields (the shape of the request, not the credentials)', async () => {
    // Act
    const response = await invoke(loginHandler, { method: 'POST', path: '/v2/wallets/login', body: {} });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'username', code: 'REQUIRED', message: 'username is required' },
      { field: 'password', code: 'REQUIRED', message: 'password is required' },
    ]);
  });

  it('answers 400 LENGTH_INVALID for a password over 1024 characters, without hashing it', async () => {
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
    ['an unknown username', () => [`nobody@${app.tenantId}`, PASSWORD]],
    ['an unknown App', () => ['known@0f0e0d0c-0b0a-4909-8807-060504030201', PASSWORD]],
    ['the username without its App id', () => ['known', PASSWORD]],
    ['an App id that is no UUID', () => ['known@my-app', PASSWORD]],
    ['an empty username', () => ['', PASSWORD]],
    ['an empty password', () => [wallets.known!.fullUsername, '']],
    ['an inactive wallet with its right password', () => [wallets.inactive!.fullUsername, PASSWORD]],
    ['a suspended wallet with its right password', () => [wallets.suspended!.fullUsername, PASSWORD]],
    ['a deleted wallet with its right password', () => [wallets.deleted!.fullUsername, PASSWORD]],
  ])('answers the same 401 UNAUTHORIZED for %s', async (_label, credentials) => {
    // Prepare
    const [username, password] = credentials();
    // Act
    const response = await login(username, password);
    // Assess
    expect(response).toMatchObject(REFUSED);
    expect(Object.keys(response.body)).toEqual(['error', 'code', 'timestamp']);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' });
  });

  it('answers 401 for a known username of this App presented with another App id', async () => {
    // Prepare
    const other = appPrincipal();
    // Act
    const response = await login(`known@${other.tenantId}`, PASSWORD);
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
    const withOld = await login(old.fullUsername, PASSWORD);
    const withNew = await login(old.fullUsername, 'the new holder');
    // Assess
    expect(withOld).toMatchObject(REFUSED);
    expect(withNew.statusCode).toBe(200);
    expect(withNew.body.wallet.id).not.toBe(old.id);
  });
});

describe('wallet login throttling', () => {
  it('locks logins for 60 s at the 5th failure in a row: even the right password gets the same 401', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    for (let attempt = 1; attempt <= 4; attempt++) await login(wallet.fullUsername, 'wrong password');
    const beforeFifth = Date.now();
    // Act
    const fifth = await login(wallet.fullUsername, 'wrong password');
    const rightPassword = await login(wallet.fullUsername, PASSWORD);
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess
    expect(fifth).toMatchObject(REFUSED);
    expect(rightPassword).toMatchObject(REFUSED);
    expect(item?.failedLoginCount).toBe(5);
    const lockMs = Date.parse(item?.lockedUntil as string) - beforeFifth;
    expect(lockMs).toBeGreaterThanOrEqual(59_000);
    expect(lockMs).toBeLessThanOrEqual(61_000);
  });

  it('lets 4 failures pass without a lock, and a success resets the count', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    for (let attempt = 1; attempt <= 4; attempt++) await login(wallet.fullUsername, 'wrong password');
    // Act
    const success = await login(wallet.fullUsername, PASSWORD);
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess
    expect(success.statusCode).toBe(200);
    expect(item?.failedLoginCount).toBe(0);
    expect(item).not.toHaveProperty('lockedUntil');
  });

  it('accepts the right password once the lock ran out, and resets the count', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    for (let attempt = 1; attempt <= 5; attempt++) await login(wallet.fullUsername, 'wrong password');
    await expireLock(app.tenantId, wallet.id);
    // Act
    const response = await login(wallet.fullUsername, PASSWORD);
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(item?.failedLoginCount).toBe(0);
    expect(item).not.toHaveProperty('lockedUntil');
  });

  it('does not count attempts during a lock, and doubles the lock at the 10th failure', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    for (let attempt = 1; attempt <= 5; attempt++) await login(wallet.fullUsername, 'wrong password');
    await login(wallet.fullUsername, 'wrong password'); // during the lock: not counted
    await expireLock(app.tenantId, wallet.id);
    for (let attempt = 6; attempt <= 9; attempt++) await login(wallet.fullUsername, 'wrong password');
    const beforeTenth = Date.now();
    // Act
    await login(wallet.fullUsername, 'wrong password');
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess
    expect(item?.failedLoginCount).toBe(10);
    const lockMs = Date.parse(item?.lockedUntil as string) - beforeTenth;
    expect(lockMs).toBeGreaterThanOrEqual(119_000);
    expect(lockMs).toBeLessThanOrEqual(121_000);
  });

  it('checks at most 5 of 12 parallel wrong guesses before the lock, and refuses all 12 alike', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    // Act
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => login(wallet.fullUsername, 'wrong password')),
    );
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess
    for (const response of responses) expect(response).toMatchObject(REFUSED);
    // Every checked password was counted first, one by one; the 5th count sets the lock.
    expect(item?.failedLoginCount).toBeGreaterThanOrEqual(1);
    expect(item?.failedLoginCount).toBeLessThanOrEqual(5);
  });

  it('still locks at exactly 5 counted failures when guesses run in parallel', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    // Act: waves of parallel guesses until the lock is set
    let item = await storedItem(app.tenantId, wallet.id);
    for (let wave = 0; wave < 10 && !item?.lockedUntil; wave++) {
      await Promise.all(Array.from({ length: 4 }, () => login(wallet.fullUsername, 'wrong password')));
      item = await storedItem(app.tenantId, wallet.id);
    }
    const rightPassword = await login(wallet.fullUsername, PASSWORD);
    // Assess
    expect(item?.failedLoginCount).toBe(5);
    expect(item?.lockedUntil).toBeDefined();
    expect(rightPassword).toMatchObject(REFUSED);
  });

  it('lifts the lock when the App sets a new password', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    for (let attempt = 1; attempt <= 5; attempt++) await login(wallet.fullUsername, 'wrong password');
    // Act
    await putWallet(app, wallet.id, { password: 'reset by the app' });
    const response = await login(wallet.fullUsername, 'reset by the app');
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('does not lock one wallet because of failures on another', async () => {
    // Prepare
    const app = appPrincipal();
    const attacked = await createWalletOk(app, 'attacked');
    const other = await createWalletOk(app, 'other');
    for (let attempt = 1; attempt <= 5; attempt++) await login(attacked.fullUsername, 'wrong password');
    // Act
    const response = await login(other.fullUsername, PASSWORD);
    // Assess
    expect(response.statusCode).toBe(200);
  });
});

describe('login: taking check marks off is best effort', () => {
  afterEach(() => jest.restoreAllMocks());

  it('still answers the same 401 when the marks cannot be taken off (the table refuses the write)', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'marked');
    const send = dynamoDb.send.bind(dynamoDb);
    let refusedReleases = 0;
    jest.spyOn(dynamoDb, 'send').mockImplementation(((command: { input: { UpdateExpression?: string } }) => {
      if (!command.input.UpdateExpression?.startsWith('DELETE loginChecksInFlight'))
        return send(command as never);
      refusedReleases++;
      return Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    }) as never);
    // Act
    const wrongPassword = await login(wallet.fullUsername, 'wrong password');
    const unknownWallet = await login(`nobody@${app.tenantId}`, PASSWORD);
    // Assess
    expect(refusedReleases).toBe(2);
    expect(wrongPassword).toMatchObject(REFUSED);
    expect(unknownWallet).toMatchObject(REFUSED);
  });
});
