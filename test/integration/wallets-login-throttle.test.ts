/**
 * The wallet login throttle, per username and source address (docs/api-decisions.md, "Wallet
 * login and sessions"), through the handler against DynamoDB Local: wrong passwords from one
 * address never refuse the right password from another; the guessing address waits, responded
 * 429 with `Retry-After`, and gets in once its wait is over. The handlers run as their bundles
 * (this file is not in-process), so a wait is ended by moving its stored end into the past, as
 * if its time had run out.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOGIN_THROTTLE } from '../../lambdas/domain/wallets/wallet-login';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { hashAddress } from '../../lambdas/repositories/login-throttle';
import { loginThrottleKeys } from '../../lambdas/repositories/table-keys';
import { usernameKeyOf } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { lambdaContext, proxyEvent } from '../support/api-events';
import { appPrincipal } from '../support/principals';
import { createWalletOk, WALLET_PASSWORD } from '../support/wallet-requests';

// Every checked password costs one scrypt (about 0.1-0.2 s).
jest.setTimeout(60_000);

const ADDRESS_A = '198.51.100.7';
const ADDRESS_B = '203.0.113.9';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A login as API Gateway passes it on: the caller's address in `requestContext.identity`. */
async function loginFrom(sourceIp: string, username: string, password: string) {
  const event = proxyEvent({ method: 'POST', path: '/v2/wallets/login', body: { username, password } });
  (event.requestContext as { identity: unknown }).identity = { sourceIp };
  const result = await loginHandler(event, lambdaContext);
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: result.body ? JSON.parse(result.body) : undefined,
  };
}

const wrongTimes = async (count: number, sourceIp: string, username: string) => {
  for (let attempt = 1; attempt <= count; attempt++) await loginFrom(sourceIp, username, 'wrong password');
};

const throttleKey = (appId: string, username: string, sourceIp: string) =>
  loginThrottleKeys.key({ appId, usernameKey: usernameKeyOf(username), addressHash: hashAddress(sourceIp) });

const throttleItem = async (appId: string, username: string, sourceIp: string) =>
  (
    await dynamoDb.send(
      new GetCommand({ TableName: tableName(), Key: throttleKey(appId, username, sourceIp) }),
    )
  ).Item;

/** Writes an address's count as the throttle keeps it (the TTL follows its expiry). */
async function putThrottle(
  appId: string,
  username: string,
  sourceIp: string,
  count: { attempts: number; blockedUntil: number; expiresAt: number },
): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...throttleKey(appId, username, sourceIp), ...count, ttl: Math.ceil(count.expiresAt / 1000) },
    }),
  );
}

/** Moves the address's wait into the past, as if its time had run out. */
async function endWait(appId: string, username: string, sourceIp: string): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: throttleKey(appId, username, sourceIp),
      UpdateExpression: 'SET blockedUntil = :past',
      ExpressionAttributeValues: { ':past': Date.now() - 1 },
    }),
  );
}

const THROTTLED = {
  statusCode: 429,
  body: { code: 'TOO_MANY_REQUESTS', error: expect.any(String), timestamp: expect.stringMatching(ISO_UTC) },
};
const REFUSED = { statusCode: 401, body: { code: 'UNAUTHORIZED', error: 'Invalid username or password' } };

