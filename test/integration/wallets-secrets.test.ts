/**
 * The password is write-only: no response body or header of any wallet endpoint (successes and
 * errors alike), and no log line, holds the password, its hash, or the hash's salt or digest.
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as authorizer } from '../../lambdas/authorizer/api-key-authorizer';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as deleteWalletHandler } from '../../lambdas/handlers/wallets/delete-wallet';
import { handler as getWalletHandler } from '../../lambdas/handlers/wallets/get-wallet';
import { handler as listWalletsHandler } from '../../lambdas/handlers/wallets/list-wallets';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { handler as updateWalletHandler } from '../../lambdas/handlers/wallets/update-wallet';
import { tenantPartition } from '../../lambdas/repositories/tenant-keys';
import { walletKey } from '../../lambdas/repositories/wallet-repository';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { type EventOptions, invoke, lambdaContext, proxyEvent } from '../support/api-events';
import { appPrincipal } from '../support/principals';

jest.setTimeout(30_000);

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const FIRST_PASSWORD = 'Secret-First-Password-0451';
const SECOND_PASSWORD = 'Secret-Second-Password-1138';

describe('wallet passwords never leave the service', () => {
  const rawResponses: string[] = [];
  const logLines: string[] = [];
  const hashes: string[] = [];
  const spies: jest.SpyInstance[] = [];

  /** Calls a handler and keeps its raw response (status line, headers and body text). */
  async function call(handler: Handler, options: EventOptions, authorizerContext?: Record<string, unknown>) {
    const event = proxyEvent(options);
    if (authorizerContext) (event.requestContext as { authorizer: unknown }).authorizer = authorizerContext;
    const result = await handler(event, lambdaContext);
    rawResponses.push(JSON.stringify(result));
    return { statusCode: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
  }

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      spies.push(
        jest.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
          logLines.push(
            parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '),
          );
        }),
      );
    }
    const app = appPrincipal();
    const body = (extra: object) => ({ username: 'keeper', password: FIRST_PASSWORD, ...extra });
    // Every endpoint, successes and refusals, with the passwords in play.
    const created = await call(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: app,
      body: body({}),
    });
    const walletId = created.body.id as string;
    const at = (method: string, extra: Partial<EventOptions> = {}): EventOptions => ({
      method,
      path: `/v2/wallets/${walletId}`,
      pathParameters: { walletId },
      principal: app,
      ...extra,
    });
    hashes.push((await storedHash(app.tenantId, walletId)) as string);
    await call(createWalletHandler, { method: 'POST', path: '/v2/wallets', principal: app, body: body({}) }); // 409
    await call(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: app,
      body: body({ username: 'a@b' }),
    }); // 400
    await call(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: app,
      rawBody: `{"username":"keeper2","password":"${FIRST_PASSWORD}"`,
    }); // malformed JSON
    await call(listWalletsHandler, {
      method: 'GET',
      path: '/v2/wallets',
      principal: app,
      query: { status: 'all' },
    });
    await call(getWalletHandler, at('GET'));
    const login = await call(loginHandler, {
      method: 'POST',
      path: '/v2/wallets/login',
      body: { username: created.body.fullUsername, password: FIRST_PASSWORD },
    });
    await call(loginHandler, {
      method: 'POST',
      path: '/v2/wallets/login',
      body: { username: created.body.fullUsername, password: SECOND_PASSWORD },
    }); // 401
    const authorization = await authorizer({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:r:1:api/prod/GET/v2/wallets',
      headers: { Authorization: `Bearer ${login.body.token}` },
    } as never);
    rawResponses.push(JSON.stringify(authorization));
    await call(getWalletHandler, at('GET', { principal: undefined }), {
      principalId: authorization.principalId,
      ...authorization.context,
    });
    await call(updateWalletHandler, at('PUT', { body: { password: SECOND_PASSWORD, metadata: { a: 1 } } }));
    hashes.push((await storedHash(app.tenantId, walletId)) as string);
    await call(updateWalletHandler, at('PUT', { body: { password: 'short' } })); // 400
    await call(loginHandler, {
      method: 'POST',
      path: '/v2/wallets/login',
      body: { username: created.body.fullUsername, password: SECOND_PASSWORD },
    });
    await call(deleteWalletHandler, at('DELETE'));
    await call(getWalletHandler, at('GET')); // 404
    await call(updateWalletHandler, at('PUT', { body: { password: FIRST_PASSWORD } })); // 404
  });

  afterAll(() => {
    for (const spy of spies) spy.mockRestore();
  });

  const storedHash = async (appId: string, walletId: string) =>
    (await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: walletKey(appId, walletId) }))).Item
      ?.passwordHash;

  /** The password, the whole stored hash, and its salt and digest parts. */
  const secrets = () => [
    FIRST_PASSWORD,
    SECOND_PASSWORD,
    ...hashes.flatMap((hash) => [hash, ...hash.split('$').slice(4)]),
  ];

  it('made every call it meant to, with two distinct hashes stored', () => {
    // Assess
    expect(rawResponses.length).toBeGreaterThanOrEqual(16);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
  });

  it('has no password, hash, salt or digest in any response', () => {
    // Assess
    for (const response of rawResponses) {
      for (const secret of secrets()) expect(response).not.toContain(secret);
      expect(response).not.toContain('scrypt$');
      expect(response).not.toMatch(/passwordHash|"password"/);
    }
  });

  it('has no password, hash, salt or digest in any log line', () => {
    // Assess
    for (const line of logLines) {
      for (const secret of secrets()) expect(line).not.toContain(secret);
    }
  });
});

describe('an Idempotency-Key on wallet creation keeps no fast hash of the password', () => {
  const PASSWORD = 'Idempotent-Secret-7781';

  const create = (app: ReturnType<typeof appPrincipal>, rawBody: string, key: string) =>
    invoke(createWalletHandler, {
      method: 'POST',
      path: '/v2/wallets',
      principal: app,
      rawBody,
      headers: { 'Idempotency-Key': key },
    });

  /** Every attribute value of the App's Idempotency-Key records, as text. */
  async function idempotencyRecords(appId: string): Promise<string[]> {
    const { Items = [] } = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${tenantPartition(appId)}#IDEMPOTENCY` },
      }),
    );
    return Items.map((item) => JSON.stringify(item));
  }

  it('stores a fingerprint that is not a fast hash of the request, and still tells bodies apart', async () => {
    // Prepare
    const app = appPrincipal();
    const body = JSON.stringify({ username: 'idempotent', password: PASSWORD });
    const otherPassword = JSON.stringify({ username: 'idempotent', password: `${PASSWORD}-other` });
    // What a fingerprint over the raw request would be, and hashes of it and of the body.
    const fastFingerprint = createHash('sha256').update(`POST /v2/wallets\n${body}`).digest('hex');
    const fastTraces = [
      PASSWORD,
      fastFingerprint,
      createHash('md5').update(JSON.stringify(fastFingerprint)).digest('base64'),
      createHash('sha256').update(body).digest('hex'),
      createHash('md5').update(body).digest('base64'),
    ];
    // Act
    const first = await create(app, body, 'wallet-key-1');
    const retry = await create(app, body, 'wallet-key-1');
    const reused = await create(app, otherPassword, 'wallet-key-1');
    const records = await idempotencyRecords(app.tenantId);
    // Assess
    expect(first.statusCode).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(reused.statusCode).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(records).toHaveLength(1);
    expect(records[0]).toContain('"fingerprint"');
    for (const trace of fastTraces) expect(records[0]).not.toContain(trace);
  });
});
