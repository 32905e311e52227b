/**
 * One HTTP attempt of a delivery: the URL's addresses are checked again (they may have changed
 * since creation), and the request connects to the address that was checked, never to a fresh
 * DNS response. A 2xx within 10 s succeeds; the first 1 KB of the response is kept.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { allowedAddresses, WebhookAddressError } from './webhook-address.js';

/** A receiver has 10 s to respond, connection included. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a response is kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The transport's settings: `timeoutMs` is {@link DELIVERY_TIMEOUT_MS}; only the tests shorten
 * it, to see a receiver that hangs counted as a failure without waiting 10 s.
 */
export const transportSettings: { timeoutMs: number } = { timeoutMs: DELIVERY_TIMEOUT_MS };

export interface TransportResult {
  statusCode: number | null;
  latencyMs: number;
  response: string;
  error: string | null;
}

export const isSuccess = (result: TransportResult): boolean =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** A lookup that responds with the one address already checked. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return ((_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  }) as LookupFunction;
}

function readExcerpt(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => resolve(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) {
        // The rest is not needed: stop reading rather than wait for a large body.
        response.destroy();
        finish();
      }
    });
    response.on('end', finish);
    response.on('error', finish);
    response.on('close', finish);
  });
}

/**
 * POSTs a body to a webhook URL.
 *
 * @example
 * const result = await postWebhook(new URL('https://hooks.example.com/in'), headers, body);
 * isSuccess(result) // true for a 2xx within 10 s
 */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<TransportResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let address: string;
  try {
    [address] = (await allowedAddresses(url)) as [string];
  } catch (error) {
    if (!(error instanceof WebhookAddressError)) throw error;
    return { statusCode: null, latencyMs: elapsed(), response: '', error: error.message };
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<TransportResult>((resolve) => {
    let settled = false;
    const settle = (result: Omit<TransportResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'asset-registry-webhooks',
        },
        lookup: pinnedLookup(address),
        // A fresh connection per attempt: a pooled socket could lead to an address checked earlier.
        agent: false,
      },
      (response) => {
        void readExcerpt(response).then((excerpt) =>
          settle({ statusCode: response.statusCode ?? null, response: excerpt, error: null }),
        );
      },
    );
    const { timeoutMs } = transportSettings;
    const timer = setTimeout(() => {
      outgoing.destroy();
      settle({ statusCode: null, response: '', error: `No response within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      settle({ statusCode: null, response: '', error: error.code ?? error.message }),
    );
    outgoing.end(body);
  });
}
