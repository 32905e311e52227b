/**
 * The local gateway over HTTP, in process, against DynamoDB Local: routing by the operation
 * table, the REQUEST authorizer and its per-key cache, API Gateway's own responses, and the proxy
 * events it builds.
 */
import { issueApiKey, revokeApiKey } from '../../lambdas/domain/identity/api-keys';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';
import { freePort } from '../../local/free-port';
import {
  AUTHORIZER_CACHE_PATH,
  LOCAL_MAX_REQUEST_BODY_BYTES,
  type LocalGateway,
  startLocalGateway,
} from '../../local/local-gateway';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Response {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

async function send(
  gateway: { url: string },
  path: string,
  options: {
    method?: string;
    apiKey?: string;
    headerName?: string;
    body?: string | Buffer;
    contentType?: string;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined) headers[options.headerName ?? 'X-API-Key'] = options.apiKey;
  if (options.contentType) headers['Content-Type'] = options.contentType;
  const response = await fetch(`${gateway.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('local gateway with the shared API Gateway settings', () => {
  let gateway: LocalGateway;
  const target = { url: '' };

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startLocalGateway({ port });
    target.url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const companyKey = async (permissions = COMPANY_PERMISSIONS) =>
    (await issueApiKey('company', crypto.randomUUID(), permissions)).apiKey;

  it('responds 404 ROUTE_NOT_FOUND for a path of no operation, before asking for a key', async () => {
    // Prepare
    const invocationsBefore = gateway.authorizerStatistics.invocations;
    // Act
    const response = await send(target, '/v2/unknown');
    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: 'No such operation',
      code: 'ROUTE_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(response.headers.get('x-amzn-errortype')).toBe('MISSING_AUTHENTICATION_TOKEN');
    expect(gateway.authorizerStatistics.invocations).toBe(invocationsBefore);
  });

  it('responds 404 for a known path with a method it does not have', async () => {
    // Act
    const response = await send(target, '/v2/categories', { method: 'PATCH', apiKey: await companyKey() });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('responds 401 UNAUTHORIZED without a key and with an empty key', async () => {
    // Act
    const missing = await send(target, '/v2/categories');
    const empty = await send(target, '/v2/categories', { apiKey: '' });
    // Assess
    for (const response of [missing, empty]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error:
          'Missing credentials: send an API key in X-API-Key, or a wallet session token as Authorization: Bearer <token>',
        code: 'UNAUTHORIZED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
      expect(response.headers.get('x-amzn-errortype')).toBe('UNAUTHORIZED');
    }
  });

  it('responds 401 for a key that was never issued, saying the API key is invalid', async () => {
    // Act
    const response = await send(target, '/v2/categories', {
      apiKey: `ark_${'1'.repeat(24)}_${'x'.repeat(43)}`,
    });
    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: 'Invalid API key: it is not a key of this API, or it was revoked',
      code: 'UNAUTHORIZED',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it.each([
    [
      'an unknown wallet token',
      `Bearer arw_${'A'.repeat(43)}`,
      'Invalid wallet session token: unknown, expired, or ended (log in again)',
    ],
    [
      'a malformed wallet token',
      'Bearer not-a-token',
      'Invalid wallet session token: unknown, expired, or ended (log in again)',
    ],
    [
      'another Authorization scheme',
      'Basic dXNlcjpwYXNz',
      "The Authorization header must read Bearer <wallet session token or identity provider's token>",
    ],
  ])(
    'responds 401 naming the wallet session token for %s, never the API key',
    async (_label, authorization, error) => {
      // Act
      const response = await send(target, '/v2/wallets', {
        apiKey: authorization,
        headerName: 'Authorization',
      });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error,
        code: 'UNAUTHORIZED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    },
  );

  it('runs the handler for a valid key: 201, a stage-less Location and a request id', async () => {
    // Prepare
    const apiKey = await companyKey();
    // Act
    const response = await send(target, '/v2/categories', {
      method: 'POST',
      apiKey,
      body: JSON.stringify({ name: 'Vehicles' }),
      contentType: 'application/json',
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(UUID);
    expect(response.headers.get('location')).toBe(`/v2/categories/${response.body.id}`);
    expect(response.headers.get('x-amzn-requestid')).toMatch(UUID);
  });

  it('reads the key header whatever the case of its name', async () => {
    // Act
    const response = await send(target, '/v2/categories', {
      apiKey: await companyKey(),
      headerName: 'x-api-key',
    });
    // Assess
    expect(response.status).toBe(200);
  });

  it('passes path and query parameters to the handler', async () => {
    // Prepare
    const apiKey = await companyKey();
    for (const name of ['c1', 'c2', 'c3']) {
      await send(target, '/v2/categories', { method: 'POST', apiKey, body: JSON.stringify({ name }) });
    }
    // Act
    const page = await send(target, '/v2/categories?limit=2&offset=1&sort=name%3Aasc', { apiKey });
    const byName = await send(target, '/v2/categories?name=C2', { apiKey });
    // Assess
    expect(page.body.data.map((category: { name: string }) => category.name)).toEqual(['c2', 'c3']);
    expect(page.body.pagination).toEqual({
      limit: 2,
      offset: 1,
      total: 3,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
    expect(byName.body.data.map((category: { name: string }) => category.name)).toEqual(['c2']);
    const one = await send(target, `/v2/categories/${byName.body.data[0].id}`, { apiKey });
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('c2');
  });

  it('takes the last value of a repeated query parameter, as API Gateway does', async () => {
    // Act
    const response = await send(target, '/v2/categories?limit=1&limit=7', { apiKey: await companyKey() });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.pagination.limit).toBe(7);
  });

  it('responds 400 from the handler for invalid query parameters', async () => {
    // Act
    const response = await send(target, '/v2/categories?offset=-1', { apiKey: await companyKey() });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'offset', code: 'RANGE_INVALID', message: 'offset must be at least 0' },
    ]);
  });

  it('responds 403 COMPANY_ACCESS_DENIED to an App key', async () => {
    // Prepare
    const { apiKey } = await issueApiKey('app', crypto.randomUUID(), APP_PERMISSIONS);
    // Act
    const response = await send(target, '/v2/categories', { apiKey });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('COMPANY_ACCESS_DENIED');
  });

  it('responds 413 REQUEST_TOO_LARGE for a body over the local body limit, before the handler', async () => {
    // Prepare
    const body = Buffer.alloc(LOCAL_MAX_REQUEST_BODY_BYTES + 1, 0x20);
    // Act
    const response = await send(target, '/v2/categories', {
      method: 'POST',
      apiKey: await companyKey(),
      body,
      contentType: 'application/json',
    });
    // Assess
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: 'The request body is too large',
      code: 'REQUEST_TOO_LARGE',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 400 VALIDATION_ERROR for malformed JSON sent over HTTP', async () => {
    // Act
    const response = await send(target, '/v2/categories', {
      method: 'POST',
      apiKey: await companyKey(),
      body: '{"name":',
      contentType: 'application/json',
    });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' },
    ]);
  });

  it('passes a body of a binary media type base64-encoded, byte for byte', async () => {
    // Prepare: JSON sent as application/octet-stream reaches the handler base64-encoded
    const apiKey = await companyKey();
    // Act
    const response = await send(target, '/v2/categories', {
      method: 'POST',
      apiKey,
      body: Buffer.from(JSON.stringify({ name: 'Bytes 😀' }), 'utf8'),
      contentType: 'application/octet-stream',
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('Bytes 😀');
  });
});

describe('local gateway with a 60 s authorizer cache', () => {
  let gateway: LocalGateway;
  const target = { url: '' };

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startLocalGateway({ port, authorizerCacheTtlSeconds: 60 });
    target.url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const companyKey = async () =>
    (await issueApiKey('company', crypto.randomUUID(), COMPANY_PERMISSIONS)).apiKey;

  it('runs the authorizer once per key and serves later requests from its cache, on every route', async () => {
    // Prepare
    const apiKey = await companyKey();
    const before = { ...gateway.authorizerStatistics };
    // Act
    const listed = await send(target, '/v2/categories', { apiKey });
    const created = await send(target, '/v2/categories', {
      method: 'POST',
      apiKey,
      body: JSON.stringify({ name: 'Cached' }),
    });
    const read = await send(target, `/v2/categories/${created.body.id}`, { apiKey });
    // Assess
    expect([listed.status, created.status, read.status]).toEqual([200, 201, 200]);
    expect(gateway.authorizerStatistics.invocations - before.invocations).toBe(1);
    expect(gateway.authorizerStatistics.cacheHits - before.cacheHits).toBe(2);
  });

  it('keeps accepting a revoked key from its cache until the cache is flushed, then refuses it', async () => {
    // Prepare
    const { keyId, apiKey } = await issueApiKey('company', crypto.randomUUID(), COMPANY_PERMISSIONS);
    expect((await send(target, '/v2/categories', { apiKey })).status).toBe(200);
    await revokeApiKey(keyId);
    // Act
    const fromCache = await send(target, '/v2/categories', { apiKey });
    const flush = await fetch(`${target.url}${AUTHORIZER_CACHE_PATH}`, { method: 'DELETE' });
    await flush.arrayBuffer();
    const afterFlush = await send(target, '/v2/categories', { apiKey });
    // Assess
    expect(fromCache.status).toBe(200);
    expect(flush.status).toBe(204);
    expect(afterFlush.status).toBe(401);
  });

  it('asks the authorizer again for a key it refused (refusals are not cached)', async () => {
    // Prepare
    const before = gateway.authorizerStatistics.invocations;
    const unknownKey = `ark_${'2'.repeat(24)}_${'y'.repeat(43)}`;
    // Act
    await send(target, '/v2/categories', { apiKey: unknownKey });
    await send(target, '/v2/categories', { apiKey: unknownKey });
    // Assess
    expect(gateway.authorizerStatistics.invocations - before).toBe(2);
  });
});

describe('local gateway with the authorizer cache off', () => {
  let gateway: LocalGateway;
  const target = { url: '' };

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startLocalGateway({ port, authorizerCacheTtlSeconds: 0 });
    target.url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('runs the authorizer for every request, and a flush makes a revoked key refused at once', async () => {
    // Prepare
    const { keyId, apiKey } = await issueApiKey('company', crypto.randomUUID(), COMPANY_PERMISSIONS);
    // Act
    const first = await send(target, '/v2/categories', { apiKey });
    await revokeApiKey(keyId);
    const flush = await fetch(`${target.url}${AUTHORIZER_CACHE_PATH}`, { method: 'DELETE' });
    await flush.arrayBuffer();
    const second = await send(target, '/v2/categories', { apiKey });
    // Assess
    expect(first.status).toBe(200);
    expect(flush.status).toBe(204);
    expect(second.status).toBe(401);
    expect(gateway.authorizerStatistics).toEqual({ invocations: 2, cacheHits: 0 });
  });
});
