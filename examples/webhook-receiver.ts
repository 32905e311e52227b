/**
 * A webhook receiver that checks Standard Webhooks signatures (standardwebhooks.com) and prints
 * each event it accepts, one line each:
 *
 *   WEBHOOK_SECRET=whsec_... npx tsx examples/webhook-receiver.ts 4000 [count]
 *
 * The port is the first argument (else `PORT`, else 4000); the secret is the one that
 * `POST /v2/webhooks` returned. With a count, it exits after that many accepted events (for
 * scripts); without one it runs until Ctrl-C. A delivery is accepted when one of the `v1,` signatures in its
 * `webhook-signature` header is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`,
 * keyed with the secret's bytes (base64 after `whsec_`), and its timestamp is within 5 minutes:
 * 204. Anything else is 401 and a line on stderr. In production, any Standard Webhooks library
 * does the same (`new Webhook(secret).verify(body, headers)` from the `standardwebhooks` package).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';

const TOLERANCE_SECONDS = 5 * 60;

const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  process.stderr.write('Set WEBHOOK_SECRET to the secret that POST /v2/webhooks returned (whsec_...)\n');
  process.exit(2);
}
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const port = Number(process.argv[2] ?? process.env.PORT ?? 4000);
const eventsBeforeExit = process.argv[3] === undefined ? Number.POSITIVE_INFINITY : Number(process.argv[3]);
let eventsAccepted = 0;

/** Why a delivery is refused, or undefined when its signature and timestamp are good. */
function refusal(headers: IncomingMessage['headers'], body: string): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    return 'missing webhook-id, webhook-timestamp or webhook-signature';
  }
  // A replayed delivery carries an old timestamp, and the signature covers it.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return 'timestamp too far off';
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  // One signature per valid secret (two for 24 h after a rotation), space-separated.
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : 'no valid signature';
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // The signature covers the raw bytes: verify before parsing.
    const body = Buffer.concat(chunks).toString('utf8');
    const reason = refusal(request.headers, body);
    if (reason) {
      process.stderr.write(`refused ${request.headers['webhook-id'] ?? '(no id)'}: ${reason}\n`);
      response.writeHead(401).end();
      return;
    }
    const event = JSON.parse(body) as { type: string; data: { entityId: string; sequence: number } };
    process.stdout.write(`verified ${event.type} ${event.data.entityId} #${event.data.sequence}\n`);
    eventsAccepted += 1;
    response.writeHead(204).end(() => {
      if (eventsAccepted >= eventsBeforeExit) process.exit(0);
    });
  });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${port}/\n`);
});
// Ctrl-C or kill: end at once (a receiver keeps nothing that needs a clean stop).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
