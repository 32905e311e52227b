/**
 * Events out, end to end in one process: changes made through the handlers reach DynamoDB
 * Local's stream, the local stream reader runs the publisher, and the local delivery worker
 * runs the delivery function against receivers on loopback, which verify every delivery with
 * the `standardwebhooks` library as a real receiver would. The retry schedule is shortened
 * through its environment variables.
 */
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  DELIVERY_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
  transportSettings,
} from '../../lambdas/domain/webhooks/delivery-transport';
import {
  hostResolution,
  LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT,
} from '../../lambdas/domain/webhooks/webhook-address';
import { PREVIOUS_SECRET_VALIDITY_MS } from '../../lambdas/domain/webhooks/webhook-service';
import { findWebhook, replaceWebhook } from '../../lambdas/repositories/webhook-repository';
import type { StackEnvironment } from '../../local/embedded-stack';
import { type LocalEventsOut, startLocalEventsOut } from '../../local/events-out';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { eventually } from '../support/local-server';
import { putObject } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import {
  bodyOf,
  type ReceivedDelivery,
  type WebhookReceiver,
  webhookReceiver,
} from '../support/webhook-receiver';
import {
  createWebhookOk,
  deleteWebhook,
  getWebhook,
  listDeadLetters,
  listDeliveries,
  putWebhook,
  replayDeadLetters,
  retryDelivery,
  rotateSecret,
} from '../support/webhook-requests';

jest.setTimeout(30_000);

let eventsOut: LocalEventsOut;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  process.env.WEBHOOK_RETRY_FIRST_DELAY_MS = '200';
  process.env.WEBHOOK_RETRY_MAX_DELAY_MS = '400';
  // From the stream's end: the other test files' events, before this one, are not this file's.
  eventsOut = await startLocalEventsOut(process.env as StackEnvironment, {
    pollIntervalMs: 25,
    startingPosition: 'LATEST',
  });
});

afterAll(async () => {
  await eventsOut.stop();
  for (const receiver of receivers) await receiver.stop();
});

afterEach(() => {
  delete process.env.WEBHOOK_RETRY_WINDOW_MS;
});

async function receiver(options?: Parameters<typeof webhookReceiver>[0]) {
  const made = await webhookReceiver(options);
  receivers.push(made);
  return made;
}

/** A company with a category, a subcategory and a subscription of `url`. */
async function subscribedCompany(url: string, body: Record<string, unknown> = {}) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const webhook = await createWebhookOk(principal, { url, ...body });
  return { principal, place, webhook };
}

const verified = (secret: string, delivery: ReceivedDelivery) =>
  new Webhook(secret).verify(delivery.body, delivery.headers) as ReturnType<typeof bodyOf>;

/** The local event bus's entries about one entity, in the order they were put. */
function busEntriesOf(entityId: string) {
  return readFileSync(process.env.LOCAL_EVENT_BUS_FILE as string, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.detail.entityId === entityId);
}

/** Waits until the publisher has handled an entity's event of that sequence. */
const published = (entityId: string, sequence: number) =>
  eventually(() => busEntriesOf(entityId).some((entry) => entry.detail.sequence === sequence));

/** Each object's sequences in the order they first arrived (a repeat is a duplicate, allowed). */
function firstArrivalOrder(deliveries: ReceivedDelivery[]): Map<string, number[]> {
  const seen = new Set<string>();
  const order = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const { data } = bodyOf(delivery);
    const key = `${data.entityId}#${data.sequence}`;
    if (seen.has(key)) continue;
    seen.add(key);
    order.set(data.entityId, [...(order.get(data.entityId) ?? []), data.sequence]);
  }
  return order;
}

