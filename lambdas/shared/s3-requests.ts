/**
 * S3's REST API, signed and sent with the pieces every function already bundles for DynamoDB:
 * Smithy's SigV4 signer, its Node.js HTTP handler and the DynamoDB client's credential chain.
 * The S3 SDK and its helpers (lib-storage, the presigners) made up 200 KB of each bundle that
 * touched S3, and even loaded lazily their code had to be compiled at every cold start: the
 * S3 functions started 1.4-1.9× as slow as a bare DynamoDB handler (`npm run bench`).
 *
 * Requests are the SDK's, header for header and byte for byte (apart from its telemetry
 * headers): `test/unit/s3-requests.test.ts` signs each one next to the SDK. In local mode they
 * go path-style to s3rver, which checks no signature.
 */
import { createHash, createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpRequest } from '@smithy/core/protocols';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import { dynamoDbClient } from './clients.js';
import { traceAwsCall } from './xray-tracing.js';

/** s3rver's address in local mode (`local/embedded-stack.ts`). */
export const LOCAL_S3_ENDPOINT_ENVIRONMENT = 'LOCAL_S3_ENDPOINT';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData): string | Buffer =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SigV4's hash (and HMAC, given a secret), on node:crypto: the interface the signer takes. */
export class Sha256 {
  private hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    throw new Error('not used by SigV4');
  }
}

const region = (): string => process.env.AWS_REGION ?? 'us-east-1';

/** s3rver takes any key; it only needs one. */
const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The caller's credentials: the Lambda role's, through the DynamoDB client's provider chain. */
export const s3Credentials = (): Promise<{
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}> =>
  process.env[LOCAL_S3_ENDPOINT_ENVIRONMENT]
    ? Promise.resolve(LOCAL_CREDENTIALS)
    : dynamoDbClient.config.credentials();

let signer: SignatureV4 | undefined;

/** The signer S3 expects: no double escaping of the path, and the payload's hash in a header. */
export function s3Signer(): SignatureV4 {
  signer ??= new SignatureV4({
    service: 's3',
    region: region(),
    credentials: s3Credentials,
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: true,
  });
  return signer;
}

/** Percent-encoding as RFC 3986 (and SigV4) has it: `encodeURIComponent` and `!'()*`. */
export const uriEscape = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A key as S3 wants it in the path: each segment percent-encoded. */
const encodeKey = (key: string): string => key.split('/').map(uriEscape).join('/');

/**
 * Where a bucket's object lives: virtual-hosted in AWS (`<bucket>.s3.<region>.amazonaws.com`),
 * path-style on s3rver.
 */
export function objectLocation(
  bucket: string,
  key = '',
): { protocol: string; hostname: string; port?: number; path: string } {
  const local = process.env[LOCAL_S3_ENDPOINT_ENVIRONMENT];
  if (local) {
    const url = new URL(local);
    return {
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: `/${bucket}/${encodeKey(key)}`,
    };
  }
  const suffix = region().startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return { protocol: 'https:', hostname: `${bucket}.s3.${region()}.${suffix}`, path: `/${encodeKey(key)}` };
}

/** The `host` header of a location (with its port when it has one). */
export const hostOf = (location: { hostname: string; port?: number }): string =>
  location.port === undefined ? location.hostname : `${location.hostname}:${location.port}`;

export interface S3Request {
  /** The S3 operation's name, for traces and errors (`GetObject`). */
  operation: string;
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  bucket: string;
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Signed (its SHA-256 in `x-amz-content-sha256`, which S3 checks), so kept whole to retry. */
  body?: Buffer | string;
}

export interface S3Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Readable;
  requestId?: string;
  attempts: number;
}

/** S3 refused a request: its status and error code (`NoSuchKey`, `PreconditionFailed`, …). */
export class S3RequestError extends Error {
  override readonly name = 'S3RequestError';
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly attempts = 1,
  ) {
    super(`S3 ${operation}: ${status} ${code}: ${message}`);
  }
}

/** An object or version that does not exist (404 on any request). */
export const isMissingObject = (error: unknown): boolean =>
  error instanceof S3RequestError && error.status === 404;

/** The text of the first `<tag>` in an XML document, its entities decoded. */
export function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return match?.[1]?.replace(
    /&(?:#x([0-9a-fA-F]+)|#(\d+)|(\w+));/g,
    (entity, hex?: string, decimal?: string, name?: string) =>
      hex
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : decimal
          ? String.fromCodePoint(Number(decimal))
          : (named[name ?? ''] ?? entity),
  );
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#x0D;',
  '\n': '&#x0A;',
  '\u0085': '&#x85;',
  '\u2028': '&#x2028;',
};

