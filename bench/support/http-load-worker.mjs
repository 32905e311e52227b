// A small load generator, run in a worker thread so that it does not share the event loop of
// the gateway it measures: `connections` keep-alive connections to a loopback address, each
// sending its next request as soon as the previous answer has been read, until `durationMs`
// has passed. Posts back every request's latency and the status codes.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * workerData: {
 *   baseUrl, method, headers,
 *   paths: string[]        // connection i sends to paths[i % paths.length]
 *   body?: string          // `{{n}}` is replaced by a text unique to the request (across workers)
 *   connections, durationMs
 * }
 */
const { baseUrl, method, headers, paths, body, connections, durationMs } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const url = new URL(baseUrl);
const latencies = [];
const statuses = {};
let errors = 0;
let sequence = 0;
const workerRun = randomUUID().slice(0, 8);

function send(path) {
  return new Promise((resolve) => {
    const payload =
      body === undefined ? undefined : Buffer.from(body.replaceAll('{{n}}', `${workerRun}-${sequence++}`));
    const started = process.hrtime.bigint();
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: payload ? { ...headers, 'Content-Length': payload.length } : headers,
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          resolve();
        });
      },
    );
    outgoing.on('error', () => {
      errors++;
      resolve();
    });
    outgoing.end(payload);
  });
}

async function connectionLoop(index, deadline) {
  const path = paths[index % paths.length];
  while (Date.now() < deadline) await send(path);
}

const started = Date.now();
const deadline = started + durationMs;
await Promise.all(Array.from({ length: connections }, (_, index) => connectionLoop(index, deadline)));
const elapsedMs = Date.now() - started;
agent.destroy();
parentPort.postMessage({ latencies, statuses, errors, elapsedMs });
