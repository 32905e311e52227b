/**
 * Tenant fairness (issue 24): company B's commit → checkpoint and commit → webhook receipt,
 * alone and while company A imports a large file, on `npm start` (the deployed shape: the
 * sequencer and the publisher started by the table stream, the delivery queue, every function
 * in its own environment), through the HTTP API as users call it. Both companies subscribe a
 * webhook, so A's import also fills events out.
 *
 * B updates its objects at a steady rate (one write in flight per object). Commit: when the
 * update's response arrives. Checkpoint: a poller reads `GET /v2/ledger/checkpoint` every 50 ms
 * and notes when each tree size was first seen; an event is checkpointed at the first tree size
 * above its log index (from its proof, read afterwards). Receipt: when B's receiver got the
 * event's delivery, minus the event's commit timestamp.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalServer, runAdmin, startLocalServer } from '../../test/support/local-server';
import { bodyOf, webhookReceiver } from '../../test/support/webhook-receiver';
import type { Section } from '../support/results-report';
import { percentile, round } from '../support/statistics';
import { column, markdownTable } from '../support/table';

export interface LatencyFigures {
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FairnessPhase {
  phase: string;
  seconds: number;
  /** The update's own round trip: what the shared machine does to B's plain requests. */
  update?: LatencyFigures;
  checkpoint: LatencyFigures;
  /** Commit → the publisher's fan-out (the delivery's creation): the events-out stream's share. */
  fanOut: LatencyFigures;
  delivery: LatencyFigures;
}