/** Text escaped for an XML element, as the SDK escapes it (line breaks too, or S3 would normalize them). */
export const xmlEscape = (text: string): string =>
  text.replace(/[&"'<>\r\n\u0085\u2028]/g, (c) => XML_ESCAPES[c] ?? c);

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** S3's advice (503 SlowDown, 500 InternalError) and lost connections: worth another try. */
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 3;

let handler: NodeHttpHandler | undefined;

/** Signs a request as S3 expects it (without sending it). */
export async function signedS3Request(request: S3Request): Promise<HttpRequest> {
  const location = objectLocation(request.bucket, request.key);
  const httpRequest = new HttpRequest({
    ...location,
    method: request.method,
    query: request.query ?? {},
    headers: {
      ...request.headers,
      host: hostOf(location),
      ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
    },
    body: request.body,
  });
  return (await s3Signer().sign(httpRequest)) as HttpRequest;
}

async function sendOnce(request: S3Request): Promise<Omit<S3Answer, 'attempts'>> {
  handler ??= new NodeHttpHandler();
  const { response } = await handler.handle(await signedS3Request(request));
  const headers = response.headers as Record<string, string | undefined>;
  return {
    status: response.statusCode,
    headers,
    body: response.body as Readable,
    requestId: headers['x-amz-request-id'] ?? undefined,
  };
}

/** The error S3 wrote (XML, none for HEAD), with the status when it wrote none. */
async function refusal(request: S3Request, answer: Omit<S3Answer, 'attempts'>, attempts: number) {
  const xml = (await readAll(answer.body)).toString('utf8');
  const code = xmlText(xml, 'Code') ?? (answer.status === 404 ? 'NotFound' : `Http${answer.status}`);
  return new S3RequestError(
    request.operation,
    answer.status,
    code,
    xmlText(xml, 'Message') ?? 'no message',
    answer.requestId,
    attempts,
  );
}

/** Sees each request start, and is told how it ended (the bench's call meter). */
export type S3RequestObserver = (request: S3Request) => (failed: boolean) => void;
const observers: S3RequestObserver[] = [];

/**
 * Adds an observer of every S3 request from now on, as an SDK middleware would; answers the
 * function that removes it.
 *
 * @example
 * const stop = observeS3Requests((request) => (failed) => count(request.operation, failed));
 */
export function observeS3Requests(observer: S3RequestObserver): () => void {
  observers.push(observer);
  return () => {
    observers.splice(observers.indexOf(observer), 1);
  };
}

/**
 * Sends one S3 request and answers its response, or throws {@link S3RequestError} for a status
 * of 300 or more. It is tried again (3 attempts in all, full-jitter backoff) on the statuses
 * and lost connections S3 says to retry. The caller reads or drops the answer's `body`.
 *
 * @example
 * const answer = await sendS3({ operation: 'HeadObject', method: 'HEAD', bucket, key });
 */
export async function sendS3(request: S3Request): Promise<S3Answer> {
  const ends = observers.map((observe) => observe(request));
  try {
    const answer = await tracedSend(request);
    for (const end of ends) end(false);
    return answer;
  } catch (error) {
    for (const end of ends) end(true);
    throw error;
  }
}

function tracedSend(request: S3Request): Promise<S3Answer> {
  return traceAwsCall(
    { service: 'S3', operation: request.operation, bucket: request.bucket },
    async () => {
      for (let attempt = 1; ; attempt++) {
        const last = attempt === MAX_ATTEMPTS;
        let answer: Omit<S3Answer, 'attempts'>;
        try {
          answer = await sendOnce(request);
        } catch (error) {
          if (last) throw error;
          await sleep(Math.random() * 100 * 2 ** attempt);
          continue;
        }
        if (answer.status < 300) return { ...answer, attempts: attempt };
        if (last || !RETRIED_STATUSES.has(answer.status)) throw await refusal(request, answer, attempt);
        answer.body.resume();
        await sleep(Math.random() * 100 * 2 ** attempt);
      }
    },
    (answerOrError) => {
      const known = answerOrError as Partial<S3Answer & S3RequestError>;
      return { httpStatusCode: known.status, requestId: known.requestId, attempts: known.attempts };
    },
  );
}

/** An XML body S3 reads, with the Content-MD5 that some operations require. */
export function xmlBody(xml: string): { body: string; headers: Record<string, string> } {
  return {
    body: xml,
    headers: {
      'content-type': 'application/xml',
      'content-md5': createHash('md5').update(xml).digest('base64'),
    },
  };
}
