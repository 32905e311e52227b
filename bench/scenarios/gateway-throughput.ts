/**
 * Throughput through the local gateway (authorizer, routing, proxy events, handlers), on
 * loopback only and bounded in time: keep-alive connections, each sending its next request
 * when the previous response is in, from a worker thread. Requests per second and p50/p99 for
 * list objects, create object, update object (each connection on its own object, so this is
 * not the contention case) and get wallet.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type DynamoDbMeter, describeCommands } from '../support/dynamodb-meter';
import { givenObject, givenPlace, givenWallet, newApp, newCompany } from '../support/fixtures';
import { seedObjects } from '../support/seed';
import { percentile, round } from '../support/statistics';

export interface ThroughputRow {
  endpoint: string;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  statuses: string;
  errors: number;
  dynamoDbCallsPerRequest: number;
  commandsPerRequest: string;
  /** Cancelled transactions by reason (hot items written by every request conflict). */
  cancellations: string;
}

interface LoadResult {
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
  elapsedMs: number;
}

interface LoadSpec {
  endpoint: string;
  method: string;
  headers: Record<string, string>;
  paths: string[];
  body?: string;
}

function runLoad(
  baseUrl: string,
  spec: LoadSpec,
  connections: number,
  durationMs: number,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, '..', 'support', 'http-load-worker.mjs'), {
      workerData: { baseUrl, ...spec, connections, durationMs },
    });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}

export async function runGatewayThroughput(options: {
  meter: DynamoDbMeter;
  baseUrl: string;
  connections: number;
  durationMs: number;
}): Promise<ThroughputRow[]> {
  const company = await newCompany('Bench throughput');
  const place = await givenPlace(company);
  await seedObjects(company.tenantId, 100);
  const updatePool: string[] = [];
  for (let index = 0; index < options.connections; index++)
    updatePool.push(await givenObject(company, place));
  const app = await newApp('Bench throughput app');
  const walletId = await givenWallet(app);
  const companyHeaders = { 'X-API-Key': company.apiKey, 'Content-Type': 'application/json' };
  const runId = randomUUID().slice(0, 8);

  const specs: LoadSpec[] = [
    {
      endpoint: 'list objects (page 1 of 100+)',
      method: 'GET',
      headers: companyHeaders,
      paths: ['/v2/objects'],
    },
    {
      endpoint: 'create object',
      method: 'POST',
      headers: companyHeaders,
      paths: [`/v2/categories/${place.categoryId}/subcategories/${place.subcategoryId}/objects`],
      body: JSON.stringify({ externalId: `LOAD-${runId}-{{n}}`, name: 'Load object {{n}}', owner: 'Bench' }),
    },
    {
      endpoint: 'update object (one object per connection)',
      method: 'PUT',
      headers: companyHeaders,
      paths: updatePool.map((objectId) => `/v2/objects/${objectId}`),
      body: JSON.stringify({ action: 'update', description: 'Load update {{n}}' }),
    },
    {
      endpoint: 'get wallet',
      method: 'GET',
      headers: { 'X-API-Key': app.apiKey },
      paths: [`/v2/wallets/${walletId}`],
    },
  ];

  const rows: ThroughputRow[] = [];
  for (const spec of specs) {
    // A short warm-up loads the handler module and fills the authorizer's cache.
    await runLoad(options.baseUrl, spec, 2, 300);
    options.meter.reset();
    const result = await runLoad(options.baseUrl, spec, options.connections, options.durationMs);
    const reading = options.meter.read();
    const requests = result.latencies.length;
    const perRequest = Object.fromEntries(
      Object.entries(reading.callsByCommand).map(([command, count]) => [command, round(count / requests, 2)]),
    );
    rows.push({
      endpoint: `${spec.method} ${spec.endpoint}`,
      connections: options.connections,
      seconds: round(result.elapsedMs / 1000, 1),
      requests,
      requestsPerSecond: round(requests / (result.elapsedMs / 1000), 0),
      p50Ms: round(percentile(result.latencies, 0.5), 1),
      p99Ms: round(percentile(result.latencies, 0.99), 1),
      statuses: Object.entries(result.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(', '),
      errors: result.errors,
      dynamoDbCallsPerRequest: round(reading.calls / Math.max(1, requests), 2),
      commandsPerRequest: describeCommands(perRequest),
      cancellations: describeCommands(reading.cancellations),
    });
  }
  return rows;
}
