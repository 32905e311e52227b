/** Create wallet (spec 4.12, 2.5, 8) through the handler, against DynamoDB Local. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal, companyPrincipal } from '../support/principals';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PASSWORD = 'correct horse battery';

const postWallet = (principal: Principal | undefined, body: unknown) =>
  invoke(createWalletHandler, { method: 'POST', path: '/v2/wallets', principal, body });
const getWallet = (principal: Principal, walletId: string) =>
  invoke(getWalletHandler, {
    method: 'GET',
    path: `/v2/wallets/${walletId}`,
    resource: '/v2/wallets/{walletId}',
    principal,
    pathParameters: { walletId },
  });
const listWallets = (principal: Principal, query?: Record<string, string>) =>
  invoke(listWalletsHandler, { method: 'GET', path: '/v2/wallets', principal, query });

describe('create wallet', () => {
  it('responds 201 with the wallet, active, lastLoginAt null, fullUsername username@appId, and its Location', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    const response = await postWallet(app, { username: 'scanner-01', password: PASSWORD });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      username: 'scanner-01',
      appId: app.tenantId,
      fullUsername: `scanner-01@${app.tenantId}`,
      status: 'active',
      metadata: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: response.body.createdAt,
      lastLoginAt: null,
    });
    expect(response.headers.Location).toBe(`/test/v2/wallets/${response.body.id}`);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
  });

  it('stores the metadata given and reads the wallet back at its Location with zero stats', async () => {
    // Prepare
    const app = appPrincipal();
    const metadata = { device: 'handheld', slots: 2, tags: ['a'], nested: { '': null } };
    // Act
    const created = await postWallet(app, { username: 'Device.7_b', password: PASSWORD, metadata });
    const readBack = await getWallet(app, created.body.id);
    // Assess
    expect(created.statusCode).toBe(201);
    expect(readBack.statusCode).toBe(200);
    expect(readBack.body).toEqual({
      ...created.body,
      metadata,
      stats: { loginCount: 0, apiCallCount: 0, lastApiCallAt: null },
    });
  });

  it('keeps the username as given (case included) and counts the wallet in the list total', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    await postWallet(app, { username: 'MixedCase', password: PASSWORD });
    const listed = await listWallets(app);
    // Assess
    expect(listed.body.data.map((wallet: { username: string }) => wallet.username)).toEqual(['MixedCase']);
    expect(listed.body.pagination.total).toBe(1);
  });

  it('stores only a scrypt hash of the password, with a random salt per wallet', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    const first = await postWallet(app, { username: 'first', password: PASSWORD });
    const second = await postWallet(app, { username: 'second', password: PASSWORD });
    const items = await Promise.all(
      [first, second].map((created) =>
        dynamoDb.send(
          new GetCommand({ TableName: tableName(), Key: walletKey(app.tenantId, created.body.id) }),
        ),
      ),
    );
    // Assess
    const hashes = items.map(({ Item }) => Item?.passwordHash as string);
    for (const hash of hashes)
      expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(hashes[0]).not.toBe(hashes[1]);
    for (const { Item } of items) expect(JSON.stringify(Item)).not.toContain(PASSWORD);
  });

  it('accepts a 3-character and a 50-character username, and an 8-character password', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    const shortest = await postWallet(app, { username: 'abc', password: '12345678' });
    const longest = await postWallet(app, { username: 'u'.repeat(50), password: 'p'.repeat(1024) });
    // Assess
    expect(shortest.statusCode).toBe(201);
    expect(longest.statusCode).toBe(201);
  });

  it('accepts any characters in a password, counted as characters', async () => {
    // Act
    const response = await postWallet(appPrincipal(), { username: 'emoji', password: '🔑🔑🔑🔑🔑🔑🔑🔑' });
    // Assess
    expect(response.statusCode).toBe(201);
  });
});

describe('create wallet: unique usernames', () => {
  it('responds 409 USERNAME_EXISTS for a username the App already uses', async () => {
    // Prepare
    const app = appPrincipal();
    await postWallet(app, { username: 'scanner-01', password: PASSWORD });
    // Act
    const response = await postWallet(app, { username: 'scanner-01', password: 'another password' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'A wallet named "scanner-01" already exists in this App',
      code: 'USERNAME_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 409 USERNAME_EXISTS for the same username in another case, and keeps one wallet', async () => {
    // Prepare
    const app = appPrincipal();
    await postWallet(app, { username: 'Scanner', password: PASSWORD });
    // Act
    const response = await postWallet(app, { username: 'sCANNER', password: PASSWORD });
    const listed = await listWallets(app, { status: 'all' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('USERNAME_EXISTS');
    expect(listed.body.pagination.total).toBe(1);
  });

  it('lets two Apps use the same username', async () => {
    // Act
    const inFirst = await postWallet(appPrincipal(), { username: 'scanner', password: PASSWORD });
    const inSecond = await postWallet(appPrincipal(), { username: 'scanner', password: PASSWORD });
    // Assess
    expect(inFirst.statusCode).toBe(201);
    expect(inSecond.statusCode).toBe(201);
    expect(inSecond.body.fullUsername).not.toBe(inFirst.body.fullUsername);
  });

  it('creates one wallet, not two, when the same new username is posted twice at once', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    const responses = await Promise.all([
      postWallet(app, { username: 'racer', password: PASSWORD }),
      postWallet(app, { username: 'RACER', password: PASSWORD }),
    ]);
    const listed = await listWallets(app, { status: 'all' });
    // Assess
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(listed.body.pagination.total).toBe(1);
  });
});

describe('create wallet: validation', () => {
  const validationError = (validationErrors: unknown[]) => ({
    error: 'The request is not valid',
    code: 'VALIDATION_ERROR',
    timestamp: expect.stringMatching(ISO_UTC),
    validationErrors,
  });

  it.each([
    [
      'a 2-character username',
      { username: 'ab', password: PASSWORD },
      'username',
      'username must be 3 to 50 characters long',
    ],
    [
      'a 51-character username',
      { username: 'u'.repeat(51), password: PASSWORD },
      'username',
      'username must be 3 to 50 characters long',
    ],
    [
      'a 7-character password',
      { username: 'scanner', password: '1234567' },
      'password',
      'password must be 8 to 1024 characters long',
    ],
    [
      'a 1025-character password',
      { username: 'scanner', password: 'p'.repeat(1025) },
      'password',
      'password must be 8 to 1024 characters long',
    ],
  ])('responds 400 LENGTH_INVALID for %s', async (_label, body, field, message) => {
    // Act
    const response = await postWallet(appPrincipal(), body);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError([{ field, code: 'LENGTH_INVALID', message }]));
  });

  it('counts characters, not UTF-16 units: 2 emoji (4 units) are too short a username', async () => {
    // Act
    const response = await postWallet(appPrincipal(), { username: '😀😀', password: PASSWORD });
    // Assess
    expect(response.body.validationErrors).toEqual([
      { field: 'username', code: 'LENGTH_INVALID', message: 'username must be 3 to 50 characters long' },
    ]);
  });

  it.each([
    ['an @, which separates the App id', 'name@other', 'username may not contain "@"'],
    [
      'a control character',
      'tab\there',
      'username may not contain control or bidirectional formatting characters (U+0009)',
    ],
    [
      'a right-to-left override',
      'admin\u202Enimda',
      'username may not contain control or bidirectional formatting characters (U+202E)',
    ],
  ])('responds 400 FORMAT_INVALID for a username with %s', async (_label, username, message) => {
    // Act
    const response = await postWallet(appPrincipal(), { username, password: PASSWORD });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError([{ field: 'username', code: 'FORMAT_INVALID', message }]));
  });

  it.each([
    ['a space', 'two words'],
    ['non-ASCII letters', 'café-01'],
    ['a slash and a #', 'a/b#c'],
    ['50 emoji (lengths are counted in characters)', '😀'.repeat(50)],
  ])('accepts a username with %s', async (_label, username) => {
    // Act
    const response = await postWallet(appPrincipal(), { username, password: PASSWORD });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.username).toBe(username);
  });

  it('responds 400 REQUIRED for each missing field, all at once', async () => {
    // Act
    const response = await postWallet(appPrincipal(), {});
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'username', code: 'REQUIRED', message: 'username is required' },
      { field: 'password', code: 'REQUIRED', message: 'password is required' },
    ]);
  });

  it('responds 400 TYPE_INVALID for a number as the password and an array as metadata', async () => {
    // Act
    const response = await postWallet(appPrincipal(), {
      username: 'scanner',
      password: 12345678,
      metadata: [],
    });
    // Assess
    expect(response.body.validationErrors).toEqual([
      { field: 'password', code: 'TYPE_INVALID', message: 'password must be a string, not number' },
      { field: 'metadata', code: 'TYPE_INVALID', message: 'metadata must be a JSON object' },
    ]);
  });

  it('creates nothing when the body is refused', async () => {
    // Prepare
    const app = appPrincipal();
    // Act
    await postWallet(app, { username: 'ab', password: PASSWORD });
    const listed = await listWallets(app, { status: 'all' });
    // Assess
    expect(listed.body.pagination.total).toBe(0);
  });
});

describe('create wallet: who may call', () => {
  it('responds 403 APP_ACCESS_DENIED for a company key', async () => {
    // Act
    const response = await postWallet(companyPrincipal(), { username: 'scanner', password: PASSWORD });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'This operation needs a key of an App',
      code: 'APP_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 403 APP_ACCESS_DENIED for an App key without wallets:write', async () => {
    // Act
    const response = await postWallet(appPrincipal(['wallets:read']), {
      username: 'scanner',
      password: PASSWORD,
    });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual({
      error: 'The API key lacks the permission wallets:write',
      code: 'APP_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 401 UNAUTHORIZED without an authorizer context', async () => {
    // Act
    const response = await postWallet(undefined, { username: 'scanner', password: PASSWORD });
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});
