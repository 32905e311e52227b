/**
 * Wallet login under parallel attempts on one wallet, through the handler, against DynamoDB
 * Local: correct passwords all get in and are all counted; wrong ones still end in the lock,
 * with no more passwords checked than the throttle allows.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { verifyPassword } from '../../lambdas/domain/wallets/password-hash';
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal } from '../support/principals';

// Counts the passwords checked against a wallet's hash; the checks themselves are the real ones.
jest.mock('../../lambdas/domain/wallets/password-hash', () => {
  const actual = jest.requireActual('../../lambdas/domain/wallets/password-hash');
  return { ...actual, verifyPassword: jest.fn(actual.verifyPassword) };
});

// Every login does one scrypt (about 0.1-0.2 s), and parallel ones share this process's threads.
jest.setTimeout(60_000);

const PASSWORD = 'first password';

/** A wallet answer: the view the API answers with. */
type WalletBody = WalletView;

const login = (username: string, password: string) =>
  invoke(loginHandler, { method: 'POST', path: '/v2/wallets/login', body: { username, password } });
const parallelLogins = (count: number, username: string, password: string) =>
  Promise.all(Array.from({ length: count }, () => login(username, password)));
const storedItem = async (appId: string, walletId: string) =>
  (await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: walletKey(appId, walletId) }))).Item;
const loginCountOf = async (app: Principal, walletId: string): Promise<number> => {
  const response = await invoke(getWalletHandler, {
    method: 'GET',
    path: `/v2/wallets/${walletId}`,
    resource: '/v2/wallets/{walletId}',
    principal: app,
    pathParameters: { walletId },
  });
  return response.body.stats.loginCount;
};
/** Passwords checked against this stored hash since the mock was last cleared. */
const checksAgainst = (passwordHash: unknown) =>
  jest.mocked(verifyPassword).mock.calls.filter(([, stored]) => stored === passwordHash).length;

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

const REFUSED = { statusCode: 401, body: { error: 'Invalid username or password', code: 'UNAUTHORIZED' } };

beforeEach(() => {
  jest.mocked(verifyPassword).mockClear();
});

describe('parallel wallet logins', () => {
  it.each([10, 16])(
    'lets %i parallel logins with the right password all in, and counts each',
    async (count) => {
      // Prepare
      const app = appPrincipal();
      const wallet = await createWalletOk(app, 'scanner');
      await login(wallet.fullUsername, PASSWORD);
      const loginCountBefore = await loginCountOf(app, wallet.id);
      // Act
      const responses = await parallelLogins(count, wallet.fullUsername, PASSWORD);
      const item = await storedItem(app.tenantId, wallet.id);
      // Assess
      expect(responses.map((response) => response.statusCode)).toEqual(Array(count).fill(200));
      expect(new Set(responses.map((response) => response.body.token)).size).toBe(count);
      expect(await loginCountOf(app, wallet.id)).toBe(loginCountBefore + count);
      expect(item?.failedLoginCount).toBe(0);
      expect(item).not.toHaveProperty('lockedUntil');
      expect(item).not.toHaveProperty('loginChecksInFlight');
    },
  );

  it('locks at the 5th of 10 parallel wrong guesses, checks only those 5, and refuses all 10 alike', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const passwordHash = (await storedItem(app.tenantId, wallet.id))?.passwordHash;
    // Act
    const responses = await parallelLogins(10, wallet.fullUsername, 'wrong password');
    const item = await storedItem(app.tenantId, wallet.id);
    const rightPassword = await login(wallet.fullUsername, PASSWORD);
    // Assess
    for (const response of responses) expect(response).toMatchObject(REFUSED);
    expect(checksAgainst(passwordHash)).toBe(5);
    expect(item?.failedLoginCount).toBe(5);
    expect(Date.parse(item?.lockedUntil as string)).toBeGreaterThan(Date.now() + 50_000);
    expect(item).not.toHaveProperty('loginChecksInFlight');
    expect(rightPassword).toMatchObject(REFUSED);
    expect(checksAgainst(passwordHash)).toBe(5);
  });

  it('does not wait for the mark of an attempt that died during a lock, and clears it', async () => {
    // Prepare: a lock, and the mark of a check that started a minute ago and never ended
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const deadMark = `${new Date(Date.now() - 60_000).toISOString()}#0f0e0d0c-0b0a-4909-8807-060504030201`;
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKey(app.tenantId, wallet.id),
        UpdateExpression: 'SET failedLoginCount = :five, lockedUntil = :later, loginChecksInFlight = :marks',
        ExpressionAttributeValues: {
          ':five': 5,
          ':later': new Date(Date.now() + 60_000).toISOString(),
          ':marks': new Set([deadMark]),
        },
      }),
    );
    // Act
    const started = Date.now();
    const response = await login(wallet.fullUsername, PASSWORD);
    const elapsedMs = Date.now() - started;
    const item = await storedItem(app.tenantId, wallet.id);
    // Assess: refused after one check's time, far below the 10 s an attempt may wait
    expect(response).toMatchObject(REFUSED);
    expect(elapsedMs).toBeLessThan(5_000);
    expect(item).not.toHaveProperty('loginChecksInFlight');
    expect(item?.failedLoginCount).toBe(5);
  });

  it('lets the right password in alongside parallel wrong guesses while the count allows it', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const passwordHash = (await storedItem(app.tenantId, wallet.id))?.passwordHash;
    // Act: 3 wrong guesses and 1 right password at once (4 counted at most: no lock)
    const [right, ...wrong] = await Promise.all([
      login(wallet.fullUsername, PASSWORD),
      ...Array.from({ length: 3 }, () => login(wallet.fullUsername, 'wrong password')),
    ]);
    // Assess
    expect(right?.statusCode).toBe(200);
    for (const response of wrong) expect(response).toMatchObject(REFUSED);
    expect(checksAgainst(passwordHash)).toBe(4);
    expect(await loginCountOf(app, wallet.id)).toBe(1);
  });
});
