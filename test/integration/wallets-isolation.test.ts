/**
 * App isolation for every wallet operation: another App's key and any company key get no
 * wallet of this App (never a 200, never in a list), and change nothing.
 */
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal, companyPrincipal } from '../support/principals';

const PASSWORD = 'owner password';

const walletRequest = (principal: Principal, method: string, walletId: string, body?: unknown) => ({
  method,
  path: `/v2/wallets/${walletId}`,
  resource: '/v2/wallets/{walletId}',
  principal,
  pathParameters: { walletId },
  body,
});

/** Every wallet operation that takes a key, as one caller would make it on the owner's wallet. */
const operationsOn = (walletId: string) => ({
  list: (caller: Principal) =>
    invoke(listWalletsHandler, {
      method: 'GET',
      path: '/v2/wallets',
      principal: caller,
      query: { status: 'all' },
    }),
  create: (caller: Principal) =>
    invoke(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: caller,
      body: { username: 'owned', password: PASSWORD },
    }),
  get: (caller: Principal) => invoke(getWalletHandler, walletRequest(caller, 'GET', walletId)),
  update: (caller: Principal) =>
    invoke(
      updateWalletHandler,
      walletRequest(caller, 'PUT', walletId, { status: 'suspended', password: 'taken over' }),
    ),
  delete: (caller: Principal) => invoke(deleteWalletHandler, walletRequest(caller, 'DELETE', walletId)),
});

describe('App isolation of wallets', () => {
  let owner: Principal;
  let wallet: WalletView;
  let operations: ReturnType<typeof operationsOn>;

  beforeAll(async () => {
    owner = appPrincipal();
    const created = await invoke(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: owner,
      body: { username: 'owned', password: PASSWORD },
    });
    wallet = created.body;
    operations = operationsOn(wallet.id);
  });

  /** The owner's wallet is exactly as created: not changed, not deleted, still logging in. */
  async function expectUntouched(): Promise<void> {
    const readBack = await operations.get(owner);
    expect(readBack.statusCode).toBe(200);
    expect(readBack.body).toMatchObject({ status: 'active', updatedAt: wallet.updatedAt });
  }

  it.each(['get', 'update', 'delete'] as const)(
    "responds 404 RESOURCE_NOT_FOUND to another App's %s",
    async (name) => {
      // Act
      const response = await operations[name](appPrincipal());
      // Assess
      expect(response.statusCode).toBe(404);
      expect(response.body.code).toBe('RESOURCE_NOT_FOUND');
      await expectUntouched();
    },
  );

  it('does not list the wallet for another App, and lets it create the same username in its own App', async () => {
    // Prepare
    const other = appPrincipal();
    // Act
    const listed = await operations.list(other);
    const created = await operations.create(other);
    const listedAfter = await operations.list(other);
    // Assess
    expect(listed.body.pagination.total).toBe(0);
    expect(created.statusCode).toBe(201);
    expect(created.body.id).not.toBe(wallet.id);
    expect(listedAfter.body.data.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    await expectUntouched();
  });

  it.each(['list', 'create', 'get', 'update', 'delete'] as const)(
    'responds 403 APP_ACCESS_DENIED to a company key for %s, even a company whose id is the App id',
    async (name) => {
      // Prepare
      const company = { ...companyPrincipal(), tenantId: owner.tenantId };
      // Act
      const response = await operations[name](company);
      // Assess
      expect(response.statusCode).toBe(403);
      expect(response.body.code).toBe('APP_ACCESS_DENIED');
      expect(response.body).not.toHaveProperty('data');
      await expectUntouched();
    },
  );

  it("refuses a login with the owner's username under another App id", async () => {
    // Act
    const response = await invoke(loginHandler, {
      method: 'POST',
      path: '/v2/wallets/login',
      body: { username: `owned@${appPrincipal().tenantId}`, password: PASSWORD },
    });
    // Assess
    expect(response.statusCode).toBe(401);
  });
});