describe('webhook deliveries', () => {
  it('delivers every change signed as Standard Webhooks says, verified by the standardwebhooks library', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url);
    // Act
    const object = await givenObject(principal, place);
    await putObject(principal, object.id, { action: 'transfer', owner: 'Warehouse 7' });
    await putObject(principal, object.id, { action: 'report_stolen', eventDescription: 'gone' });
    // Assess
    expect(await eventually(() => target.received.length >= 3)).toBe(true);
    const bodies = target.received.map((delivery) => verified(webhook.secret, delivery));
    expect(bodies.map((body) => body.type)).toEqual([
      'object.created',
      'object.transferred',
      'object.reported_stolen',
    ]);
    expect(bodies.map((body) => body.data.sequence)).toEqual([1, 2, 3]);
    expect(bodies[1]).toMatchObject({
      type: 'object.transferred',
      timestamp: expect.any(String),
      data: {
        companyId: principal.tenantId,
        entity: 'object',
        objectId: object.id,
        entityId: object.id,
        sequence: 2,
        action: 'transfer',
        changes: { owner: { from: '', to: 'Warehouse 7' } },
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(target.received[0]?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(JSON.stringify(bodies)).not.toContain(webhook.secret);
  });

  it('puts every committed event on the (local) event bus with source asset-registry and its type', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const object = await givenObject(principal, place);
    await putObject(principal, object.id, { action: 'repair' });
    // Assess
    const entriesOfObject = () => busEntriesOf(object.id);
    expect(await eventually(() => entriesOfObject().length >= 2)).toBe(true);
    expect(entriesOfObject().map((entry) => [entry.source, entry.detailType, entry.detail.sequence])).toEqual(
      [
        ['asset-registry', 'object.created', 1],
        ['asset-registry', 'object.repaired', 2],
      ],
    );
  });

  it('gets every event in order per object to a receiver that is down, then responds 500, then comes back', async () => {
    // Prepare
    const target = await receiver({ listening: false });
    const { principal, place, webhook } = await subscribedCompany(target.url);
    const objects = [await givenObject(principal, place), await givenObject(principal, place)];
    // Act: changes while the receiver is down...
    for (const object of objects) {
      await putObject(principal, object.id, { action: 'update', name: 'Renamed once' });
      await putObject(principal, object.id, { action: 'transfer', owner: 'Dock 1' });
    }
    const attempted = async () => {
      const page = await listDeliveries(principal, webhook.id);
      return page.body.data.some((delivery: { attempts: unknown[] }) => delivery.attempts.length >= 2);
    };
    expect(await eventually(attempted)).toBe(true);
    // ...then it responds 500 for a while...
    target.respondWith(500);
    await target.start();
    expect(await eventually(() => target.received.length >= 2)).toBe(true);
    await putObject(principal, objects[0]!.id, { action: 'repair' });
    // ...then it comes back.
    target.respondWith(204);
    // Assess
    const accepted = () => firstArrivalOrder(target.received);
    expect(
      await eventually(async () => {
        const page = await listDeliveries(principal, webhook.id, { limit: '100' });
        return page.body.data.every((delivery: { status: string }) => delivery.status === 'succeeded');
      }, 30_000),
    ).toBe(true);
    for (const delivery of target.received) verified(webhook.secret, delivery);
    expect(accepted().get(objects[0]!.id)).toEqual([1, 2, 3, 4]);
    expect(accepted().get(objects[1]!.id)).toEqual([1, 2, 3]);
    const page = await listDeliveries(principal, webhook.id, { limit: '100' });
    expect(page.body.pagination.total).toBe(7);
    const attempts = page.body.data.flatMap((delivery: { attempts: unknown[] }) => delivery.attempts);
    expect(attempts).toContainEqual(
      expect.objectContaining({ statusCode: 500, response: 'response 500', latencyMs: expect.any(Number) }),
    );
    expect(attempts).toContainEqual(expect.objectContaining({ statusCode: null, error: 'ECONNREFUSED' }));
  }, 60_000);

  it('gives a replayed or altered delivery away: the standardwebhooks library refuses it', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url);
    await givenObject(principal, place);
    expect(await eventually(() => target.received.length >= 1)).toBe(true);
    const original = target.received[0] as ReceivedDelivery;
    // Act
    const alteredBody = original.body.replace('"sequence":1', '"sequence":2');
    const alteredTimestamp = {
      ...original.headers,
      'webhook-timestamp': String(Number(original.headers['webhook-timestamp']) + 1),
    };
    const otherSecret = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    // Assess
    expect(() => verified(webhook.secret, original)).not.toThrow();
    expect(() => new Webhook(webhook.secret).verify(alteredBody, original.headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(webhook.secret).verify(original.body, alteredTimestamp)).toThrow(
      WebhookVerificationError,
    );
    expect(() => otherSecret.verify(original.body, original.headers)).toThrow(WebhookVerificationError);
    // Replayed later than the library's 5-minute tolerance.
    jest.useFakeTimers({
      now: Date.now() + 6 * 60 * 1000,
      doNotFake: ['setTimeout', 'setInterval', 'nextTick', 'setImmediate'],
    });
    try {
      expect(() => verified(webhook.secret, original)).toThrow(/too old/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url);
    // Act
    const rotated = await rotateSecret(principal, webhook.id);
    await givenObject(principal, place);
    // Assess
    expect(rotated.statusCode).toBe(200);
    expect(rotated.body.secret).not.toBe(webhook.secret);
    expect(await eventually(() => target.received.length >= 1)).toBe(true);
    const delivery = target.received[0] as ReceivedDelivery;
    expect(delivery.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => verified(webhook.secret, delivery)).not.toThrow();
    expect(() => verified(rotated.body.secret, delivery)).not.toThrow();
  });

  it("never sends company A's events to company B", async () => {
    // Prepare
    const receiverOfA = await receiver();
    const receiverOfB = await receiver();
    const companyA = await subscribedCompany(receiverOfA.url);
    const companyB = await subscribedCompany(receiverOfB.url);
    // Act
    const objectOfA = await givenObject(companyA.principal, companyA.place);
    await putObject(companyA.principal, objectOfA.id, { action: 'update', name: 'Only for A' });
    const objectOfB = await givenObject(companyB.principal, companyB.place);
    // Assess
    expect(await eventually(() => receiverOfA.received.length >= 2 && receiverOfB.received.length >= 1)).toBe(
      true,
    );
    const companiesSeenByB = receiverOfB.received.map((delivery) => bodyOf(delivery).data.companyId);
    expect(new Set(companiesSeenByB)).toEqual(new Set([companyB.principal.tenantId]));
    expect(receiverOfB.received.map((delivery) => bodyOf(delivery).data.entityId)).toEqual([objectOfB.id]);
    expect(() =>
      new Webhook(companyA.webhook.secret).verify(
        receiverOfB.received[0]!.body,
        receiverOfB.received[0]!.headers,
      ),
    ).toThrow();
  });

  it("delivers company B's events while company A's receiver hangs on every delivery", async () => {
    // Prepare
    const hangingReceiver = await receiver({ response: 'hang' });
    const receiverOfB = await receiver();
    const companyA = await subscribedCompany(hangingReceiver.url);
    const companyB = await subscribedCompany(receiverOfB.url);
    for (let index = 0; index < 6; index++) await givenObject(companyA.principal, companyA.place);
    expect(await eventually(() => hangingReceiver.received.length >= 1)).toBe(true);
    // Act
    await givenObject(companyB.principal, companyB.place);
    // Assess: B's delivery lands while A's are still waiting for their responses.
    expect(await eventually(() => receiverOfB.received.length >= 1)).toBe(true);
    const pageOfA = await listDeliveries(companyA.principal, companyA.webhook.id);
    expect(
      pageOfA.body.data.every((delivery: { attempts: unknown[] }) => delivery.attempts.length === 0),
    ).toBe(true);
    await hangingReceiver.stop();
  }, 30_000);

  it('dead-letters a delivery that fails for the whole retry window, marks the webhook failing, and replays it', async () => {
    // Prepare
    process.env.WEBHOOK_RETRY_WINDOW_MS = '1000';
    const target = await receiver({ response: 503 });
    const { principal, place, webhook } = await subscribedCompany(target.url);
    const object = await givenObject(principal, place);
    // Act
    const failing = async () => (await getWebhook(principal, webhook.id)).body.status === 'failing';
    expect(await eventually(failing, 20_000)).toBe(true);
    const deadLetters = await listDeadLetters(principal, webhook.id);
    const markedFailing = (await getWebhook(principal, webhook.id)).body;
    target.respondWith(200);
    const replay = await replayDeadLetters(principal, webhook.id);
    // Assess
    expect(deadLetters.statusCode).toBe(200);
    expect(deadLetters.body.data).toEqual([
      expect.objectContaining({
        entityId: object.id,
        sequence: 1,
        status: 'failed',
        eventType: 'object.created',
      }),
    ]);
    expect(deadLetters.body.pagination.total).toBe(1);
    expect(markedFailing.failingSince).toEqual(expect.any(String));
    expect(replay).toMatchObject({ statusCode: 202, body: { replayed: 1, remaining: 0 } });
    expect((await getWebhook(principal, webhook.id)).body).toMatchObject({
      status: 'active',
      failingSince: null,
    });
    expect(
      await eventually(
        async () => (await listDeadLetters(principal, webhook.id)).body.pagination.total === 0,
      ),
    ).toBe(true);
    expect(
      await eventually(() => target.received.some((delivery) => verified(webhook.secret, delivery))),
    ).toBe(true);
  }, 40_000);

  it('sends a delivery again on POST .../retry, with the same webhook-id', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url);
    await givenObject(principal, place);
    expect(await eventually(() => target.received.length >= 1)).toBe(true);
    const [delivery] = (await listDeliveries(principal, webhook.id)).body.data;
    // Act
    const retried = await retryDelivery(principal, webhook.id, delivery.id);
    // Assess
    expect(retried.statusCode).toBe(202);
    expect(await eventually(() => target.received.length >= 2)).toBe(true);
    expect(target.received.map((received) => received.headers['webhook-id'])).toEqual([
      delivery.id,
      delivery.id,
    ]);
    const after = (await listDeliveries(principal, webhook.id)).body.data[0];
    expect(after.attempts).toEqual([
      expect.objectContaining({ statusCode: 200, manual: false }),
      expect.objectContaining({ statusCode: 200, manual: true }),
    ]);
  });

  it('delivers only the subscribed event types, and nothing while disabled', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url, {
      events: ['object.transferred'],
    });
    const object = await givenObject(principal, place);
    // Act
    await putObject(principal, object.id, { action: 'transfer', owner: 'A' });
    expect(await eventually(() => target.received.length >= 1)).toBe(true);
    await putWebhook(principal, webhook.id, { status: 'disabled' });
    await putObject(principal, object.id, { action: 'transfer', owner: 'B' });
    const marker = await givenObject(principal, place);
    // The publisher reads the subscriptions when it handles an event: let it pass these first.
    expect(await published(marker.id, 1)).toBe(true);
    await putWebhook(principal, webhook.id, { status: 'active' });
    await putObject(principal, marker.id, { action: 'transfer', owner: 'C' });
    // Assess
    expect(await eventually(() => target.received.length >= 2)).toBe(true);
    expect(
      target.received.map((delivery) => [bodyOf(delivery).type, bodyOf(delivery).data.entityId]),
    ).toEqual([
      ['object.transferred', object.id],
      ['object.transferred', marker.id],
    ]);
  });
});

