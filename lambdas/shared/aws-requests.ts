/**
 * AWS requests signed and sent with the pieces every function already bundles for DynamoDB:
 * Smithy's SigV4 signer, its Node.js HTTP handler and the SDK's default credential chain.
 * The other services' SDK clients (S3 with lib-storage and the presigners, KMS, SQS, Lambda)
 * added 30 to 200 KB to each function that held one, and V8 reads all of a bundle at a cold
 * start, even code that runs later: those functions started 1.2-1.9× as slow as a bare
 * DynamoDB handler (`npm run bench`). The requests built on this module are the SDK's own,
 * header for header (`test/unit/s3-requests.test.ts`, `aws-json-requests.test.ts`).
 *
 * Each request goes where the service's SDK client would send it (`aws-endpoints.ts`): the host
 * from the SDK's partition table for the region of any partition (`amazonaws.com`,
 * `amazonaws.com.cn`, `amazonaws.eu`, `c2s.ic.gov`, …), FIPS and dual-stack hosts when
 * `AWS_USE_FIPS_ENDPOINT` or `AWS_USE_DUALSTACK_ENDPOINT` is `true`, and the endpoint URL of
 * `AWS_ENDPOINT_URL_<SERVICE>` or `AWS_ENDPOINT_URL` when one is set (local mode's emulators),
 * all read from the environment as the SDK reads them (`docs/aws-endpoints.md`).
 *
 * Each request is retried as the SDK's standard mode retries (3 attempts, full-jitter backoff,
 * on throttling, 5xx and lost connections), traced as an X-Ray subsegment like the DynamoDB
 * calls, and seen by the observers (`observeAwsRequests`, the bench's call meter).
 */
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { HttpRequest } from '@smithy/core/protocols';
import {
  DEFAULT_RETRY_DELAY_BASE,
  isServerError,
  isThrottlingError,
  isTransientError,
  MAXIMUM_RETRY_DELAY,
  THROTTLING_RETRY_DELAY_BASE,
} from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import { awsRegion, endpointOnThisMachine } from './aws-endpoints.js';
import { traceAwsCall } from './xray-tracing.js';

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

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

let credentials: ReturnType<typeof defaultProvider> | undefined;

/**
 * The caller's credentials: the Lambda role's, from the SDK's default provider chain (the one
 * the DynamoDB client uses, already in every bundle; it refreshes them before they expire).
 * Created on first use, so that importing this module reads no setting.
 */
export const awsCredentials = (): Promise<AwsCredentials> => {
  credentials ??= defaultProvider();
  return credentials();
};

/**
 * The key of s3rver, local mode's S3, which checks key and signature: local mode may have no
 * AWS key to give.
 */
const EMULATOR_CREDENTIALS: AwsCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * The credentials a service's requests are signed with: the default chain's
 * ({@link awsCredentials}), except for an endpoint URL on this machine while the environment
 * holds no key (local mode on a machine without AWS credentials): those get s3rver's key.
 * `service` is the endpoint prefix (`s3`, `kms`), which names its `AWS_ENDPOINT_URL_<SERVICE>`.
 */
export const credentialsFor = (service: string) => (): Promise<AwsCredentials> =>
  endpointOnThisMachine(service) && !process.env.AWS_ACCESS_KEY_ID
    ? Promise.resolve(EMULATOR_CREDENTIALS)
    : awsCredentials();

/**
 * A SigV4 signer for one service (its signing name, which is its endpoint prefix for the
 * services we call), as its SDK client configures it. It reads the region at each signature.
 */
export const signerFor = (service: string, options: { s3?: boolean } = {}): SignatureV4 =>
  new SignatureV4({
    service,
    region: async () => awsRegion(),
    credentials: credentialsFor(service),
    sha256: Sha256,
    // S3 takes the path as it is sent; the others have it escaped once more when signing.
    uriEscapePath: !options.s3,
    // The payload's hash in `x-amz-content-sha256`, as every SDK client sends it.
    applyChecksum: true,
  });

export interface AwsRequest {
  /** The service's name in traces (`S3`, `KMS`). */
  service: string;
  /** The operation's name, for traces and errors (`GetObject`). */
  operation: string;
  signer: SignatureV4;
  protocol: string;
  hostname: string;
  port?: number;
  /** The endpoint URL's own path, when one is configured with a path (before `path`). */
  pathPrefix?: string;
  /** Already percent-encoded. */
  path: string;
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Signed, so kept whole to be sent again on a retry. */
  body?: Buffer | string;
  /** The bucket an S3 request reaches (for its trace). */
  bucket?: string;
}

export interface AwsResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Readable;
  requestId?: string;
  attempts: number;
}

/** What a service wrote of a refusal: its error code (`NoSuchKey`) and message. */
export type ErrorReader = (
  status: number,
  headers: Record<string, string | undefined>,
  text: string,
) => {
  code: string;
  message: string;
};

