/**
 * Wallet login under parallel attempts on one wallet, through the handler, against DynamoDB
 * Local: correct passwords from many addresses all get in and are all counted; parallel wrong
 * guesses from one address are counted one by one, so no more passwords are checked than the
 * throttle allows, and the right password from another address still gets in.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { verifyPassword } from '../../lambdas/domain/wallets/password-hash';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke, lambdaContext, proxyEvent } from '../support/api-events';
import { appPrincipal } from '../support/principals';
import { createWalletOk, WALLET_PASSWORD } from '../support/wallet-requests';

// Counts the passwords checked against a wallet's hash; the checks themselves are the real ones.
jest.mock('../../lambdas/domain/wallets/password-hash', () => {
  const actual = jest.requireActual('../../lambdas/domain/wallets/password-hash');
  return { ...actual, verifyPassword: jest.fn(actual.verifyPassword) };
});

// Every login does one scrypt (about 0.1-0.2 s), and parallel ones share this process's threads.
jest.setTimeout(60_000);

/** A login as API Gateway passes it on: the caller's address in `requestContext.identity`. */
async function loginFrom(sourceIp: string, username: string, password: string) {
  const event = proxyEvent({ method: 'POST', path: '/v2/wallets/login', body: { username, password } });
  (event.requestContext as { identity: unknown }).identity = { sourceIp };
  const result = await loginHandler(event, lambdaContext);
  return { statusCode: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}
const login = (username: string, password: string) => loginFrom('198.51.100.1', username, password);
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

const REFUSED = { statusCode: 401, body: { error: 'Invalid username or password', code: 'UNAUTHORIZED' } };

beforeEach(() => {
  jest.mocked(verifyPassword).mockClear();
});

describe('parallel wallet logins', () => {
  it.each([10, 16])(
    'lets %i parallel logins with the right password from as many addresses all in, and counts each',
    async (count) => {
      // Prepare
      const app = appPrincipal();
      const wallet = await createWalletOk(app, 'scanner');
      await login(wallet.fullUsername, WALLET_PASSWORD);
      const loginCountBefore = await loginCountOf(app, wallet.id);
      // Act
      const responses = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          loginFrom(`192.0.2.${index + 1}`, wallet.fullUsername, WALLET_PASSWORD),
        ),
      );
      // Assess
      expect(responses.map((response) => response.statusCode)).toEqual(Array(count).fill(200));
      expect(new Set(responses.map((response) => response.body.token)).size).toBe(count);
      expect(await loginCountOf(app, wallet.id)).toBe(loginCountBefore + count);
    },
  );

  it('checks at most 5 of 10 parallel wrong guesses from one address and refuses the others with 429', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const passwordHash = (await storedItem(app.tenantId, wallet.id))?.passwordHash;
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => login(wallet.fullUsername, 'wrong password')),
    );
    const checked = checksAgainst(passwordHash);
    const otherAddress = await loginFrom('203.0.113.50', wallet.fullUsername, WALLET_PASSWORD);
    // Assess: each checked password was counted first, one by one; the 5th count set the wait
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(checked).toBe(statuses.filter((status) => status === 401).length);
    for (const response of responses.filter((response) => response.statusCode === 429))
      expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(otherAddress.statusCode).toBe(200);
  });

  it('lets the right password in alongside parallel wrong guesses while the count allows it', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const passwordHash = (await storedItem(app.tenantId, wallet.id))?.passwordHash;
    // Act: 3 wrong guesses and 1 right password at once (4 counted at most: no wait)
    const [right, ...wrong] = await Promise.all([
      login(wallet.fullUsername, WALLET_PASSWORD),
      ...Array.from({ length: 3 }, () => login(wallet.fullUsername, 'wrong password')),
    ]);
    // Assess
    expect(right?.statusCode).toBe(200);
    for (const response of wrong) expect(response).toMatchObject(REFUSED);
    expect(checksAgainst(passwordHash)).toBe(4);
    expect(await loginCountOf(app, wallet.id)).toBe(1);
  });
});
