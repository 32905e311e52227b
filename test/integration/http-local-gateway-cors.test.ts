/**
 * CORS and HEAD through the local gateway, as a browser meets them: preflights served by the
 * gateway (as API Gateway's mock does), the allowed origin on every response (the handler's, its
 * errors', and the gateway's own 401 and 404), nothing for another origin; HEAD on GET routes
 * gives GET's status and headers without a body.
 */
import { issueApiKey } from '../../lambdas/domain/identity/api-keys';
import { CORS_ALLOWED_ORIGINS_ENVIRONMENT } from '../../lambdas/http/cors';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';
import { freePort } from '../../local/free-port';
import { type LocalGateway, startLocalGateway } from '../../local/local-gateway';

const CONSOLE = 'http://console.test:8080';
const OTHER = 'https://elsewhere.test';

describe('local gateway: CORS for the allowed origins', () => {
  let gateway: LocalGateway;
  let url = '';
  const previous = process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT];

  beforeAll(async () => {
    process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT] = `${CONSOLE},http://localhost:5173`;
    const port = await freePort();
    gateway = await startLocalGateway({ port });
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
    if (previous === undefined) delete process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT];
    else process.env[CORS_ALLOWED_ORIGINS_ENVIRONMENT] = previous;
  });

  const preflight = (path: string, origin: string) =>
    fetch(`${url}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-api-key,content-type,idempotency-key',
      },
    });

  it('responds to a preflight from an allowed origin with 204, the methods and the headers a client sends', async () => {
    // Act
    const response = await preflight('/v2/categories/0b7e9f1c-6a43-4ad1-9a55-38b0e1f3b3a2', CONSOLE);
    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(response.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']),
    );
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['x-api-key', 'content-type', 'idempotency-key', 'authorization']),
    );
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('responds to a preflight from another origin without CORS headers (the browser blocks the call)', async () => {
    // Act
    const response = await preflight('/v2/categories', OTHER);
    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('responds to a preflight on a path of no operation with 404 ROUTE_NOT_FOUND', async () => {
    // Act
    const response = await preflight('/v2/nothing-here', CONSOLE);
    // Assess
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  });

  it('puts the origin on a handler response, and lets the page read Location and the request id', async () => {
    // Prepare
    const { apiKey } = await issueApiKey('company', crypto.randomUUID(), COMPANY_PERMISSIONS);
    // Act
    const response = await fetch(`${url}/v2/categories`, {
      method: 'POST',
      headers: { Origin: CONSOLE, 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'From a browser' }),
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Location/);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/x-amzn-RequestId/);
  });

  it("puts the origin on errors: a handler's 403, the gateway's 401 and 404", async () => {
    // Prepare
    const { apiKey: appKey } = await issueApiKey('app', crypto.randomUUID(), APP_PERMISSIONS);
    // Act
    const forbidden = await fetch(`${url}/v2/categories`, {
      headers: { Origin: CONSOLE, 'X-API-Key': appKey },
    });
    const unauthorized = await fetch(`${url}/v2/categories`, { headers: { Origin: CONSOLE } });
    const notFound = await fetch(`${url}/v2/nothing-here`, { headers: { Origin: CONSOLE } });
    // Assess
    expect([forbidden.status, unauthorized.status, notFound.status]).toEqual([403, 401, 404]);
    for (const response of [forbidden, unauthorized, notFound]) {
      expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect(((await response.json()) as { code: string }).code).toEqual(expect.any(String));
    }
  });

  it('gives another origin no CORS header on an actual response', async () => {
    // Act
    const response = await fetch(`${url}/v2/openapi.json`, { headers: { Origin: OTHER } });
    await response.arrayBuffer();
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('local gateway: HEAD on GET routes', () => {
  let gateway: LocalGateway;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    gateway = await startLocalGateway({ port });
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await gateway.close();
  });

  it("responds to HEAD on the OpenAPI document with GET's status, type and length, and no body", async () => {
    // Act
    const get = await fetch(`${url}/v2/openapi.json`);
    const getBody = Buffer.from(await get.arrayBuffer());
    const head = await fetch(`${url}/v2/openapi.json`, { method: 'HEAD' });
    const headBody = Buffer.from(await head.arrayBuffer());
    // Assess
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(getBody.length));
    expect(head.headers.get('cache-control')).toBe('public, max-age=300');
    expect(headBody.length).toBe(0);
  });

  it('checks the key and the permission on HEAD as on GET', async () => {
    // Prepare
    const companyId = crypto.randomUUID();
    const { apiKey } = await issueApiKey('company', companyId, []);
    const download = `${url}/v2/companies/${companyId}/files/${crypto.randomUUID()}`;
    // Act
    const missing = await fetch(download, { method: 'HEAD' });
    const forbidden = await fetch(download, { method: 'HEAD', headers: { 'X-API-Key': apiKey } });
    // Assess
    expect(missing.status).toBe(401);
    expect(forbidden.status).toBe(403);
  });

  it('serves HEAD only on the GETs of documents and downloads, as the stack routes it', async () => {
    // Act
    const list = await fetch(`${url}/v2/categories`, { method: 'HEAD' });
    // Assess: a list is no document, so its path has no HEAD method (API Gateway: no route).
    expect(list.status).not.toBe(200);
    expect(list.status).not.toBe(401);
  });

  it('responds to HEAD on a path of no GET route with 404 ROUTE_NOT_FOUND', async () => {
    // Act
    const response = await fetch(`${url}/v2/categories/0b7e9f1c-6a43-4ad1-9a55-38b0e1f3b3a2/subcategories`, {
      method: 'HEAD',
    });
    // Assess
    expect(response.status).toBe(404);
  });
});