export interface TenantFairnessResult {
  importRows: number;
  writesPerSecond: number;
  /** A's import: seconds from the call to the settled job, and its outcome. */
  importSeconds: number;
  importOutcome: string;
  /** A's deliveries received by the end (its import's events, fanned out while B was measured). */
  deliveriesToA: number;
  phases: FairnessPhase[];
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const figures = (latencies: number[]): LatencyFigures => ({
  events: latencies.length,
  p50Ms: round(percentile(latencies, 0.5), 0),
  p99Ms: round(percentile(latencies, 0.99), 0),
  maxMs: round(Math.max(...latencies), 0),
});

/** A CSV of `rows` objects of one subcategory, created with it (`createMissing`). */
function importFile(path: string, rows: number, prefix: string): string {
  const lines = ['externalId,name,owner,category,subcategory,metadata.plate'];
  for (let row = 0; row < rows; row++) {
    lines.push(`${prefix}-${row},Vehicle ${row},Owner ${row % 97},Fleet,Vans,P-${row}`);
  }
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  return path;
}

export async function runTenantFairness(options: {
  importRows: number;
  writesPerSecond: number;
  aloneSeconds: number;
  objectsOfB: number;
}): Promise<TenantFairnessResult> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-bench-fairness-'));
  const files = mkdtempSync(join(tmpdir(), 'asset-registry-bench-fairness-files-'));
  const receiverOfA = await webhookReceiver();
  const receiverOfB = await webhookReceiver();
  let server: LocalServer | undefined;
  try {
    server = await startLocalServer({ dataDirectory });
    const base = server.baseUrl;
    const settings = { port: server.port, dataDirectory };
    const admin = async (args: string[]) => {
      const result = await runAdmin(args, settings, { timeoutMs: 3_600_000 });
      if (result.exitCode !== 0) throw new Error(`admin ${args[0]}: ${result.exitCode} ${result.stderr}`);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    const call = async (apiKey: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text;
    };

    const companyA = await admin(['create-company', '--name', 'Bench A']);
    const companyB = await admin(['create-company', '--name', 'Bench B']);
    const keyOfA = companyA.apiKey as string;
    const keyOfB = companyB.apiKey as string;
    await call(keyOfA, 'POST', '/v2/webhooks', { url: receiverOfA.url });
    const webhookOfB = JSON.parse(await call(keyOfB, 'POST', '/v2/webhooks', { url: receiverOfB.url })) as {
      id: string;
    };
    /** When the publisher fanned each of B's events out (its delivery's creation), by entity and sequence. */
    const fannedOutOfB = async () => {
      const createdAt = new Map<string, number>();
      for (let offset = 0; ; offset += 100) {
        const page = JSON.parse(
          await call(keyOfB, 'GET', `/v2/webhooks/${webhookOfB.id}/deliveries?limit=100&offset=${offset}`),
        ) as { data: Array<{ entityId: string; sequence: number; createdAt: string }> };
        for (const delivery of page.data) {
          createdAt.set(`${delivery.entityId}#${delivery.sequence}`, Date.parse(delivery.createdAt));
        }
        if (page.data.length < 100) return createdAt;
      }
    };
    await admin([
      'import',
      importFile(join(files, 'b.csv'), options.objectsOfB, 'B'),
      '--company',
      companyB.companyId as string,
      '--create-missing',
    ]);
    const listed = JSON.parse(await call(keyOfB, 'GET', '/v2/objects?limit=100')) as {
      data: Array<{ id: string }>;
    };
    const objectIds = listed.data.map((object) => object.id);
    console.log(`   companies A and B ready; B has ${objectIds.length} objects`);

    // Tree sizes as first seen, for the whole run.
    const seen: Array<{ at: number; treeSize: number }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const text = await call(keyOfB, 'GET', '/v2/ledger/checkpoint').catch(() => undefined);
        const treeSize = Number(text?.split('\n')[1]);
        if (Number.isFinite(treeSize) && treeSize > (seen.at(-1)?.treeSize ?? -1)) {
          seen.push({ at: Date.now(), treeSize });
        }
        await delay(50);
      }
    })();

    /** B's updates at the steady rate while `going()`; each commit's object, sequence and time. */
    const writeAsB = async (going: () => boolean) => {
      const commits: Array<{ objectId: string; sequence: number; at: number; roundTripMs: number }> = [];
      const lastWriteOf = new Map<string, Promise<void>>();
      const started = Date.now();
      for (let index = 0; going(); index++) {
        await delay(Math.max(0, started + (index * 1000) / options.writesPerSecond - Date.now()));
        const objectId = objectIds[index % objectIds.length] as string;
        const previous = lastWriteOf.get(objectId) ?? Promise.resolve();
        lastWriteOf.set(
          objectId,
          previous.then(async () => {
            const sent = Date.now();
            const text = await call(keyOfB, 'PUT', `/v2/objects/${objectId}`, {
              action: 'update',
              description: `fairness ${index}`,
            });
            const object = JSON.parse(text) as { blockchain: { eventCount: number } };
            const at = Date.now();
            commits.push({ objectId, sequence: object.blockchain.eventCount, at, roundTripMs: at - sent });
          }),
        );
      }
      await Promise.all(lastWriteOf.values());
      return { commits, seconds: (Date.now() - started) / 1000 };
    };

    /** The phase's figures, once every commit is checkpointed and delivered. */
    const settle = async (phase: string, run: Awaited<ReturnType<typeof writeAsB>>) => {
      const checkpointLatencies: number[] = [];
      for (const commit of run.commits) {
        const path = `/v2/objects/${commit.objectId}/events/${commit.sequence}/proof`;
        let logIndex: number | undefined;
        for (let attempt = 0; logIndex === undefined && attempt < 1200; attempt++) {
          const response = await fetch(`${base}${path}`, { headers: { 'X-API-Key': keyOfB } });
          if (response.ok) logIndex = ((await response.json()) as { logIndex: number }).logIndex;
          // 409 EVENT_NOT_YET_LOGGED: not in a checkpoint yet.
          else if (response.status === 409) await delay(500);
          else throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
        }
        const shown = seen.find((each) => logIndex !== undefined && each.treeSize > logIndex);
        if (shown) checkpointLatencies.push(Math.max(0, shown.at - commit.at));
      }
      const wanted = new Set(run.commits.map((commit) => `${commit.objectId}#${commit.sequence}`));
      // Each wanted event's first arrival, each received delivery parsed once.
      const arrivals = new Map<string, { committedAt: number; receivedAt: number }>();
      let read = 0;
      const deadline = Date.now() + 600_000;
      while (arrivals.size < wanted.size && Date.now() < deadline) {
        for (const delivery of receiverOfB.received.slice(read)) {
          const { data, timestamp } = bodyOf(delivery) as unknown as {
            timestamp: string;
            data: { entityId: string; sequence: number };
          };
          const key = `${data.entityId}#${data.sequence}`;
          if (wanted.has(key) && !arrivals.has(key)) {
            arrivals.set(key, { committedAt: Date.parse(timestamp), receivedAt: delivery.receivedAt });
          }
        }
        read = receiverOfB.received.length;
        await delay(200);
      }
      const fannedOut = await fannedOutOfB();
      const arrived = [...arrivals.entries()];
      const fanOutLatencies = arrived.flatMap(([key, { committedAt }]) => {
        const at = fannedOut.get(key);
        return at === undefined ? [] : [at - committedAt];
      });
      return {
        phase,
        seconds: round(run.seconds, 0),
        update: figures(run.commits.map((commit) => commit.roundTripMs)),
        checkpoint: figures(checkpointLatencies),
        fanOut: figures(fanOutLatencies),
        delivery: figures(arrived.map(([, { committedAt, receivedAt }]) => receivedAt - committedAt)),
      };
    };

    const phases: FairnessPhase[] = [];
    // B alone, its creations delivered first.
    await delay(5_000);
    const aloneUntil = Date.now() + options.aloneSeconds * 1000;
    phases.push(await settle('B alone', await writeAsB(() => Date.now() < aloneUntil)));
    console.log(`   B alone: ${JSON.stringify(phases[0])}`);

    // B while A imports: from A's first checkpointed rows to the end of A's import.
    const sizeBefore = seen.at(-1)?.treeSize ?? 0;
    const importStarted = Date.now();
    let importing = true;
    const importOfA = admin([
      'import',
      importFile(join(files, 'a.csv'), options.importRows, 'A'),
      '--company',
      companyA.companyId as string,
      '--create-missing',
    ]).finally(() => {
      importing = false;
    });
    // From A's first committed rows (the CLI reads and checks the file first).
    while (importing && (seen.at(-1)?.treeSize ?? 0) < sizeBefore + 10) await delay(100);
    console.log(`   A's import under way (tree size ${seen.at(-1)?.treeSize}); B writes until it ends`);
    const during = await writeAsB(() => importing);
    const imported = await importOfA;
    const importSeconds = (Date.now() - importStarted) / 1000;
    phases.push(await settle(`B while A imports ${options.importRows.toLocaleString('en-US')} rows`, during));
    polling = false;
    await poller;
    return {
      importRows: options.importRows,
      writesPerSecond: options.writesPerSecond,
      importSeconds: round(importSeconds, 0),
      importOutcome: JSON.stringify(imported.counts ?? imported.status ?? imported),
      deliveriesToA: receiverOfA.received.length,
      phases,
    };
  } finally {
    // BENCH_FAIRNESS_TRACE=1 keeps the functions' logs.
    if (process.env.BENCH_FAIRNESS_TRACE === '1') {
      await delay(2_000);
      cpSync(join(dataDirectory, 'logs'), join(tmpdir(), 'asset-registry-bench-fairness-logs'), {
        recursive: true,
      });
    }
    await server?.kill();
    await receiverOfA.stop();
    await receiverOfB.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  }
}