/** A service refused a request: its status and error code. */
export class AwsRequestError extends Error {
  override readonly name = 'AwsRequestError';
  constructor(
    readonly service: string,
    readonly operation: string,
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly attempts = 1,
  ) {
    super(`${service} ${operation}: ${status} ${code}: ${message}`);
  }
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The `host` header of an address (with its port when it has one). */
export const hostOf = (address: { hostname: string; port?: number }): string =>
  address.port === undefined ? address.hostname : `${address.hostname}:${address.port}`;

/**
 * In Lambda, the invocation's X-Ray trace header goes along with each request, as the SDK
 * sends it: the jobs it starts and the messages it queues join the same trace. (SigV4 never
 * signs it.)
 */
const traceHeader = (): Record<string, string> => {
  const traceId = process.env._X_AMZN_TRACE_ID;
  return process.env.AWS_LAMBDA_FUNCTION_NAME && traceId ? { 'X-Amzn-Trace-Id': traceId } : {};
};

/** Signs a request (without sending it). */
export async function signedAwsRequest(request: AwsRequest): Promise<HttpRequest> {
  const httpRequest = new HttpRequest({
    protocol: request.protocol,
    hostname: request.hostname,
    port: request.port,
    path: `${request.pathPrefix ?? ''}${request.path}`,
    method: request.method,
    query: request.query ?? {},
    headers: {
      ...request.headers,
      ...traceHeader(),
      host: hostOf(request),
      ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
    },
    body: request.body,
  });
  return (await request.signer.sign(httpRequest)) as HttpRequest;
}

/** Sees each request start, and is told how it ended (the bench's call meter). */
export type AwsRequestObserver = (request: AwsRequest) => (failed: boolean) => void;
const observers: AwsRequestObserver[] = [];

/**
 * Adds an observer of every request from now on, as an SDK middleware would; returns the
 * function that removes it.
 *
 * @example
 * const stop = observeAwsRequests((request) => (failed) => count(request.operation, failed));
 */
export function observeAwsRequests(observer: AwsRequestObserver): () => void {
  observers.push(observer);
  return () => {
    const index = observers.indexOf(observer);
    if (index >= 0) observers.splice(index, 1);
  };
}

const MAX_ATTEMPTS = 3;

/**
 * Whether the SDK's standard mode would try again: throttling (429, `SlowDown`,
 * `ThrottlingException`, …), transient errors (timeouts, lost connections) and 5xx. It reads
 * an error as the SDK's errors are shaped (`name` the code, `$metadata.httpStatusCode`).
 */
type SdkShapedError = Parameters<typeof isTransientError>[0];
const retryable = (error: SdkShapedError) =>
  isThrottlingError(error) || isTransientError(error) || isServerError(error);

/** The SDK's full-jitter backoff: a throttled request waits longer. */
const backoff = (attempt: number, throttled: boolean) =>
  sleep(
    Math.min(
      MAXIMUM_RETRY_DELAY,
      Math.random() * 2 ** attempt * (throttled ? THROTTLING_RETRY_DELAY_BASE : DEFAULT_RETRY_DELAY_BASE),
    ),
  );

let handler: NodeHttpHandler | undefined;

async function sendOnce(request: AwsRequest): Promise<Omit<AwsResponse, 'attempts'>> {
  handler ??= new NodeHttpHandler();
  const { response } = await handler.handle(await signedAwsRequest(request));
  const headers = response.headers as Record<string, string | undefined>;
  return {
    status: response.statusCode,
    headers,
    body: response.body as Readable,
    requestId: headers['x-amz-request-id'] ?? headers['x-amzn-requestid'] ?? undefined,
  };
}

/** How a service writes its refusals; and, for the responses that can fail after a 200, how to tell. */
export interface ResponseReading {
  readError: ErrorReader;
  /**
   * Reads a 2xx response whole and says the error it holds, if any (S3's CopyObject and
   * CompleteMultipartUpload can fail after responding 200). Such an error is retried as a 503.
   */
  errorInBody?: (text: string) => { code: string; message: string } | undefined;
}

function tracedSend(request: AwsRequest, reading: ResponseReading): Promise<AwsResponse> {
  return traceAwsCall(
    { service: request.service, operation: request.operation, bucket: request.bucket },
    async () => {
      for (let attempt = 1; ; attempt++) {
        const last = attempt === MAX_ATTEMPTS;
        let response: Omit<AwsResponse, 'attempts'>;
        try {
          response = await sendOnce(request);
        } catch (error) {
          const sdkShaped = error as SdkShapedError;
          if (last || !retryable(sdkShaped)) throw error;
          await backoff(attempt, isThrottlingError(sdkShaped));
          continue;
        }
        const status = response.status;
        let refusal: { code: string; message: string } | undefined;
        if (status < 300 && reading.errorInBody) {
          const text = (await readAll(response.body)).toString('utf8');
          refusal = reading.errorInBody(text);
          if (!refusal) return { ...response, body: Readable.from([Buffer.from(text)]), attempts: attempt };
        } else if (status < 300) {
          return { ...response, attempts: attempt };
        } else {
          refusal = reading.readError(
            status,
            response.headers,
            (await readAll(response.body)).toString('utf8'),
          );
        }
        const sdkShaped = {
          name: refusal.code,
          message: refusal.message,
          $metadata: { httpStatusCode: status < 300 ? 503 : status },
        } as SdkShapedError;
        if (last || !retryable(sdkShaped)) {
          throw new AwsRequestError(
            request.service,
            request.operation,
            status,
            refusal.code,
            refusal.message,
            response.requestId,
            attempt,
          );
        }
        await backoff(attempt, isThrottlingError(sdkShaped));
      }
    },
    (responseOrError) => {
      const known = responseOrError as Partial<AwsResponse & AwsRequestError>;
      return { httpStatusCode: known.status, requestId: known.requestId, attempts: known.attempts };
    },
  );
}

/**
 * Sends one request and returns its response, or throws {@link AwsRequestError} for a status of
 * 300 or more (or an error `errorInBody` finds), with what `readError` reads of the service's
 * response. The caller reads or drops the response's `body`.
 *
 * @example
 * const response = await sendAws(request, { readError: xmlError });
 */
export async function sendAws(request: AwsRequest, reading: ResponseReading): Promise<AwsResponse> {
  const ends = observers.map((observe) => observe(request));
  try {
    const response = await tracedSend(request, reading);
    for (const end of ends) end(false);
    return response;
  } catch (error) {
    for (const end of ends) end(true);
    throw error;
  }
}