interface ListedAttempt {
  statusCode: number | null;
  latencyMs: number;
  response: string;
  error: string | null;
  manual: boolean;
}
interface ListedDelivery {
  status: string;
  nextAttemptAt: string | null;
  attempts: ListedAttempt[];
}

/** A subscription's only delivery once it has been attempted at least once. */
async function firstAttemptedDelivery(
  principal: Parameters<typeof listDeliveries>[0],
  webhookId: string,
): Promise<ListedDelivery> {
  let delivery: ListedDelivery | undefined;
  const attempted = async () => {
    delivery = (await listDeliveries(principal, webhookId)).body.data[0];
    return (delivery?.attempts.length ?? 0) >= 1;
  };
  if (!(await eventually(attempted))) throw new Error(`No attempt of webhook ${webhookId}'s delivery`);
  return delivery as ListedDelivery;
}

/** A TCP listener on loopback that only counts the connections it gets. */
async function connectionCounter() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhook deliveries: the guards of each attempt', () => {
  it('refuses an attempt whose host, public at creation, now resolves to a private, loopback, link-local or metadata address', async () => {
    // Prepare: DNS resolves to a public address for every host while the subscriptions are created.
    const listener = await connectionCounter();
    const atDelivery: Record<string, string[]> = {
      'private.rebinding.test': ['10.0.0.7'],
      'metadata.rebinding.test': ['169.254.169.254'],
      'link-local.rebinding.test': ['fe80::1'],
      'mixed.rebinding.test': ['93.184.215.14', '192.168.1.20'],
      'loopback.rebinding.test': ['127.0.0.1'],
    };
    const urlOf = (host: string) =>
      host === 'loopback.rebinding.test' ? `https://${host}:${listener.port}/in` : `https://${host}/in`;
    let responding: 'creation' | 'delivery' = 'creation';
    const resolvedAtDelivery: string[] = [];
    const systemResolve = hostResolution.resolve;
    const resolve = jest.spyOn(hostResolution, 'resolve').mockImplementation(async (host) => {
      const later = atDelivery[host];
      if (!later) return systemResolve(host);
      if (responding === 'creation') return ['93.184.215.14'];
      resolvedAtDelivery.push(host);
      return later;
    });
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const webhooks = new Map<string, string>();
    try {
      for (const host of Object.keys(atDelivery)) {
        webhooks.set(host, (await createWebhookOk(principal, { url: urlOf(host) })).id);
      }
      // As in AWS, where loopback is never allowed (local mode allows it for developers).
      process.env[LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT] = 'false';
      responding = 'delivery';
      // Act
      await givenObject(principal, place);
      // Assess
      for (const [host, webhookId] of webhooks) {
        const delivery = await firstAttemptedDelivery(principal, webhookId);
        const refusedAddress = atDelivery[host]?.find((address) => address !== '93.184.215.14');
        expect({ host, status: delivery.status, attempt: delivery.attempts[0] }).toEqual({
          host,
          status: 'pending',
          attempt: expect.objectContaining({
            statusCode: null,
            response: '',
            error: `The host ${host} resolves to an address that is not public (${refusedAddress})`,
          }),
        });
      }
      expect(new Set(resolvedAtDelivery)).toEqual(new Set(Object.keys(atDelivery)));
      expect(listener.connections()).toBe(0);
    } finally {
      process.env[LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT] = 'true';
      for (const webhookId of webhooks.values()) await deleteWebhook(principal, webhookId);
      resolve.mockRestore();
      await listener.close();
    }
  });

  it('signs with the new secret only once the 24 h of the previous one are over', async () => {
    // Prepare
    const target = await receiver();
    const { principal, place, webhook } = await subscribedCompany(target.url);
    const rotated = (await rotateSecret(principal, webhook.id)).body;
    await givenObject(principal, place);
    expect(await eventually(() => target.received.length >= 1)).toBe(true);
    // Act: the stored rotation is moved 24 h into the past, as if a day had gone by.
    const stored = await findWebhook(principal.tenantId, webhook.id);
    if (!stored?.previousSecretExpiresAt) throw new Error('the rotation kept no previous secret');
    await replaceWebhook(stored, {
      ...stored,
      previousSecretExpiresAt: new Date(
        Date.parse(stored.previousSecretExpiresAt) - PREVIOUS_SECRET_VALIDITY_MS,
      ).toISOString(),
      version: stored.version + 1,
    });
    await givenObject(principal, place);
    // Assess
    expect(await eventually(() => target.received.length >= 2)).toBe(true);
    const [withinTheDay, afterTheDay] = target.received as [ReceivedDelivery, ReceivedDelivery];
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(
      PREVIOUS_SECRET_VALIDITY_MS - 60_000,
    );
    expect(withinTheDay.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(afterTheDay.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => verified(rotated.secret, afterTheDay)).not.toThrow();
    expect(() => verified(webhook.secret, afterTheDay)).toThrow(WebhookVerificationError);
  });

  it("keeps only the first 1 KB of a receiver's longer response in the deliveries list", async () => {
    // Prepare
    const responseBody = Array.from({ length: 800 }, (_, index) => `${index};`).join('');
    const target = await receiver({ responseBody });
    const { principal, place, webhook } = await subscribedCompany(target.url);
    // Act
    await givenObject(principal, place);
    // Assess
    const delivery = await firstAttemptedDelivery(principal, webhook.id);
    expect(responseBody.length).toBeGreaterThan(3 * RESPONSE_EXCERPT_BYTES);
    expect(RESPONSE_EXCERPT_BYTES).toBe(1024);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts[0]?.statusCode).toBe(200);
    expect(delivery.attempts[0]?.response).toBe(responseBody.slice(0, 1024));
  });

  it('counts a receiver that does not respond within the timeout as a failed attempt, and retries it', async () => {
    // Prepare: the 10 s timeout is shortened to keep the test short.
    transportSettings.timeoutMs = 500;
    const target = await receiver({ response: 'hang' });
    const { principal, place, webhook } = await subscribedCompany(target.url);
    try {
      // Act
      await givenObject(principal, place);
      // Assess
      const delivery = await firstAttemptedDelivery(principal, webhook.id);
      expect(target.received.length).toBeGreaterThanOrEqual(1);
      expect(delivery.status).toBe('pending');
      expect(delivery.nextAttemptAt).toEqual(expect.any(String));
      expect(delivery.attempts[0]).toMatchObject({
        statusCode: null,
        response: '',
        error: 'No response within 0.5 s',
        manual: false,
      });
      expect(delivery.attempts[0]?.latencyMs).toBeGreaterThanOrEqual(500);
      expect(delivery.attempts[0]?.latencyMs).toBeLessThan(DELIVERY_TIMEOUT_MS);
    } finally {
      transportSettings.timeoutMs = DELIVERY_TIMEOUT_MS;
      await deleteWebhook(principal, webhook.id);
      await target.stop();
    }
  });
});
