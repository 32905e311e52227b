/**
 * Standard Webhooks signatures (standardwebhooks.com): the secret is `whsec_` + base64 of random
 * bytes; a delivery is signed with HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`
 * keyed with the secret's bytes, and sent as `webhook-signature: v1,<base64>`. While a rotated
 * secret is still valid, the header carries one signature per secret, space-separated.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 32 bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_<base64>`. */
export const generateSigningSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The headers of one delivery. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a delivery body with every given secret.
 *
 * @example
 * signatureHeaders(['whsec_...'], 'msg_1', new Date(), '{"type":"object.created",...}')
 * // { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,...' }
 */
export function signatureHeaders(
  secrets: readonly string[],
  messageId: string,
  sentAt: Date,
  body: string,
): SignatureHeaders {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
    const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
    return `v1,${signature}`;
  });
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