describe('wallet login throttle, per username and address', () => {
  it('lets the right password in from address B after 5 wrong ones from A, and responses A 429', async () => {
    // Prepare
    const wallet = await createWalletOk(appPrincipal(), 'scanner');
    await wrongTimes(5, ADDRESS_A, wallet.fullUsername);
    // Act
    const fromB = await loginFrom(ADDRESS_B, wallet.fullUsername, WALLET_PASSWORD);
    const fromA = await loginFrom(ADDRESS_A, wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(fromB.statusCode).toBe(200);
    expect(fromA).toMatchObject(THROTTLED);
    expect(fromA.headers['Retry-After']).toBe('2');
  });

  it('lets address A in again once its wait is over, and forgets its count', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    await wrongTimes(5, ADDRESS_A, wallet.fullUsername);
    const during = await loginFrom(ADDRESS_A, wallet.fullUsername, WALLET_PASSWORD);
    // Act
    await endWait(app.tenantId, 'scanner', ADDRESS_A);
    const after = await loginFrom(ADDRESS_A, wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(during).toMatchObject(THROTTLED);
    expect(after.statusCode).toBe(200);
    expect(await throttleItem(app.tenantId, 'scanner', ADDRESS_A)).toMatchObject({ attempts: 0 });
    expect(await throttleItem(app.tenantId, 'scanner', ADDRESS_A)).not.toHaveProperty('blockedUntil');
  });

  it('lets 5 failures in a row through with 401, then responds 429 without counting it', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    // Act
    const failures = [];
    for (let attempt = 1; attempt <= 5; attempt++)
      failures.push(await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password'));
    const sixth = await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password');
    const item = await throttleItem(app.tenantId, 'scanner', ADDRESS_A);
    // Assess
    for (const failure of failures) expect(failure).toMatchObject(REFUSED);
    expect(sixth).toMatchObject(THROTTLED);
    expect(item?.attempts).toBe(5);
  });

  it('doubles the wait at each further failure', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    await wrongTimes(5, ADDRESS_A, wallet.fullUsername);
    const firstWait = await throttleItem(app.tenantId, 'scanner', ADDRESS_A);
    await endWait(app.tenantId, 'scanner', ADDRESS_A);
    const before = Date.now();
    // Act
    const sixth = await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password');
    const item = await throttleItem(app.tenantId, 'scanner', ADDRESS_A);
    // Assess
    expect(sixth).toMatchObject(REFUSED);
    expect(item?.attempts).toBe(6);
    // 2 s after the 5th failure, 4 s after the 6th (each from the failure's response).
    expect((firstWait?.blockedUntil as number) - before).toBeLessThanOrEqual(2000);
    expect((item?.blockedUntil as number) - before).toBeGreaterThanOrEqual(3900);
    expect((item?.blockedUntil as number) - before).toBeLessThanOrEqual(4000 + (Date.now() - before));
  });

  it('throttles an unknown username alike, so a 429 tells nothing of whether a wallet exists', async () => {
    // Prepare
    const app = appPrincipal();
    await wrongTimes(5, ADDRESS_A, `nobody@${app.tenantId}`);
    // Act
    const sixth = await loginFrom(ADDRESS_A, `nobody@${app.tenantId}`, WALLET_PASSWORD);
    // Assess
    expect(sixth).toMatchObject(THROTTLED);
  });

  it('keeps one address from throttling another username', async () => {
    // Prepare
    const app = appPrincipal();
    const attacked = await createWalletOk(app, 'attacked');
    const other = await createWalletOk(app, 'other');
    await wrongTimes(5, ADDRESS_A, attacked.fullUsername);
    // Act
    const response = await loginFrom(ADDRESS_A, other.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('stores the address only as its SHA-256, in an item that expires (TTL)', async () => {
    // Prepare
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const before = Date.now();
    // Act
    await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password');
    const item = await throttleItem(app.tenantId, 'scanner', ADDRESS_A);
    // Assess
    expect(item?.pk).toBe(`T#${app.tenantId}#LOGIN_THROTTLE#scanner`);
    expect(JSON.stringify(item)).not.toContain(ADDRESS_A);
    expect(item?.ttl).toBeGreaterThanOrEqual(Math.floor((before + LOGIN_THROTTLE.resetAfterMs) / 1000));
    expect(item?.ttl).toBeLessThanOrEqual(Math.ceil((Date.now() + LOGIN_THROTTLE.resetAfterMs) / 1000));
  });

  it('treats a count past its expiry as none, before DynamoDB removes it', async () => {
    // Prepare: 30 failures and a wait that both ran out
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const past = Date.now() - 1000;
    await putThrottle(app.tenantId, 'scanner', ADDRESS_A, {
      attempts: 30,
      blockedUntil: past,
      expiresAt: past,
    });
    // Act
    await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password');
    const item = await throttleItem(app.tenantId, 'scanner', ADDRESS_A);
    // Assess
    expect(item?.attempts).toBe(1);
    expect(item).not.toHaveProperty('blockedUntil');
  });
});

describe('wallet login throttle, the real numbers', () => {
  it('never asks to wait more than 60 s, however many failures', async () => {
    // Prepare: 49 failures from A whose last wait ran out
    const app = appPrincipal();
    const wallet = await createWalletOk(app, 'scanner');
    const now = Date.now();
    await putThrottle(app.tenantId, 'scanner', ADDRESS_A, {
      attempts: 49,
      blockedUntil: now - 1,
      expiresAt: now + 60_000,
    });
    // Act
    const fiftieth = await loginFrom(ADDRESS_A, wallet.fullUsername, 'wrong password');
    const next = await loginFrom(ADDRESS_A, wallet.fullUsername, WALLET_PASSWORD);
    const fromB = await loginFrom(ADDRESS_B, wallet.fullUsername, WALLET_PASSWORD);
    // Assess
    expect(fiftieth).toMatchObject(REFUSED);
    expect(next).toMatchObject(THROTTLED);
    expect(Number(next.headers['Retry-After'])).toBeGreaterThanOrEqual(59);
    expect(Number(next.headers['Retry-After'])).toBeLessThanOrEqual(60);
    expect(fromB.statusCode).toBe(200);
  });
});
