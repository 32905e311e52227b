/**
 * A webhook receiver on loopback for the tests: records every request it gets (headers and raw
 * body) and answers as the test says (a status, or no answer at all). Verification is the
 * tests' business, with the `standardwebhooks` library, as a real receiver would do it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from '../../local/free-port';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** How the receiver answers: a status code, or `'hang'` (never answers). */
export type ReceiverAnswer = number | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** Changes how later requests are answered. */
  answerWith(answer: ReceiverAnswer): void;
  /** Starts listening (again) on the same port. */
  start(): Promise<void>;
  /** Stops listening: deliveries then meet a refused connection. */
  stop(): Promise<void>;
}

/**
 * A receiver on a fixed free port, not yet listening unless `listening` is true. It answers
 * `answerBody` when given, else `answer <status>`.
 */
export async function webhookReceiver(
  options: { listening?: boolean; answer?: ReceiverAnswer; answerBody?: string } = {},
) {
  const port = await freePort();
  let answer: ReceiverAnswer = options.answer ?? 200;
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
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' });
      response.end(options.answerBody ?? `answer ${answer}`);
    });
  };
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks/in`,
    port,
    received,
    answerWith(next) {
      answer = next;
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
