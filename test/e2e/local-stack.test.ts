/**
 * End to end, as a user runs it: `npm start` in a child process, the admin CLI with the same
 * PORT and DATA_DIR, HTTP calls with fetch, Ctrl-C, and a restart on the same data folder.
 * The tests of this file run in order and share the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  type LocalServer,
  portAcceptsConnections,
  processIsAlive,
  readStackStateFile,
  runAdmin,
  settledWithin,
  startLocalServer,
} from '../support/local-server';

jest.setTimeout(180_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^ark_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

describe('npm start, the admin CLI and the API over HTTP', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-'));
  let server: LocalServer | undefined;
  const servers: LocalServer[] = [];
  let settings: { port: number; dataDirectory: string };

  // Shared between the ordered tests below.
  let companyId = '';
  let companyKey = '';
  let categoryId = '';
  let dynamoDbPort = 0;
  let revokedKey = '';

  async function call(
    path: string,
    options: { method?: string; apiKey?: string; body?: unknown; rawBody?: string } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (options.apiKey !== undefined) headers['X-API-Key'] = options.apiKey;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${server?.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  const admin = (...args: string[]) => runAdmin(args, settings);

  /** Runs an admin command that must succeed, and parses its one line of output. */
  async function adminOk(...args: string[]): Promise<Record<string, unknown>> {
    const result = await admin(...args);
    if (result.exitCode !== 0) {
      throw new Error(`admin ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
    }
    return JSON.parse(result.stdout);
  }

  beforeAll(async () => {
    server = await startLocalServer({ dataDirectory });
    servers.push(server);
    settings = { port: server.port, dataDirectory };
  });

  afterAll(async () => {
    for (const each of servers) await each.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('writes the stack state file with its own pid, the gateway address and the DynamoDB endpoint', () => {
    // Act
    const state = readStackStateFile(dataDirectory);
    // Assess
    expect(state?.gatewayUrl).toBe(server?.baseUrl);
    expect(state?.environment.LOCAL_DYNAMODB_ENDPOINT).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(processIsAlive(state?.pid ?? -1)).toBe(true);
    dynamoDbPort = Number(new URL(state?.environment.LOCAL_DYNAMODB_ENDPOINT ?? '').port);
  });

  it('create-company prints exactly one JSON line with the company id and its key', async () => {
    // Act
    const result = await admin('create-company', '--name', 'Acme');
    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /^\{"companyId":"[0-9a-f-]{36}","apiKey":"ark_[0-9a-f]{24}_[A-Za-z0-9_-]{43}"\}\n$/,
    );
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(['companyId', 'apiKey']);
    expect(printed.companyId).toMatch(UUID);
    expect(printed.apiKey).toMatch(API_KEY);
    companyId = printed.companyId;
    companyKey = printed.apiKey;
  });

  it('responds 401 UNAUTHORIZED without an API key', async () => {
    // Act
    const response = await call('/v2/categories');
    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error:
        'Missing credentials: send an API key in X-API-Key, or a wallet session token as Authorization: Bearer <token>',
      code: 'UNAUTHORIZED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 401 UNAUTHORIZED for a key that was never issued', async () => {
    // Act
    const malformed = await call('/v2/categories', { apiKey: 'let-me-in' });
    const wellFormed = await call('/v2/categories', { apiKey: `ark_${'0'.repeat(24)}_${'a'.repeat(43)}` });
    // Assess
    expect(malformed.status).toBe(401);
    expect(malformed.body.code).toBe('UNAUTHORIZED');
    expect(wellFormed.status).toBe(401);
    expect(wellFormed.body.code).toBe('UNAUTHORIZED');
  });

  it('responds 401 for a valid key id with a wrong secret', async () => {
    // Prepare
    const forged = `${companyKey.slice(0, 29)}${'A'.repeat(43)}`;
    // Act
    const response = await call('/v2/categories', { apiKey: forged });
    // Assess
    expect(response.status).toBe(401);
  });

  it('creates a category: 201, the category, and a Location that reads it back', async () => {
    // Act
    const created = await call('/v2/categories', {
      method: 'POST',
      apiKey: companyKey,
      body: { name: 'Vehicles', description: 'Cars and vans' },
    });
    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Vehicles',
      description: 'Cars and vans',
      status: 'active',
      metadata: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: created.body.createdAt,
      statistics: { subcategoryCount: 0, objectCount: 0 },
      subcategories: [],
    });
    expect(created.headers.get('location')).toBe(`/v2/categories/${created.body.id}`);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const readBack = await call(created.headers.get('location') ?? '', { apiKey: companyKey });
    expect(readBack.status).toBe(200);
    expect(readBack.body).toEqual(created.body);
    categoryId = created.body.id;
  });

  it('lists the category in the pagination wrapper', async () => {
    // Act
    const response = await call('/v2/categories?limit=5', { apiKey: companyKey });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((category: { id: string }) => category.id)).toEqual([categoryId]);
    expect(response.body.pagination).toEqual({
      limit: 5,
      offset: 0,
      total: 1,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('responds 409 CATEGORY_NAME_EXISTS for the same name in another case', async () => {
    // Act
    const response = await call('/v2/categories', {
      method: 'POST',
      apiKey: companyKey,
      body: { name: 'VEHICLES' },
    });
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('responds 400 VALIDATION_ERROR for malformed JSON and for bad query parameters', async () => {
    // Act
    const malformed = await call('/v2/categories', {
      method: 'POST',
      apiKey: companyKey,
      rawBody: '{"name":',
    });
    const badQuery = await call('/v2/categories?limit=0', { apiKey: companyKey });
    // Assess
    expect(malformed.status).toBe(400);
    expect(malformed.body.validationErrors).toEqual([
      { field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' },
    ]);
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.validationErrors).toEqual([
      { field: 'limit', code: 'RANGE_INVALID', message: 'limit must be from 1 to 100' },
    ]);
  });

  it('responds 404 ROUTE_NOT_FOUND for an unknown route, with or without a key', async () => {
    // Act
    const withoutKey = await call('/v2/nothing-here');
    const withKey = await call('/v2/categories', { method: 'DELETE', apiKey: companyKey });
    // Assess
    expect(withoutKey.status).toBe(404);
    expect(withoutKey.body).toEqual({
      error: 'No such operation',
      code: 'ROUTE_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(withKey.status).toBe(404);
    expect(withKey.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('create-app prints the App id and its key, and that key may not use category operations', async () => {
    // Act
    const printed = await adminOk('create-app', '--name', 'Scanner');
    const response = await call('/v2/categories', { apiKey: printed.apiKey as string });
    // Assess
    expect(Object.keys(printed)).toEqual(['appId', 'apiKey']);
    expect(printed.appId).toMatch(UUID);
    expect(printed.apiKey).toMatch(API_KEY);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      error: 'This operation needs a key of a company',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('create-key gives a categories:read key that can list but not create', async () => {
    // Act
    const printed = await adminOk('create-key', '--company', companyId, '--permissions', 'categories:read');
    const listed = await call('/v2/categories', { apiKey: printed.apiKey as string });
    const created = await call('/v2/categories', {
      method: 'POST',
      apiKey: printed.apiKey as string,
      body: { name: 'Tools' },
    });
    // Assess
    expect(Object.keys(printed)).toEqual(['keyId', 'apiKey']);
    expect((printed.apiKey as string).slice(4, 28)).toBe(printed.keyId);
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(1);
    expect(created.status).toBe(403);
    expect(created.body).toEqual({
      error: 'The API key lacks the permission categories:write',
      code: 'COMPANY_ACCESS_DENIED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('revoke-key prints {keyId, revoked: true} and the key is refused at once, though it was cached', async () => {
    // Prepare: a key that works, and whose authorizer response the gateway now caches
    const { keyId, apiKey } = (await adminOk(
      'create-key',
      '--company',
      companyId,
      '--permissions',
      'categories:read',
    )) as {
      keyId: string;
      apiKey: string;
    };
    const before = await call('/v2/categories', { apiKey });
    // Act
    const result = await admin('revoke-key', '--key-id', keyId);
    const after = await call('/v2/categories', { apiKey });
    // Assess
    expect(before.status).toBe(200);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`{"keyId":"${keyId}","revoked":true}\n`);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHORIZED');
    revokedKey = apiKey;
  });

  it('keeps the company key working after another key is revoked', async () => {
    // Act
    const response = await call('/v2/categories', { apiKey: companyKey });
    // Assess
    expect(response.status).toBe(200);
  });

  it.each([
    ['an unknown command', ['make-coffee']],
    ['no command', []],
    ['create-company without --name', ['create-company']],
    ['create-key with an unknown permission', ['create-key', '--company', 'x', '--permissions', 'root:all']],
    [
      'create-key with both --company and --app',
      ['create-key', '--company', 'a', '--app', 'b', '--permissions', ''],
    ],
  ])('exits 2 with a pointer to --help on stderr and nothing on stdout for %s', async (_label, args) => {
    // Act
    const result = await admin(...args);
    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^admin: .*Usage: npm run --silent admin -- --help$/m);
  });

  it('exits 1 with nothing on stdout for create-key of an unknown company', async () => {
    // Prepare
    const unknownCompany = '00000000-0000-4000-8000-000000000000';
    // Act
    const result = await admin('create-key', '--company', unknownCompany, '--permissions', 'categories:read');
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`admin: No company ${unknownCompany}`);
  });

  it('exits 1 with nothing on stdout for create-key of an App id given as a company', async () => {
    // Prepare
    const { appId } = await adminOk('create-app', '--name', 'Other app');
    // Act
    const result = await admin(
      'create-key',
      '--company',
      appId as string,
      '--permissions',
      'categories:read',
    );
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('exits 1 with nothing on stdout for revoke-key of an unknown key id', async () => {
    // Act
    const result = await admin('revoke-key', '--key-id', 'f'.repeat(24));
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`admin: No API key ${'f'.repeat(24)}`);
  });

  it('refuses a second npm start on the same data folder while the first runs', async () => {
    // Act
    let failure: unknown;
    try {
      const second = await startLocalServer({ dataDirectory, timeoutMs: 60_000 });
      servers.push(second);
    } catch (error) {
      failure = error;
    }
    // Assess
    expect(String(failure)).toContain('Another npm start');
    expect((await call('/v2/categories', { apiKey: companyKey })).status).toBe(200);
  });

  it('stops on SIGINT: the server ends, DynamoDB Local is gone and the state file is removed', async () => {
    // Prepare
    const state = readStackStateFile(dataDirectory);
    const running = server as LocalServer;
    expect(await portAcceptsConnections(dynamoDbPort)).toBe(true);
    // Act: SIGINT to the server process itself (its pid is in the state file)
    process.kill(state?.pid as number, 'SIGINT');
    const exitCode = await settledWithin(running.exited, 30_000);
    // Assess
    expect(exitCode).toBe(0);
    expect(processIsAlive(state?.pid as number)).toBe(false);
    expect(await eventually(async () => !(await portAcceptsConnections(dynamoDbPort)), 10_000)).toBe(true);
    expect(await portAcceptsConnections(running.port)).toBe(false);
    expect(readStackStateFile(dataDirectory)).toBeUndefined();
  });

  it('the admin CLI exits 1 with nothing on stdout when no stack runs on the data folder', async () => {
    // Act
    const result = await admin('create-company', '--name', 'Late');
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No running local stack for the data folder');
  });

  it('reports an unknown command as a usage error (exit 2) even when no stack runs', async () => {
    // Act
    const result = await admin('make-coffee');
    // Assess
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Unknown command "make-coffee"');
    expect(result.exitCode).toBe(2);
  });

  it('keeps the data across a restart on the same data folder', async () => {
    // Prepare
    server = await startLocalServer({ dataDirectory });
    servers.push(server);
    settings = { port: server.port, dataDirectory };
    // Act
    const read = await call(`/v2/categories/${categoryId}`, { apiKey: companyKey });
    const listed = await call('/v2/categories', { apiKey: companyKey });
    // Assess
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: categoryId, name: 'Vehicles', description: 'Cars and vans' });
    expect(listed.body.pagination.total).toBe(1);
  });

  it('keeps a revoked key revoked and the uniqueness of names after the restart', async () => {
    // Act
    const duplicate = await call('/v2/categories', {
      method: 'POST',
      apiKey: companyKey,
      body: { name: 'vehicles' },
    });
    const withRevokedKey = await call('/v2/categories', { apiKey: revokedKey });
    // Assess
    expect(withRevokedKey.status).toBe(401);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('stops on Ctrl-C (SIGINT to the whole process group) and leaves no DynamoDB Local behind', async () => {
    // Prepare
    const running = server as LocalServer;
    const state = readStackStateFile(dataDirectory);
    const port = Number(new URL(state?.environment.LOCAL_DYNAMODB_ENDPOINT ?? '').port);
    expect(await portAcceptsConnections(port)).toBe(true);
    // Act
    running.signalGroup('SIGINT');
    const ended = await settledWithin(running.exited, 30_000);
    // Assess
    expect(ended).not.toBe('timeout');
    expect(await eventually(async () => !(await portAcceptsConnections(port)), 10_000)).toBe(true);
    expect(processIsAlive(state?.pid as number)).toBe(false);
    expect(readStackStateFile(dataDirectory)).toBeUndefined();
  });
});
