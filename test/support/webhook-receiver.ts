/**
 * A webhook receiver on loopback for the tests: records every request it gets (headers and raw
 * body) and responds as the test says (a status, or no response at all). Verification is the
 * tests' business, with the `standardwebhooks` library, as a real receiver would do it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from '../../local/free-port';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** How the receiver responds: a status code, or `'hang'` (never responds). */
export type ReceiverResponse = number | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** Changes how the receiver responds to later requests. */
  respondWith(response: ReceiverResponse): void;
  /** Starts listening (again) on the same port. */
  start(): Promise<void>;
  /** Stops listening: deliveries then meet a refused connection. */
  stop(): Promise<void>;
}

/**
 * A receiver on a fixed free port, not yet listening unless `listening` is true. It responds with
 * `responseBody` when given, else `response <status>`.
 */
export async function webhookReceiver(
  options: { listening?: boolean; response?: ReceiverResponse; responseBody?: string } = {},
) {
  const port = await freePort();
  let nextResponse: ReceiverResponse = options.response ?? 200;
  let server: Server | undefined;
  const hanging = new Set<ServerResponse>();
  const received: ReceivedDelivery[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      if (nextResponse === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(nextResponse, { 'content-type': 'text/plain' });
      response.end(options.responseBody ?? `response ${nextResponse}`);
    });
  };
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks/in`,
    port,
    received,
    respondWith(next) {
      nextResponse = next;
    },
    start() {
      server = createServer(handle);
      return new Promise((resolve) => server?.listen(port, '127.0.0.1', () => resolve()));
    },
    async stop() {
      for (const response of hanging) response.destroy();
      hanging.clear();
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  if (options.listening ?? true) await receiver.start();
  return receiver;
}

/** The parsed body of a received delivery. */
export const bodyOf = (delivery: ReceivedDelivery) =>
  JSON.parse(delivery.body) as {
    type: string;
    timestamp: string;
    data: { companyId: string; entityId: string; sequence: number; action: string; hash: string };
  };