const ratio = (value: number | null, alone: number | null) =>
  value === null || alone === null || alone === 0 ? '—' : `${(value / alone).toFixed(1)}×`;

export function tenantFairnessSection(result: TenantFairnessResult): Section {
  const [alone] = result.phases;
  const rows = result.phases.flatMap((phase) =>
    (['update', 'checkpoint', 'fanOut', 'delivery'] as const).flatMap((measure) => {
      const latency = phase[measure];
      return latency ? [{ phase, measure, latency }] : [];
    }),
  );
  return {
    title: '13. Tenant fairness: company B while company A imports',
    intro:
      `On \`npm start\` (the deployed shape), through the HTTP API: company B updates its objects at ${result.writesPerSecond}/s, ` +
      `alone and then while company A imports ${result.importRows.toLocaleString('en-US')} rows with \`admin import\`, at the pace a company’s imports keep to (docs/tenant-fairness.md#import-pace); both subscribe a webhook. ` +
      'Commit: the update’s response. Checkpoint: the first tree size above the event’s log index seen by a 50 ms poll of ' +
      '`GET /v2/ledger/checkpoint`. Fan-out: the delivery record’s creation. Receipt: the loopback receiver, from the event’s timestamp. ' +
      'Goal (issue 24): B’s p99 while A imports at most 2× B alone.',
    table: markdownTable(rows, [
      column('phase', (row) => `${row.phase.phase} (${row.phase.seconds} s)`),
      column(
        'latency',
        (row) =>
          ({
            update: 'update round trip',
            checkpoint: 'commit → checkpoint',
            fanOut: 'commit → fan-out',
            delivery: 'commit → webhook receipt',
          })[row.measure],
      ),
      column('events', (row) => row.latency.events, true),
      column('p50 ms', (row) => row.latency.p50Ms, true),
      column('p99 ms', (row) => row.latency.p99Ms, true),
      column('max ms', (row) => row.latency.maxMs, true),
      column('p99 ÷ B alone', (row) => ratio(row.latency.p99Ms, alone?.[row.measure]?.p99Ms ?? null), true),
    ]),
    notes: [
      `A’s import: ${result.importSeconds} s, ${result.importOutcome}; A’s receiver had ${result.deliveriesToA.toLocaleString('en-US')} deliveries when B’s last one arrived.`,
    ],
  };
}
