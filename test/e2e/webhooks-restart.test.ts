/**
 * `npm start` delivers webhooks, and a crash loses none: pending deliveries (in the queue kept in
 * the table) and events not yet published (behind the stream reader's checkpoint) are delivered
 * after a restart on the same data folder. The server's process is killed with SIGKILL, as a
 * crash would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import {
  eventually,
  type LocalServer,
  processIsAlive,
  readStackStateFile,
  runAdmin,
  startLocalServer,
} from '../support/local-server';
import { bodyOf, type WebhookReceiver, webhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(240_000);

describe('webhooks through npm start', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-webhooks-'));
  let server: LocalServer | undefined;
  let receiver: WebhookReceiver | undefined;

  beforeAll(() => {
    // The children inherit these: retries every 0.2-0.5 s instead of 5 s doubling.
    process.env.WEBHOOK_RETRY_FIRST_DELAY_MS = '200';
    process.env.WEBHOOK_RETRY_MAX_DELAY_MS = '500';
  });

  afterAll(async () => {
    await server?.kill();
    await receiver?.stop();
    delete process.env.WEBHOOK_RETRY_FIRST_DELAY_MS;
    delete process.env.WEBHOOK_RETRY_MAX_DELAY_MS;
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('delivers every event, in order per entity, across a crash of npm start', async () => {
    // Prepare
    server = await startLocalServer({ dataDirectory });
    receiver = await webhookReceiver({ listening: false });
    const admin = await runAdmin(['create-company', '--name', 'Hooked'], server);
    expect(admin).toMatchObject({ exitCode: 0 });
    const { apiKey } = JSON.parse(admin.stdout) as { apiKey: string };
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server?.baseUrl}${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the tests read responses of every shape
      return { status: response.status, body: (await response.json()) as any };
    };
    const webhook = await call('POST', '/v2/webhooks', { url: receiver.url });
    expect(webhook.status).toBe(201);
    const category = await call('POST', '/v2/categories', { name: 'Vehicles' });
    const subcategory = await call('POST', `/v2/categories/${category.body.id}/subcategories`, {
      name: 'Vans',
    });
    const objectPath = `/v2/categories/${category.body.id}/subcategories/${subcategory.body.data.id}/objects`;
    const object = await call('POST', objectPath, { externalId: 'VAN-1', name: 'Van one' });
    await call('PUT', `/v2/objects/${object.body.id}`, { action: 'transfer', owner: 'Depot' });
    // The receiver is down: the deliveries are being retried.
    const retrying = async () => {
      const page = await call('GET', `/v2/webhooks/${webhook.body.id}/deliveries`);
      return page.body.data.some((delivery: { attempts: unknown[] }) => delivery.attempts.length >= 1);
    };
    expect(await eventually(retrying, 30_000)).toBe(true);
    // Act: a change, then a crash at once (the change may not be published yet).
    const stolen = await call('PUT', `/v2/objects/${object.body.id}`, { action: 'report_stolen' });
    expect(stolen.status).toBe(200);
    // The process that publishes and delivers dies at once; the database (DynamoDB in AWS) is
    // then stopped in order: DynamoDB Local may lose its last stream records when killed itself.
    const state = readStackStateFile(dataDirectory);
    process.kill(state?.pid as number, 'SIGKILL');
    expect(await eventually(() => !processIsAlive(state?.pid as number), 10_000)).toBe(true);
    server.signalGroup('SIGTERM');
    await server.exited;
    await receiver.start();
    server = await startLocalServer({ dataDirectory });
    // Assess
    const objectSequences = () => {
      const seen: number[] = [];
      for (const delivery of receiver?.received ?? []) {
        const { data } = bodyOf(delivery);
        if (data.entityId === object.body.id && !seen.includes(data.sequence)) seen.push(data.sequence);
      }
      return seen;
    };
    const typesReceived = () => new Set((receiver?.received ?? []).map((delivery) => bodyOf(delivery).type));
    // Order holds per entity only: the subcategory's delivery may come after the object's three.
    const arrived = await eventually(
      () => objectSequences().length >= 3 && typesReceived().has('subcategory.created'),
      60_000,
    );
    expect(arrived).toBe(true);
    expect(objectSequences()).toEqual([1, 2, 3]);
    const types = typesReceived();
    expect(types).toEqual(
      new Set(['subcategory.created', 'object.created', 'object.transferred', 'object.reported_stolen']),
    );
    for (const delivery of receiver.received) {
      expect(() => new Webhook(webhook.body.secret).verify(delivery.body, delivery.headers)).not.toThrow();
    }
  });
});
