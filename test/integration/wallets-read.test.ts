/** Get wallet (spec 4.13) and list wallets (spec 4.11, 2.1) through the handlers, against DynamoDB Local. */
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal, companyPrincipal } from '../support/principals';
import { createWalletOk } from '../support/wallet-requests';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A wallet response: the view the API responds with. */
type WalletBody = WalletView;

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
const usernamesOf = (response: { body: { data: WalletBody[] } }) =>
  response.body.data.map((wallet) => wallet.username);

/** Creates wallets one after the other, each in a later millisecond, so createdAt order is creation order. */
async function createWalletsInOrder(
  principal: Principal,
  usernames: readonly string[],
): Promise<WalletBody[]> {
  const created: WalletBody[] = [];
  for (const username of usernames) {
    const previous = created.at(-1)?.createdAt;
    while (previous !== undefined && new Date().toISOString() <= previous) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    created.push(await createWalletOk(principal, username));
  }
  return created;
}

async function setStatus(principal: Principal, walletId: string, status: string): Promise<void> {
  const response = await invoke(updateWalletHandler, {
    method: 'PUT',
    path: `/v2/wallets/${walletId}`,
    principal,
    pathParameters: { walletId },
    body: { status },
  });
  if (response.statusCode !== 200) throw new Error(`status: ${JSON.stringify(response.body)}`);
}

async function deleteWalletOk(principal: Principal, walletId: string): Promise<void> {
  const response = await invoke(deleteWalletHandler, {
    method: 'DELETE',
    path: `/v2/wallets/${walletId}`,
    principal,
    pathParameters: { walletId },
  });
  if (response.statusCode !== 204) throw new Error(`delete: ${JSON.stringify(response.body)}`);
}

describe('get wallet', () => {
  it('responds 200 with the wallet and stats (zero counts, lastApiCallAt null before any call)', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'reader');
    // Act
    const response = await getWallet(app, created.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      id: created.id,
      username: 'reader',
      appId: app.tenantId,
      fullUsername: `reader@${app.tenantId}`,
      status: 'active',
      metadata: {},
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
      lastLoginAt: null,
      stats: { loginCount: 0, apiCallCount: 0, lastApiCallAt: null },
    });
  });

  it('responds 404 RESOURCE_NOT_FOUND for an unknown wallet id', async () => {
    // Prepare
    const walletId = '3f0e1c2a-9b8d-4c7e-8f6a-5b4c3d2e1f00';
    // Act
    const response = await getWallet(appPrincipal(), walletId);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No wallet ${walletId} in this App`,
      code: 'RESOURCE_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  // Spec 2.5 types a wallet id as a string, not a UUID: other text names no wallet.
  it.each(['not-a-wallet', 'nonexistent-id', '12345', 'é😀'])(
    'responds 404 RESOURCE_NOT_FOUND to GET, PUT and DELETE of the id %s, which is no UUID',
    async (walletId) => {
      // Prepare
      const app = appPrincipal();
      const call = (handler: typeof getWalletHandler, method: string, body?: unknown) =>
        invoke(handler, {
          method,
          path: `/v2/wallets/${encodeURIComponent(walletId)}`,
          resource: '/v2/wallets/{walletId}',
          principal: app,
          pathParameters: { walletId },
          body,
        });
      // Act
      const responses = [
        await call(getWalletHandler, 'GET'),
        await call(updateWalletHandler, 'PUT', { status: 'suspended' }),
        await call(deleteWalletHandler, 'DELETE'),
      ];
      // Assess
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.body).toEqual({
          error: `No wallet ${walletId} in this App`,
          code: 'RESOURCE_NOT_FOUND',
          timestamp: expect.stringMatching(ISO_UTC),
        });
      }
    },
  );

  it('reads the wallet id in any case', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'upper');
    // Act
    const response = await getWallet(app, created.id.toUpperCase());
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.id).toBe(created.id);
  });

  it('responds 404 RESOURCE_NOT_FOUND for a wallet of another App, with the body of an unknown id', async () => {
    // Prepare
    const owner = appPrincipal();
    const created = await createWalletOk(owner, 'private');
    // Act
    const response = await getWallet(appPrincipal(), created.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No wallet ${created.id} in this App`,
      code: 'RESOURCE_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 403 APP_ACCESS_DENIED for a company key, even one whose id is the App id', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'private');
    // Act
    const response = await getWallet({ ...companyPrincipal(), tenantId: app.tenantId }, created.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('APP_ACCESS_DENIED');
  });

  it('responds 403 APP_ACCESS_DENIED for an App key without wallets:read', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'private');
    // Act
    const response = await getWallet({ ...app, permissions: new Set(['wallets:write']) }, created.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toMatchObject({
      code: 'APP_ACCESS_DENIED',
      error: 'The API key lacks the permission wallets:read',
    });
  });
});

