/**
 * Webhook delivery on the local stack: object updates committed through the update handler at a
 * steady rate, published by the local stream reader and delivered by the local delivery worker
 * (the same handlers as in AWS) to a receiver on loopback. Latency runs from the commit (the
 * event's timestamp) to the receipt; deliveries per second from a burst of updates. Local
 * figures: the stream reader and the worker poll every 50 ms, and everything shares 2 cores.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operations } from '../../lambdas/operations';
import type { StackEnvironment } from '../../local/embedded-stack';
import { startLocalEventsOut } from '../../local/events-out';
import { givenObject, givenPlace, newCompany } from '../support/fixtures';
import { invokeExpecting } from '../support/handler-calls';
import type { Section } from '../support/results-report';
import { percentile, round } from '../support/statistics';
import { column, markdownTable } from '../support/table';

export interface WebhookDeliveryRow {
  scenario: string;
  events: number;
  writesPerSecond: number;
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  deliveriesPerSecond: number;
}

const updateObject = operations.updateObject;
const createWebhook = operations.createWebhook;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver that notes when each (entity, sequence) first arrived. */
async function startReceiver() {
  const receivedAt = new Map<string, { at: number; committedAt: number }>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const key = `${data.entityId}#${data.sequence}`;
      if (!receivedAt.has(key)) receivedAt.set(key, { at, committedAt: Date.parse(data.timestamp) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/bench`, receivedAt, close: () => server.close() };
}

export async function runWebhookDelivery(options: {
  environment: StackEnvironment;
  writesPerSecond: number;
  seconds: number;
  burst: number;
  objects: number;
}): Promise<WebhookDeliveryRow[]> {
  const receiver = await startReceiver();
  const eventsOut = await startLocalEventsOut(options.environment);
  try {
    const company = await newCompany('Bench webhooks');
    const place = await givenPlace(company);
    await invokeExpecting(createWebhook, { principal: company.principal, body: { url: receiver.url } });
    const objectIds: string[] = [];
    for (let index = 0; index < options.objects; index++) objectIds.push(await givenObject(company, place));
    const update = (objectIndex: number, run: number) =>
      invokeExpecting(updateObject, {
        principal: company.principal,
        pathParameters: { objectId: objectIds[objectIndex] as string },
        body: { action: 'update', description: `Bench ${run}` },
      });
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 120_000;
      while (receiver.receivedAt.size < count && Date.now() < deadline) await delay(20);
    };
    // The creations are delivered too: let them pass before measuring.
    await waitFor(objectIds.length);
    const rows: WebhookDeliveryRow[] = [];

    const measure = async (scenario: string, events: number, send: () => Promise<number>) => {
      const before = new Set(receiver.receivedAt.keys());
      const writesPerSecond = await send();
      await waitFor(before.size + events);
      const fresh = [...receiver.receivedAt.entries()]
        .filter(([key]) => !before.has(key))
        .map(([, value]) => value);
      const latencies = fresh.map((entry) => entry.at - entry.committedAt);
      const first = Math.min(...fresh.map((entry) => entry.committedAt));
      const last = Math.max(...fresh.map((entry) => entry.at));
      rows.push({
        scenario,
        events,
        writesPerSecond: round(writesPerSecond, 1),
        delivered: fresh.length,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        maxMs: Math.max(...latencies),
        deliveriesPerSecond: round((fresh.length / (last - first)) * 1000, 1),
      });
    };

    const steadyEvents = options.writesPerSecond * options.seconds;
    await measure(
      `steady: ${options.writesPerSecond} updates/s over ${options.objects} objects`,
      steadyEvents,
      async () => {
        const started = Date.now();
        // One write at a time per object: parallel writes on one object would race for its chain.
        const lastWriteOf = new Map<number, Promise<unknown>>();
        for (let index = 0; index < steadyEvents; index++) {
          const due = started + (index * 1000) / options.writesPerSecond;
          await delay(Math.max(0, due - Date.now()));
          const objectIndex = index % objectIds.length;
          const previous = lastWriteOf.get(objectIndex) ?? Promise.resolve();
          lastWriteOf.set(
            objectIndex,
            previous.then(() => update(objectIndex, index)),
          );
        }
        await Promise.all(lastWriteOf.values());
        return (steadyEvents / (Date.now() - started)) * 1000;
      },
    );
    const writers = Math.min(10, objectIds.length);
    await measure(`burst: ${options.burst} updates, ${writers} in flight`, options.burst, async () => {
      const started = Date.now();
      let next = 0;
      // Each writer updates its own object, one update after the other.
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          while (next < options.burst) await update(writer, next++);
        }),
      );
      return (options.burst / (Date.now() - started)) * 1000;
    });
    return rows;
  } finally {
    await eventsOut.stop();
    receiver.close();
  }
}

export function webhookDeliverySection(rows: WebhookDeliveryRow[]): Section {
  return {
    title: '8. Webhook delivery, commit to receipt',
    intro:
      'Object updates through the update handler in process; the local stream reader and delivery worker (the Lambda handlers of AWS, polling every 50 ms) deliver each event, signed, to a loopback receiver. Latency: receipt time minus the event’s commit timestamp. Deliveries per second: events ÷ (last receipt − first commit).',
    table: markdownTable(rows, [
      column('scenario', (row) => row.scenario),
      column('events', (row) => row.events, true),
      column('writes/s', (row) => row.writesPerSecond, true),
      column('delivered', (row) => row.delivered, true),
      column('p50 ms', (row) => row.p50Ms, true),
      column('p99 ms', (row) => row.p99Ms, true),
      column('max ms', (row) => row.maxMs, true),
      column('deliveries/s', (row) => row.deliveriesPerSecond, true),
    ]),
  };
}
