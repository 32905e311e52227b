/** Webhook subscriptions (extension): create, read, list, change, delete, rotate; who may; which URLs. */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { appPrincipal, companyPrincipal } from '../support/principals';
import {
  createWebhookOk,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  postWebhook,
  putWebhook,
  rotateSecret,
} from '../support/webhook-requests';

const LOCAL_URL = 'http://127.0.0.1:9/hooks';

describe('webhook subscriptions', () => {
  it('creates a subscription and shows its whsec_ secret in the creation response only', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const created = await postWebhook(principal, { url: LOCAL_URL, events: ['object.transferred'] });
    const read = await getWebhook(principal, created.body.id);
    const listed = await listWebhooks(principal);
    // Assess
    expect(created.statusCode).toBe(201);
    expect(created.headers.Location).toBe(`/test/v2/webhooks/${created.body.id}`);
    // The secret is a credential: no cache may keep the response; the reads carry none to hide.
    expect(created.headers['Cache-Control']).toBe('no-store');
    expect(read.headers['Cache-Control']).toBeUndefined();
    expect(created.body).toEqual({
      id: expect.any(String),
      url: LOCAL_URL,
      events: ['object.transferred'],
      description: '',
      status: 'active',
      failingSince: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret, ...view } = created.body;
    expect(read.body).toEqual(view);
    expect(listed.body.data).toEqual([view]);
    expect(JSON.stringify([read.body, listed.body])).not.toContain(secret.slice(6));
  });

  it('stores the secret sealed, never in plain text', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createWebhookOk(principal, { url: LOCAL_URL });
    // Act
    const { Item } = await dynamoDb.send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `T#${principal.tenantId}#WEBHOOKS`, sk: `WEBHOOK#${created.id}` },
      }),
    );
    // Assess
    expect(Item?.sealedSecret).toMatch(/^local:/);
    expect(JSON.stringify(Item)).not.toContain(created.secret.slice(6));
  });

  it('defaults events to ["*"], and refuses unknown types, statuses and malformed URLs', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const defaults = await postWebhook(principal, { url: LOCAL_URL });
    const invalid = await postWebhook(principal, {
      url: 'ftp://example.com/x',
      events: ['object.eaten'],
      status: 'failing',
    });
    const missing = await postWebhook(principal, {});
    // Assess
    expect(defaults.body.events).toEqual(['*']);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
    expect(
      invalid.body.validationErrors.map((issue: { field: string; code: string }) => [
        issue.field,
        issue.code,
      ]),
    ).toEqual([
      ['url', 'FORMAT_INVALID'],
      ['events', 'ENUM_INVALID'],
      ['status', 'ENUM_INVALID'],
    ]);
    expect(missing.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'url', code: 'REQUIRED' }),
    ]);
  });

  it.each([
    'https://10.1.2.3/in',
    'https://172.16.0.9/in',
    'https://192.168.1.1/in',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/in',
    'https://[fd00:ec2::254]/in',
    'https://[fe80::1]/in',
    'https://[::ffff:10.0.0.1]/in',
    'https://[::ffff:0:7f00:1]/in',
    'http://10.0.0.1/in',
  ])('refuses %s, whose address is not public (400 ADDRESS_NOT_ALLOWED)', async (url) => {
    // Act
    const response = await postWebhook(companyPrincipal(), { url });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'url', code: 'ADDRESS_NOT_ALLOWED' }),
    ]);
  });

  describe('as in AWS (no loopback allowed)', () => {
    const saved = process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
    beforeAll(() => {
      delete process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK;
    });
    afterAll(() => {
      process.env.LOCAL_WEBHOOKS_ALLOW_LOOPBACK = saved;
    });

    it.each([
      ['http://127.0.0.1:9/in', 'FORMAT_INVALID'],
      ['https://localhost/in', 'ADDRESS_NOT_ALLOWED'],
      ['https://127.0.0.1/in', 'ADDRESS_NOT_ALLOWED'],
      ['https://[::1]/in', 'ADDRESS_NOT_ALLOWED'],
      ['https://[::ffff:127.0.0.1]/in', 'ADDRESS_NOT_ALLOWED'],
      ['https://[::ffff:0:7f00:1]/in', 'ADDRESS_NOT_ALLOWED'],
      ['https://93.184.215.14:8080/in', 'ADDRESS_NOT_ALLOWED'],
    ])('refuses %s with %s', async (url, code) => {
      // Act
      const response = await postWebhook(companyPrincipal(), { url });
      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body.validationErrors).toEqual([expect.objectContaining({ field: 'url', code })]);
    });

    it('takes a public address on port 443 or 8443 only, and says which port was refused', async () => {
      // Prepare
      const principal = companyPrincipal();
      // Act
      const onDefault = await postWebhook(principal, { url: 'https://93.184.215.14/in' });
      const on8443 = await postWebhook(principal, { url: 'https://93.184.215.14:8443/in' });
      const onSsh = await postWebhook(principal, { url: 'https://93.184.215.14:22/in' });
      const moved = await putWebhook(principal, on8443.body.id, { url: 'https://93.184.215.14:25/in' });
      // Assess
      expect([onDefault.statusCode, on8443.statusCode]).toEqual([201, 201]);
      expect(onSsh.statusCode).toBe(400);
      expect(onSsh.body.validationErrors).toEqual([
        {
          field: 'url',
          code: 'ADDRESS_NOT_ALLOWED',
          message: 'The port 22 is not allowed: a webhook URL uses port 443 or 8443',
        },
      ]);
      expect(moved.statusCode).toBe(400);
      await deleteWebhook(principal, onDefault.body.id);
      await deleteWebhook(principal, on8443.body.id);
    });
  });

  it('refuses a description with a control or bidirectional override character', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createWebhookOk(principal, { url: LOCAL_URL });
    // Act
    const onCreate = await postWebhook(principal, { url: LOCAL_URL, description: 'ERP\u0000' });
    const onUpdate = await putWebhook(principal, created.id, { description: 'ERP\u202E' });
    // Assess
    for (const [response, codePoint] of [
      [onCreate, 'U+0000'],
      [onUpdate, 'U+202E'],
    ] as const) {
      expect(response.statusCode).toBe(400);
      expect(response.body.validationErrors).toEqual([
        {
          field: 'description',
          code: 'FORMAT_INVALID',
          message: `description may not contain control or bidirectional formatting characters (${codePoint})`,
        },
      ]);
    }
  });

  it('changes the given fields, and deletes', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createWebhookOk(principal, { url: LOCAL_URL });
    // Act
    const changed = await putWebhook(principal, created.id, {
      description: 'ERP',
      events: ['file.uploaded', 'file.deleted'],
      status: 'disabled',
    });
    const deleted = await deleteWebhook(principal, created.id);
    const after = await getWebhook(principal, created.id);
    // Assess
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toMatchObject({
      url: LOCAL_URL,
      description: 'ERP',
      events: ['file.uploaded', 'file.deleted'],
      status: 'disabled',
    });
    expect(deleted.statusCode).toBe(204);
    expect(after.statusCode).toBe(404);
    expect(after.body.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('rotates the secret: a new one, shown once, and the old one valid for 24 h', async () => {
    // Prepare
    const principal = companyPrincipal();
    const created = await createWebhookOk(principal, { url: LOCAL_URL });
    // Act
    const rotated = await rotateSecret(principal, created.id);
    // Assess
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['Cache-Control']).toBe('no-store');
    expect(rotated.body).toEqual({
      id: created.id,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: expect.any(String),
    });
    expect(rotated.body.secret).not.toBe(created.secret);
    const validFor = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(validFor).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(validFor).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it('pages the list, newest first, like the other lists', async () => {
    // Prepare
    const principal = companyPrincipal();
    const ids: string[] = [];
    for (let index = 0; index < 3; index++)
      ids.push((await createWebhookOk(principal, { url: LOCAL_URL })).id);
    // Act
    const first = await listWebhooks(principal, { limit: '2' });
    const second = await listWebhooks(principal, { limit: '2', offset: '2' });
    const byCursor = await listWebhooks(principal, { limit: '2', cursor: first.body.pagination.nextCursor });
    // Assess
    expect(first.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination).toEqual({
      limit: 2,
      offset: 0,
      total: 3,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(second.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([ids[0]]);
    expect(byCursor.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([ids[0]]);
    expect(byCursor.body.pagination.nextCursor).toBeNull();
  });

  it("keeps companies apart: another company's webhook is 404 and never listed", async () => {
    // Prepare
    const owner = companyPrincipal();
    const other = companyPrincipal();
    const created = await createWebhookOk(owner, { url: LOCAL_URL });
    // Act
    const read = await getWebhook(other, created.id);
    const changed = await putWebhook(other, created.id, { status: 'disabled' });
    const listed = await listWebhooks(other);
    // Assess
    expect(read.statusCode).toBe(404);
    expect(changed.statusCode).toBe(404);
    expect(listed.body.pagination.total).toBe(0);
    expect((await getWebhook(owner, created.id)).body.status).toBe('active');
  });

  it('needs webhooks:read / webhooks:write of a company key (403 COMPANY_ACCESS_DENIED)', async () => {
    // Prepare
    const reader = companyPrincipal(['webhooks:read']);
    const writer = companyPrincipal(['objects:read', 'objects:write']);
    // Act
    const createdByReader = await postWebhook(reader, { url: LOCAL_URL });
    const listedByWriter = await listWebhooks(writer);
    const byApp = await listWebhooks(appPrincipal());
    const unknown = await getWebhook(reader, randomUUID());
    // Assess
    expect(createdByReader.statusCode).toBe(403);
    expect(createdByReader.body.code).toBe('COMPANY_ACCESS_DENIED');
    expect(listedByWriter.statusCode).toBe(403);
    expect(byApp.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(404);
  });
});
