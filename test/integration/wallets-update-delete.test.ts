/** Update wallet (spec 4.14) and delete wallet (spec 4.15) through the handlers, against DynamoDB Local. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke, lambdaContext, proxyEvent } from '../support/api-events';
import { appPrincipal, companyPrincipal } from '../support/principals';
import { createWalletOk } from '../support/wallet-requests';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A wallet response: the view the API responds with. */
type WalletBody = WalletView;

const walletRequest = (principal: Principal, method: string, walletId: string, body?: unknown) => ({
  method,
  path: `/v2/wallets/${walletId}`,
  resource: '/v2/wallets/{walletId}',
  principal,
  pathParameters: { walletId },
  body,
});
const getWallet = (principal: Principal, walletId: string) =>
  invoke(getWalletHandler, walletRequest(principal, 'GET', walletId));
const putWallet = (principal: Principal, walletId: string, body: unknown) =>
  invoke(updateWalletHandler, walletRequest(principal, 'PUT', walletId, body));
const deleteWallet = (principal: Principal, walletId: string) =>
  invoke(deleteWalletHandler, walletRequest(principal, 'DELETE', walletId));
const listWallets = (principal: Principal, query?: Record<string, string>) =>
  invoke(listWalletsHandler, { method: 'GET', path: '/v2/wallets', principal, query });
const storedItem = async (appId: string, walletId: string) =>
  (await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: walletKey(appId, walletId) }))).Item;

describe('update wallet', () => {
  it.each(['inactive', 'suspended', 'active'])(
    'sets status %s and responds 200 with the wallet',
    async (status) => {
      // Prepare
      const app = appPrincipal();
      const created = await createWalletOk(app, 'scanner', { site: 'north' });
      // Act
      const response = await putWallet(app, created.id, { status });
      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body).toEqual({
        ...created,
        status,
        updatedAt: expect.stringMatching(ISO_UTC),
      });
      expect(response.body.updatedAt > created.updatedAt).toBe(true);
      expect(response.body).not.toHaveProperty('password');
    },
  );

  it('leaves omitted fields unchanged and replaces metadata when given', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner', { site: 'north', shift: 2 });
    await putWallet(app, created.id, { status: 'suspended' });
    // Act
    const response = await putWallet(app, created.id, { metadata: { site: 'south' } });
    const readBack = await getWallet(app, created.id);
    // Assess
    expect(response.body).toMatchObject({
      status: 'suspended',
      metadata: { site: 'south' },
      username: 'scanner',
    });
    expect(readBack.body).toMatchObject({ status: 'suspended', metadata: { site: 'south' } });
  });

  it('changes nothing but updatedAt for an empty body', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner', { site: 'north' });
    // Act
    const response = await putWallet(app, created.id, {});
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ ...created, updatedAt: expect.stringMatching(ISO_UTC) });
  });

  it('stores a new password as a new hash', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    const before = await storedItem(app.tenantId, created.id);
    // Act
    const response = await putWallet(app, created.id, { password: 'second password' });
    const after = await storedItem(app.tenantId, created.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(after?.passwordHash).toMatch(/^scrypt\$/);
    expect(after?.passwordHash).not.toBe(before?.passwordHash);
    expect(after?.sessionVersion).toBe((before?.sessionVersion as number) + 1);
  });

  it('moves the list totals with the status', async () => {
    // Prepare
    const app = appPrincipal();
    const first = await createWalletOk(app, 'first');
    await createWalletOk(app, 'second');
    // Act
    await putWallet(app, first.id, { status: 'suspended' });
    const [active, suspended, all] = await Promise.all([
      listWallets(app),
      listWallets(app, { status: 'suspended' }),
      listWallets(app, { status: 'all' }),
    ]);
    // Assess
    expect(active.body.pagination.total).toBe(1);
    expect(suspended.body.pagination.total).toBe(1);
    expect(suspended.body.data[0].id).toBe(first.id);
    expect(all.body.pagination.total).toBe(2);
  });

  it('responds 400 ENUM_INVALID for a status outside the enumeration, deleted included', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const response = await putWallet(app, created.id, { status: 'deleted' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The request is not valid',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [
        {
          field: 'status',
          code: 'ENUM_INVALID',
          message: 'status must be one of: active, inactive, suspended',
        },
      ],
    });
  });

  it('responds 400 LENGTH_INVALID for a 7-character password, and changes nothing', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const response = await putWallet(app, created.id, { password: 'short', status: 'inactive' });
    const readBack = await getWallet(app, created.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'password', code: 'LENGTH_INVALID', message: 'password must be 8 to 1024 characters long' },
    ]);
    expect(readBack.body.status).toBe('active');
  });

  it('responds 404 RESOURCE_NOT_FOUND for an unknown id and for a wallet of another App', async () => {
    // Prepare
    const owner = appPrincipal();
    const created = await createWalletOk(owner, 'scanner');
    // Act
    const unknown = await putWallet(owner, '3f0e1c2a-9b8d-4c7e-8f6a-5b4c3d2e1f00', { status: 'inactive' });
    const foreign = await putWallet(appPrincipal(), created.id, { status: 'inactive' });
    const readBack = await getWallet(owner, created.id);
    // Assess
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(readBack.body.status).toBe('active');
  });

  it('responds 403 APP_ACCESS_DENIED for a company key and for an App key without wallets:write', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const company = await putWallet(companyPrincipal(), created.id, { status: 'inactive' });
    const readOnly = await putWallet({ ...app, permissions: new Set(['wallets:read']) }, created.id, {
      status: 'inactive',
    });
    // Assess
    expect(company.statusCode).toBe(403);
    expect(company.body.code).toBe('APP_ACCESS_DENIED');
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.body.code).toBe('APP_ACCESS_DENIED');
  });

  it('applies two concurrent changes of different fields, both', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    await Promise.all([
      putWallet(app, created.id, { status: 'suspended' }),
      putWallet(app, created.id, { metadata: { note: 'x' } }),
    ]);
    const readBack = await getWallet(app, created.id);
    const suspended = await listWallets(app, { status: 'suspended' });
    // Assess
    expect(readBack.body).toMatchObject({ status: 'suspended', metadata: { note: 'x' } });
    expect(suspended.body.pagination.total).toBe(1);
  });

  it('responds to ten parallel updates of one wallet with 200 (or, if races outlast the retries, 409), never a 500', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'busy');
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => putWallet(app, created.id, { metadata: { writer: index } })),
    );
    const readBack = await getWallet(app, created.id);
    // Assess
    const statuses = responses.map((response) => response.statusCode);
    for (const response of responses) {
      if (response.statusCode !== 200) expect(response.body.code).toBe('CONCURRENT_MODIFICATION');
    }
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    // The stored metadata is one of the acknowledged writes: the last one to go through.
    const written = responses
      .filter((response) => response.statusCode === 200)
      .map((response) => response.body.metadata);
    expect(written).toContainEqual(readBack.body.metadata);
    expect(readBack.body.updatedAt).toBe(
      responses
        .filter((response) => response.statusCode === 200)
        .map((response) => response.body.updatedAt as string)
        .sort()
        .at(-1),
    );
  });
});

