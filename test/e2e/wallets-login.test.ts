/**
 * End to end, as an App and its wallet use it: `npm start`, the admin CLI's create-app, then
 * over HTTP: create a wallet with the App key, log it in without any key, call the API with
 * `Authorization: Bearer <token>`, and see the session end when the App deletes the wallet.
 * The tests of this file run in order and share the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type JsonCallOptions, type JsonResponse, jsonCall } from '../support/json-call';
import { type LocalServer, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(180_000);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'e2e wallet password';

describe('wallets over HTTP: App key, login, Bearer token', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-wallets-'));
  let server: LocalServer | undefined;

  // Shared between the ordered tests below.
  let appId = '';
  let appKey = '';
  let walletId = '';
  let walletLocation = '';
  let token = '';

  const call = (path: string, options?: JsonCallOptions) => jsonCall(server?.baseUrl ?? '', path, options);

  beforeAll(async () => {
    server = await startLocalServer({ dataDirectory });
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('create-app prints the App id and its key', async () => {
    // Act
    const result = await runAdmin(['create-app', '--name', 'Scanner fleet'], {
      port: server!.port,
      dataDirectory,
    });
    // Assess
    expect(result.exitCode).toBe(0);
    const printed = JSON.parse(result.stdout);
    appId = printed.appId;
    appKey = printed.apiKey;
    expect(appKey).toMatch(/^ark_/);
  });

  it('creates a wallet with the App key: 201 and a Location that reads it back', async () => {
    // Act
    const created = await call('/v2/wallets', {
      method: 'POST',
      apiKey: appKey,
      body: { username: 'handheld-7', password: PASSWORD, metadata: { site: 'dock 4' } },
    });
    walletId = created.body?.id;
    walletLocation = created.headers.get('location') ?? '';
    const readBack = await call(walletLocation, { apiKey: appKey });
    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'handheld-7',
      appId,
      fullUsername: `handheld-7@${appId}`,
      status: 'active',
      lastLoginAt: null,
    });
    expect(walletLocation).toBe(`/v2/wallets/${walletId}`);
    expect(readBack.status).toBe(200);
    expect(readBack.body.stats).toEqual({ loginCount: 0, apiCallCount: 0, lastApiCallAt: null });
  });

  it('logs the wallet in without any API key: 200 with a token', async () => {
    // Act
    const response = await call('/v2/wallets/login', {
      method: 'POST',
      body: { username: `handheld-7@${appId}`, password: PASSWORD },
    });
    token = response.body?.token;
    // Assess
    expect(response.status).toBe(200);
    expect(token).toMatch(/^arw_[A-Za-z0-9_-]{43}$/);
    expect(response.body.expiresAt).toMatch(ISO_UTC);
    expect(response.body.wallet).toMatchObject({ id: walletId, lastLoginAt: expect.stringMatching(ISO_UTC) });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a wrong password with the 401 of an unknown wallet', async () => {
    // Act
    const wrongPassword = await call('/v2/wallets/login', {
      method: 'POST',
      body: { username: `handheld-7@${appId}`, password: 'not the password' },
    });
    const unknown = await call('/v2/wallets/login', {
      method: 'POST',
      body: { username: `nobody@${appId}`, password: PASSWORD },
    });
    // Assess
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    const { timestamp: _first, ...wrongBody } = wrongPassword.body;
    const { timestamp: _second, ...unknownBody } = unknown.body;
    expect(wrongBody).toEqual({ error: 'Invalid username or password', code: 'UNAUTHORIZED' });
    expect(unknownBody).toEqual(wrongBody);
  });

  it('throttles a guessing address: 5 failures response 401, the next 429 with Retry-After', async () => {
    // Act: a username of its own, so that the other tests' logins from this address go on
    const responses: JsonResponse[] = [];
    for (let attempt = 1; attempt <= 6; attempt++)
      responses.push(
        await call('/v2/wallets/login', {
          method: 'POST',
          body: { username: `guessed@${appId}`, password: 'a guess' },
        }),
      );
    // Assess
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(responses[5]?.body).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(responses[5]?.headers.get('retry-after')).toBe('2');
  });

  it('reads GET /v2/wallets/{id} with the Bearer token, the call counted in its stats', async () => {
    // Act
    const response = await call(`/v2/wallets/${walletId}`, { bearer: token });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: walletId,
      fullUsername: `handheld-7@${appId}`,
      metadata: { site: 'dock 4' },
      stats: { loginCount: 1, apiCallCount: 1, lastApiCallAt: expect.stringMatching(ISO_UTC) },
    });
  });

  it('lets the wallet read but not write: 403 APP_ACCESS_DENIED on PUT', async () => {
    // Act
    const response = await call(`/v2/wallets/${walletId}`, {
      method: 'PUT',
      bearer: token,
      body: { status: 'active' },
    });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('APP_ACCESS_DENIED');
  });

  it('responds 401 UNAUTHORIZED to a wallet route without any credential, and to a forged token', async () => {
    // Act
    const none = await call(`/v2/wallets/${walletId}`);
    const forged = await call(`/v2/wallets/${walletId}`, { bearer: `arw_${'A'.repeat(43)}` });
    // Assess
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      error:
        'Missing credentials: send an API key in X-API-Key, or a wallet session token as Authorization: Bearer <token>',
      code: 'UNAUTHORIZED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({
      error: 'Invalid wallet session token: unknown, expired, or ended (log in again)',
      code: 'UNAUTHORIZED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('ends the session the moment the App deletes the wallet', async () => {
    // Act
    const deleted = await call(`/v2/wallets/${walletId}`, { method: 'DELETE', apiKey: appKey });
    const withToken = await call(`/v2/wallets/${walletId}`, { bearer: token });
    const withAppKey = await call(`/v2/wallets/${walletId}`, { apiKey: appKey });
    const login = await call('/v2/wallets/login', {
      method: 'POST',
      body: { username: `handheld-7@${appId}`, password: PASSWORD },
    });
    // Assess
    expect(deleted.status).toBe(204);
    expect(withToken.status).toBe(401);
    expect(withAppKey.status).toBe(404);
    expect(withAppKey.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(login.status).toBe(401);
  });
});