describe('list wallets: filters', () => {
  let app: Principal;
  let wallets: WalletBody[];

  beforeAll(async () => {
    app = appPrincipal();
    wallets = await createWalletsInOrder(app, ['delta', 'Alpha', 'charlie', 'bravo', 'echo-x']);
    await setStatus(app, wallets[2]!.id, 'inactive');
    await setStatus(app, wallets[3]!.id, 'suspended');
    await deleteWalletOk(app, wallets[4]!.id);
  });

  it('lists active wallets only by default, newest first, in the pagination wrapper', async () => {
    // Act
    const response = await listWallets(app);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(usernamesOf(response)).toEqual(['Alpha', 'delta']);
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 2,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it.each([
    ['inactive', ['charlie']],
    ['suspended', ['bravo']],
    ['active', ['Alpha', 'delta']],
    ['all', ['bravo', 'charlie', 'Alpha', 'delta']],
  ])('lists status=%s with its exact total, never the deleted wallet', async (status, expected) => {
    // Act
    const response = await listWallets(app, { status });
    // Assess
    expect(usernamesOf(response)).toEqual(expected);
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('matches part of the username, ignoring case', async () => {
    // Act
    const response = await listWallets(app, { status: 'all', username: 'LT' });
    // Assess
    expect(usernamesOf(response)).toEqual(['delta']);
    expect(response.body.pagination.total).toBe(1);
  });

  it('combines the username match with the status filter', async () => {
    // Act
    const active = await listWallets(app, { username: 'a' });
    const suspended = await listWallets(app, { status: 'suspended', username: 'a' });
    // Assess
    expect(usernamesOf(active)).toEqual(['Alpha', 'delta']);
    expect(usernamesOf(suspended)).toEqual(['bravo']);
  });

  it('finds nothing for the deleted wallet by its username', async () => {
    // Act
    const response = await listWallets(app, { status: 'all', username: 'echo' });
    // Assess
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });

  it('shows list items without stats', async () => {
    // Act
    const response = await listWallets(app);
    // Assess
    expect(Object.keys(response.body.data[0]).sort()).toEqual(
      [
        'appId',
        'createdAt',
        'fullUsername',
        'id',
        'lastLoginAt',
        'metadata',
        'status',
        'updatedAt',
        'username',
      ].sort(),
    );
  });
});

describe('list wallets: sorts and pages', () => {
  let app: Principal;

  beforeAll(async () => {
    app = appPrincipal();
    await createWalletsInOrder(app, ['delta', 'Alpha', 'charlie', 'bravo', 'echo']);
  });

  it.each([
    ['createdAt:desc', ['echo', 'bravo', 'charlie', 'Alpha', 'delta']],
    ['createdAt:asc', ['delta', 'Alpha', 'charlie', 'bravo', 'echo']],
    ['username:asc', ['Alpha', 'bravo', 'charlie', 'delta', 'echo']],
    ['username:desc', ['echo', 'delta', 'charlie', 'bravo', 'Alpha']],
  ])('sorts by %s (usernames ignoring case)', async (sort, expected) => {
    // Act
    const response = await listWallets(app, { sort });
    // Assess
    expect(usernamesOf(response)).toEqual(expected);
  });

  it('pages with limit and offset, with hasNext and hasPrevious', async () => {
    // Act
    const first = await listWallets(app, { sort: 'username:asc', limit: '2' });
    const middle = await listWallets(app, { sort: 'username:asc', limit: '2', offset: '2' });
    const last = await listWallets(app, { sort: 'username:asc', limit: '2', offset: '4' });
    const beyond = await listWallets(app, { sort: 'username:asc', limit: '2', offset: '9' });
    // Assess
    expect(usernamesOf(first)).toEqual(['Alpha', 'bravo']);
    expect(first.body.pagination).toEqual({
      limit: 2,
      offset: 0,
      total: 5,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(usernamesOf(middle)).toEqual(['charlie', 'delta']);
    expect(middle.body.pagination).toEqual({
      limit: 2,
      offset: 2,
      total: 5,
      hasNext: true,
      hasPrevious: true,
      nextCursor: expect.any(String),
    });
    expect(usernamesOf(last)).toEqual(['echo']);
    expect(last.body.pagination).toEqual({
      limit: 2,
      offset: 4,
      total: 5,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toMatchObject({
      total: 5,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
  });

  it('pages a username match with its exact total', async () => {
    // Act
    const response = await listWallets(app, { username: 'A', sort: 'username:asc', limit: '2', offset: '1' });
    // Assess
    expect(usernamesOf(response)).toEqual(['bravo', 'charlie']);
    expect(response.body.pagination).toEqual({
      limit: 2,
      offset: 1,
      total: 4,
      hasNext: true,
      hasPrevious: true,
      nextCursor: expect.any(String),
    });
  });
});

describe('list wallets: isolation and refusals', () => {
  it("never lists another App's wallets", async () => {
    // Prepare
    const mine = appPrincipal();
    const theirs = appPrincipal();
    await createWalletOk(mine, 'mine');
    await createWalletOk(theirs, 'theirs');
    // Act
    const response = await listWallets(mine, { status: 'all' });
    // Assess
    expect(usernamesOf(response)).toEqual(['mine']);
    expect(response.body.pagination.total).toBe(1);
  });

  it('returns an empty page to an App without wallets', async () => {
    // Act
    const response = await listWallets(appPrincipal());
    // Assess
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });

  it('responds 403 APP_ACCESS_DENIED for a company key', async () => {
    // Act
    const response = await listWallets(companyPrincipal());
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('APP_ACCESS_DENIED');
  });

  it.each([
    [
      'status',
      { status: 'deleted' },
      'ENUM_INVALID',
      'status must be one of: active, inactive, suspended, all',
    ],
    [
      'sort',
      { sort: 'name:asc' },
      'ENUM_INVALID',
      'sort must be one of: createdAt:desc, createdAt:asc, username:asc, username:desc',
    ],
    ['limit', { limit: '0' }, 'RANGE_INVALID', 'limit must be from 1 to 100'],
    ['limit', { limit: '101' }, 'RANGE_INVALID', 'limit must be from 1 to 100'],
    ['offset', { offset: '-1' }, 'RANGE_INVALID', 'offset must be at least 0'],
    [
      'username',
      { username: 'u'.repeat(51) },
      'LENGTH_INVALID',
      'username must be at most 50 characters long',
    ],
  ])('responds 400 VALIDATION_ERROR for an invalid %s', async (field, query, code, message) => {
    // Act
    const response = await listWallets(appPrincipal(), query);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [{ field, code, message }],
    });
  });
});