describe('delete wallet', () => {
  it('responds 204 with an empty body', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const result = await deleteWalletHandler(
      proxyEvent(walletRequest(app, 'DELETE', created.id)),
      lambdaContext,
    );
    // Assess
    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
  });

  it('then responds 404 RESOURCE_NOT_FOUND to get, update and a second delete, and lists it nowhere', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    await deleteWallet(app, created.id);
    // Act
    const read = await getWallet(app, created.id);
    const updated = await putWallet(app, created.id, { status: 'active' });
    const deletedAgain = await deleteWallet(app, created.id);
    const lists = await Promise.all(
      ['active', 'inactive', 'suspended', 'all'].map((status) => listWallets(app, { status })),
    );
    // Assess
    for (const response of [read, updated, deletedAgain]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toEqual({
        error: `No wallet ${created.id} in this App`,
        code: 'RESOURCE_NOT_FOUND',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    }
    for (const list of lists) expect(list.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('keeps the record, marked deleted, with its username and a new session version', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    await deleteWallet(app, created.id);
    const item = await storedItem(app.tenantId, created.id);
    // Assess
    expect(item).toMatchObject({
      id: created.id,
      username: 'scanner',
      status: 'deleted',
      deletedAt: expect.stringMatching(ISO_UTC),
      sessionVersion: 2,
    });
    expect(item).not.toHaveProperty('gsi1pk');
    expect(item).not.toHaveProperty('gsi3pk');
  });

  it('deletes a suspended wallet and takes it off the suspended total', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    await putWallet(app, created.id, { status: 'suspended' });
    // Act
    const response = await deleteWallet(app, created.id);
    const suspended = await listWallets(app, { status: 'suspended' });
    // Assess
    expect(response.statusCode).toBe(204);
    expect(suspended.body.pagination.total).toBe(0);
  });

  it('frees the username: a new wallet may take it, with a new id', async () => {
    // Prepare
    const app = appPrincipal();
    const first = await createWalletOk(app, 'scanner');
    await deleteWallet(app, first.id);
    // Act
    const second = await invoke(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: app,
      body: { username: 'SCANNER', password: 'third password' },
    });
    const listed = await listWallets(app, { status: 'all' });
    // Assess
    expect(second.statusCode).toBe(201);
    expect(second.body.id).not.toBe(first.id);
    expect(listed.body.data.map((wallet: WalletBody) => wallet.id)).toEqual([second.body.id]);
  });

  it('deletes once when two deletes race: one 204, one 404', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const responses = await Promise.all([deleteWallet(app, created.id), deleteWallet(app, created.id)]);
    const all = await listWallets(app, { status: 'all' });
    // Assess
    expect(responses.map((response) => response.statusCode).sort()).toEqual([204, 404]);
    expect(all.body.pagination.total).toBe(0);
  });

  it('responds 404 for a wallet of another App and leaves it in place', async () => {
    // Prepare
    const owner = appPrincipal();
    const created = await createWalletOk(owner, 'scanner');
    // Act
    const response = await deleteWallet(appPrincipal(), created.id);
    const readBack = await getWallet(owner, created.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(readBack.statusCode).toBe(200);
  });

  it('responds 403 APP_ACCESS_DENIED for a company key and for an App key without wallets:write', async () => {
    // Prepare
    const app = appPrincipal();
    const created = await createWalletOk(app, 'scanner');
    // Act
    const company = await deleteWallet(companyPrincipal(), created.id);
    const readOnly = await deleteWallet({ ...app, permissions: new Set(['wallets:read']) }, created.id);
    const readBack = await getWallet(app, created.id);
    // Assess
    expect(company.statusCode).toBe(403);
    expect(company.body.code).toBe('APP_ACCESS_DENIED');
    expect(readOnly.statusCode).toBe(403);
    expect(readBack.statusCode).toBe(200);
  });
});
