/**
 * The shared handler stack, offline: the operation-table checks (principal kind, permission),
 * request parsing and response shaping, with a stand-in handler that touches no storage.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  ACCESS_MANAGEMENT_REFUSAL,
  authorizeOperation,
  httpHandler,
  resourceLocation,
} from '../../lambdas/http/http-handler';
import { operations } from '../../lambdas/operations';
import type { CodeWithStatus } from '../../lambdas/shared/error-catalogue';
import { ForbiddenError } from '../../lambdas/shared/errors';
import type { Principal } from '../../lambdas/shared/principal';
import { ROLE_NAMES, ROLES, type Role } from '../../lambdas/shared/roles';
import { object, optional, required, string } from '../../lambdas/shared/schema';
import { invoke, proxyEvent } from '../support/api-events';
import { appPrincipal, companyPrincipal } from '../support/principals';

/** The error a call throws, or fails the test when it does not throw. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('authorizeOperation', () => {
  it("refuses a viewer on an audit-trail row even when any key may call it (the role's rule comes first)", () => {
    // Prepare: a public read of the log, were it ever marked as the audit trail
    const row = { ...operations.getLedgerCheckpoint, auditTrail: true as const };
    const viewer: Principal = {
      ...companyPrincipal([...ROLES.viewer.permissions]),
      person: { principal: 'user:demo-vera@idp.example.com', role: 'viewer' },
    };
    // Act
    const error = thrownBy(() => authorizeOperation(row, viewer));
    // Assess
    expect(error).toMatchObject({
      statusCode: 403,
      message: expect.stringMatching(/^The role viewer may not read the audit trail/),
    });
  });

  describe("on a row that manages the company's access", () => {
    const personOf = (role: Role): Principal => ({
      ...companyPrincipal([...ROLES[role].permissions]),
      person: { principal: `user:demo-${role}@idp.example.com`, role },
    });

    it('lets a person of a role that manages access through', () => {
      // Act / Assess
      expect(() => authorizeOperation(operations.createApiKey, personOf('admin'))).not.toThrow();
    });

    it.each(ROLE_NAMES.filter((role) => !ROLES[role].managesAccess))(
      'refuses a person with the role %s with 403 and says who may',
      (role) => {
        // Act
        const error = thrownBy(() => authorizeOperation(operations.addIdentityProvider, personOf(role)));
        // Assess
        expect(error).toMatchObject({
          statusCode: 403,
          code: 'COMPANY_ACCESS_DENIED',
          message: ACCESS_MANAGEMENT_REFUSAL,
        });
      },
    );

    it('refuses an API key, even one with every permission of a company', () => {
      // Prepare
      const key = companyPrincipal();
      // Act
      const error = thrownBy(() => authorizeOperation(operations.revokeApiKey, key));
      // Assess
      expect(error).toMatchObject({
        statusCode: 403,
        code: 'COMPANY_ACCESS_DENIED',
        message: ACCESS_MANAGEMENT_REFUSAL,
      });
    });
  });

  it('lets a company key with the permission through', () => {
    // Prepare
    const principal = companyPrincipal(['categories:write']);
    // Act / Assess
    expect(() => authorizeOperation(operations.createCategory, principal)).not.toThrow();
  });

  it("refuses an App key on a company operation with 403 and the row's deniedCode", () => {
    // Prepare: an App key that even holds the permission
    const principal = appPrincipal(['categories:write']);
    // Act
    const error = thrownBy(() => authorizeOperation(operations.createCategory, principal));
    // Assess
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      statusCode: 403,
      code: 'COMPANY_ACCESS_DENIED',
      message: 'This operation needs a key of a company',
    });
  });

  it('refuses a company key without the permission with 403 COMPANY_ACCESS_DENIED', () => {
    // Prepare
    const principal = companyPrincipal(['categories:read']);
    // Act
    const error = thrownBy(() => authorizeOperation(operations.createCategory, principal));
    // Assess
    expect(error).toMatchObject({
      statusCode: 403,
      code: 'COMPANY_ACCESS_DENIED',
      message: 'The API key lacks the permission categories:write',
    });
  });

  it('uses the deniedCode of the row, whatever it is', () => {
    // Prepare
    const walletOperation = {
      ...operations.listCategories,
      principal: 'app' as const,
      permission: 'wallets:read' as const,
      // Not a code of the catalogue: the types refuse it, the handler returns whatever the row says.
      deniedCode: 'WALLET_ACCESS_DENIED' as CodeWithStatus<403>,
    };
    // Act
    const wrongKind = thrownBy(() => authorizeOperation(walletOperation, companyPrincipal()));
    const noPermission = thrownBy(() => authorizeOperation(walletOperation, appPrincipal(['wallets:write'])));
    // Assess
    expect(wrongKind).toMatchObject({
      statusCode: 403,
      code: 'WALLET_ACCESS_DENIED',
      message: 'This operation needs a key of an App',
    });
    expect(noPermission).toMatchObject({ statusCode: 403, code: 'WALLET_ACCESS_DENIED' });
  });
});

describe('resourceLocation', () => {
  it('keeps the stage prefix API Gateway adds in AWS', () => {
    // Prepare
    const event = proxyEvent({ method: 'POST', path: '/v2/categories' });
    event.requestContext.path = '/prod/v2/categories';
    // Act
    const location = resourceLocation(event, '/v2/categories/42');
    // Assess
    expect(location).toBe('/prod/v2/categories/42');
  });

  it('is the bare path when the request has no stage prefix (local mode)', () => {
    // Prepare
    const event = proxyEvent({ method: 'POST', path: '/v2/categories' });
    event.requestContext.path = '/v2/categories';
    // Act
    const location = resourceLocation(event, '/v2/categories/42');
    // Assess
    expect(location).toBe('/v2/categories/42');
  });

  it('falls back to event.path when the request context has no path', () => {
    // Prepare
    const event = proxyEvent({ method: 'POST', path: '/v2/categories' });
    (event.requestContext as { path?: string }).path = undefined;
    // Act
    const location = resourceLocation(event, '/v2/categories/42');
    // Assess
    expect(location).toBe('/v2/categories/42');
  });
});

describe('httpHandler', () => {
  const echoOperation = {
    method: 'PUT' as const,
    path: '/v2/things/{thingId}',
    handler: 'things/echo',
    summary: 'echo',
    principal: 'company' as const,
    permission: 'objects:write' as const,
    deniedCode: 'COMPANY_ACCESS_DENIED' as const,
    pathParameters: object({ thingId: required(string({ format: 'uuid' })) }),
    query: object({ verbose: optional(string()) }),
    body: object({ name: required(string({ min: 2 })) }),
    successStatus: 200,
  };
  const thingId = '0b4f2a52-5b7c-4d0e-9a43-6f8e3c2d1a00';
  let received: unknown;
  const handler = httpHandler(echoOperation, async ({ principal, path, query, body }) => {
    received = { tenantId: principal.tenantId, path, query, body };
    return { body: { ok: true }, headers: { 'X-Extra': '1' } };
  });

  beforeEach(() => {
    received = undefined;
  });

  it('passes the validated path, query and body and responds with the row successStatus', async () => {
    // Prepare
    const principal = companyPrincipal(['objects:write']);
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: `/v2/things/${thingId}`,
      principal,
      pathParameters: { thingId },
      query: { verbose: 'yes', ignored: 'x' },
      body: { name: 'Drill', extra: true },
    });
    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8', 'X-Extra': '1' });
    expect(result.body).toEqual({ ok: true });
    expect(received).toEqual({
      tenantId: principal.tenantId,
      path: { thingId },
      query: { verbose: 'yes' },
      body: { name: 'Drill' },
    });
  });

  it('responds 401 UNAUTHORIZED when the event carries no principal', async () => {
    // Act
    const result = await invoke(handler, { method: 'PUT', path: '/v2/things/x', body: { name: 'ok' } });
    // Assess
    expect(result.statusCode).toBe(401);
    expect(result.body).toEqual({
      error: 'Missing or invalid credentials',
      code: 'UNAUTHORIZED',
      timestamp: expect.any(String),
    });
    expect(received).toBeUndefined();
  });

  it('checks the permission before validating the request', async () => {
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: '/v2/things/x',
      principal: companyPrincipal(['objects:read']),
      pathParameters: { thingId: 'x' },
      rawBody: '{not json',
    });
    // Assess
    expect(result.statusCode).toBe(403);
    expect(result.body.code).toBe('COMPANY_ACCESS_DENIED');
  });

  it('responds 400 for an invalid path parameter, before reading the body', async () => {
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: '/v2/things/x',
      principal: companyPrincipal(['objects:write']),
      pathParameters: { thingId: 'x' },
      body: { name: 'D' },
    });
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.body.validationErrors).toEqual([
      { field: 'thingId', code: 'FORMAT_INVALID', message: 'thingId must be a UUID' },
    ]);
    expect(received).toBeUndefined();
  });

  it('responds 400 FORMAT_INVALID on "body" for malformed JSON', async () => {
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: `/v2/things/${thingId}`,
      principal: companyPrincipal(['objects:write']),
      pathParameters: { thingId },
      rawBody: '{"name": "Drill"',
    });
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.body).toEqual({
      error: 'The body is not valid JSON',
      code: 'VALIDATION_ERROR',
      timestamp: expect.any(String),
      validationErrors: [{ field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' }],
    });
  });

  it('reads an empty body as {} so that required fields report REQUIRED', async () => {
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: `/v2/things/${thingId}`,
      principal: companyPrincipal(['objects:write']),
      pathParameters: { thingId },
    });
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.body.validationErrors).toEqual([
      { field: 'name', code: 'REQUIRED', message: 'name is required' },
    ]);
  });

  it('refuses a JSON null body as not an object, like any other non-object body', async () => {
    // Act
    const result = await invoke(handler, {
      method: 'PUT',
      path: `/v2/things/${thingId}`,
      principal: companyPrincipal(['objects:write']),
      pathParameters: { thingId },
      rawBody: 'null',
    });
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.body.validationErrors).toEqual([
      { field: 'body', code: 'TYPE_INVALID', message: 'body must be a JSON object' },
    ]);
  });

  it('decodes a base64-encoded body', async () => {
    // Prepare
    const event: APIGatewayProxyEvent = proxyEvent({
      method: 'PUT',
      path: `/v2/things/${thingId}`,
      principal: companyPrincipal(['objects:write']),
      pathParameters: { thingId },
    });
    event.body = Buffer.from('{"name":"Säge"}', 'utf8').toString('base64');
    event.isBase64Encoded = true;
    // Act
    const result = await handler(event, { awsRequestId: 'r' } as never);
    // Assess
    expect(result.statusCode).toBe(200);
    expect(received).toMatchObject({ body: { name: 'Säge' } });
  });
});
