/**
 * The one AWS endpoint every function's worker reaches in local mode (`AWS_ENDPOINT_URL`), with
 * IAM in front of it. For each request it finds the function that signed it (by the access key
 * id of its SigV4 credential scope, `function-credentials.ts`), reads the authorizations AWS
 * would make of it (`aws-request-actions.ts`), evaluates each against the function's role
 * policies and the resource policy that applies (`iam-evaluation.ts`), and then either forwards
 * it to the local backend (DynamoDB Local, s3rver: neither checks SigV4 signatures, so the bytes
 * go as signed, bodies streamed both ways; s3rver only wants its own key id), hands it to the emulator registered for a
 * service without one, or refuses it as AWS does (`aws-refusals.ts`), with one JSON line on
 * stderr naming the function, action and resource.
 *
 * Before IAM, an S3 request that carries its own authentication is checked as S3 checks it
 * (`s3-presigned-check.ts`): a presigned address's signature and lifetime, a browser form's
 * policy, signature and conditions; an S3 request with no authentication at all is refused, as
 * S3 refuses it on a private bucket. Requests signed in their `Authorization` header go on to IAM
 * as before (their signature is not checked).
 *
 * Every allowed call is recorded as (function, action, resource pattern of the statement that
 * allowed it) for the coverage report (`iam-coverage.ts`).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import {
  accessDeniedResponse,
  newRequestId,
  type ServiceResponse,
  s3ErrorResponse,
  unknownCallerResponse,
} from './aws-refusals.js';
import {
  type AuthorizationRequest,
  type AwsAccount,
  type AwsHttpRequest,
  authorizationRequestsOf,
  isKnownService,
  type RequestTranslation,
  s3RequestNeedsBody,
} from './aws-request-actions.js';
import { LOCAL_SECRET_ACCESS_KEY } from './function-credentials.js';
import type { CoverageRecord } from './iam-coverage.js';
import {
  type AuthorizationDecision,
  evaluateAuthorization,
  type FunctionIdentity,
  type PolicyDocument,
  resourcePolicyFor,
} from './iam-evaluation.js';
import { credentialOf, parseCredentialScope, type RequestCredential } from './request-credential.js';
import {
  formUploadOf,
  isPresignedQuery,
  policyMaxBytes,
  presignedPostRefusal,
  presignedQueryRefusal,
  type SecretOfAccessKey,
} from './s3-presigned-check.js';
import { s3Target } from './s3-request-actions.js';

/** A request handed to a local emulator (KMS, SQS, Lambda, EventBridge, Secrets Manager). */
export interface EmulatedRequest extends AwsHttpRequest {
  /** The function that signed it; undefined for an unknown caller let through. */
  functionName: string | undefined;
}

export type ServiceEmulator = (request: EmulatedRequest) => Promise<ServiceResponse>;

export interface LocalAwsEndpointOptions {
  /** The region and account of every ARN. */
  account: AwsAccount;
  /** The functions, by the access key id they sign with (read at each request: it may change). */
  callers: ReadonlyMap<string, FunctionIdentity>;
  /** Resource policies by the ARN of their resource: bucket, KMS key, queue, secret, function. */
  resourcePolicies?: Readonly<Record<string, PolicyDocument>>;
  /** Backends that take requests as AWS's own: DynamoDB Local's and s3rver's URLs. */
  backends: { dynamodb?: string; s3?: string };
  /** Emulators for services without a backend, by signing name (`kms`, `sqs`, …). */
  emulators?: Readonly<Record<string, ServiceEmulator>>;
  /** Lets requests from keys that are no function's (the admin CLI, test fixtures) through unchecked. */
  passUnknownCallers?: boolean;
  /** Key schemas, KMS aliases, … (see `RequestTranslation`), beyond the account. */
  translation?: Omit<RequestTranslation, keyof AwsAccount>;
  /** Appends each distinct allowed call to this JSON Lines file as it is first seen. */
  coverageFile?: string;
  /** Where refusals are written (stderr by default). */
  log?: (line: string) => void;
  port?: number;
  /**
   * The secret of an access key id, to check presigned S3 requests: by default the functions'
   * local secret for their keys, and s3rver's own for its key.
   */
  secretAccessKeyOf?: SecretOfAccessKey;
}

export interface LocalAwsEndpoint {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The distinct calls allowed so far. */
  coverage(): CoverageRecord[];
  close(): Promise<void>;
}

/** The largest body the endpoint reads whole (DynamoDB's and the JSON services' requests are far smaller). */
const MAX_READ_BODY_BYTES = 64 * 1024 * 1024;

function queryRecord(search: URLSearchParams): AwsHttpRequest['query'] {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of search) {
    const known = query[name];
    query[name] = known === undefined ? value : [known, value].flat();
  }
  return query;
}

async function readBody(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_READ_BODY_BYTES) throw new Error('request body too large to read');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a browser form's body up to the start of its file (S3 takes the file last), and gives
 * back what it read and an iterator of the rest.
 */
async function peekFormFields(incoming: IncomingMessage): Promise<{ fields: Buffer; body: Readable }> {
  const iterator = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let ended = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    const text = Buffer.concat(chunks).toString('latin1');
    const file = /filename="[^"]*"[\s\S]*?\r\n\r\n/.exec(text);
    if (file) break;
    if (text.length > MAX_READ_BODY_BYTES) throw new Error('form fields too large to read');
  }
  const fields = Buffer.concat(chunks);
  async function* whole() {
    yield fields;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { fields, body: Readable.from(whole()) };
}

/** Slack over a policy's largest file for the form's other fields and delimiters. */
const FORM_FIELDS_ALLOWANCE_BYTES = 1024 * 1024;

/**
 * A browser form's whole body, for its policy check (the file's size is one of its conditions),
 * or undefined when it is longer than the policy's largest file allows (read no further).
 */
async function readWholeForm(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const { fields, body } = await peekFormFields(incoming);
  const maxFileBytes = policyMaxBytes(/name="policy"\r\n\r\n([^\r]*)/i.exec(fields.toString('latin1'))?.[1]);
  const limit = Math.min(
    MAX_READ_BODY_BYTES,
    (maxFileBytes ?? MAX_READ_BODY_BYTES) + FORM_FIELDS_ALLOWANCE_BYTES,
  );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function writeResponse(response: ServerResponse, method: string, serviceResponse: ServiceResponse): void {
  response.writeHead(serviceResponse.status, {
    ...serviceResponse.headers,
    'content-length': String(serviceResponse.body.length),
  });
  response.end(method === 'HEAD' ? undefined : serviceResponse.body);
}

/** A stream's GetShardIterator and GetRecords responses name the iterators of a stream: remembered here. */
class ShardIterators {
  private readonly streams = new Map<string, string>();
  remember(streamArn: string, response: Buffer): void {
    const { ShardIterator, NextShardIterator } = JSON.parse(response.toString('utf8') || '{}') as Record<
      string,
      string
    >;
    for (const iterator of [ShardIterator, NextShardIterator])
      if (iterator) this.streams.set(iterator, streamArn);
    if (this.streams.size > 10_000) this.streams.delete(this.streams.keys().next().value as string);
  }
  streamOf = (iterator: string): string | undefined =>
    this.streams.get(iterator) ?? /arn:[^|]+:table\/[^/|]+\/stream\/[^|]+/.exec(iterator)?.[0];
}

/**
 * The decisions already made, per identity and resource policy (as objects: a caller given new
 * policies is evaluated afresh): an evaluation takes 1-2 ms, and a function repeats its calls.
 */
class DecisionCache {
  private readonly byIdentity = new WeakMap<object, WeakMap<object, Map<string, AuthorizationDecision>>>();
  private static readonly NO_POLICY = {};
  private static readonly MAX_ENTRIES = 10_000;

  async of(
    identity: FunctionIdentity,
    authorization: AuthorizationRequest,
    resourcePolicy: PolicyDocument | undefined,
    evaluate: () => Promise<AuthorizationDecision>,
  ): Promise<AuthorizationDecision> {
    let byPolicy = this.byIdentity.get(identity);
    if (!byPolicy) {
      byPolicy = new WeakMap();
      this.byIdentity.set(identity, byPolicy);
    }
    const policyKey = resourcePolicy ?? DecisionCache.NO_POLICY;
    let decisions = byPolicy.get(policyKey);
    if (!decisions) {
      decisions = new Map();
      byPolicy.set(policyKey, decisions);
    }
    const key = JSON.stringify(authorization);
    const known = decisions.get(key);
    if (known) return known;
    const decision = await evaluate();
    if (decisions.size >= DecisionCache.MAX_ENTRIES) decisions.clear();
    decisions.set(key, decision);
    return decision;
  }
}

/**
 * Starts the endpoint on 127.0.0.1 (a free port unless `port` is given).
 *
 * @example
 * const endpoint = await startLocalAwsEndpoint({
 *   account: { region: 'eu-west-1', accountId: '123456789012' },
 *   callers: new Map([[accessKeyIdOf('getObject'), identity]]),
 *   backends: { dynamodb: process.env.LOCAL_DYNAMODB_ENDPOINT, s3: process.env.AWS_ENDPOINT_URL_S3 },
 * });
 * // worker environment: AWS_ENDPOINT_URL = endpoint.url, AWS_ACCESS_KEY_ID = accessKeyIdOf('getObject')
 */
export async function startLocalAwsEndpoint(options: LocalAwsEndpointOptions): Promise<LocalAwsEndpoint> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const translation: RequestTranslation = { ...options.translation, ...options.account };
  const shardIterators = new ShardIterators();
  translation.streamArnOfIterator ??= shardIterators.streamOf;
  const decisions = new DecisionCache();
  const covered = new Map<string, CoverageRecord>();
  const secretAccessKeyOf: SecretOfAccessKey =
    options.secretAccessKeyOf ??
    ((accessKeyId) =>
      options.callers.has(accessKeyId)
        ? LOCAL_SECRET_ACCESS_KEY
        : accessKeyId === S3RVER_ACCESS_KEY_ID
          ? S3RVER_SECRET_ACCESS_KEY
          : undefined);
  if (options.coverageFile) mkdirSync(dirname(options.coverageFile), { recursive: true });

  const record = (
    functionName: string,
    authorization: AuthorizationRequest,
    decision: AuthorizationDecision,
  ) => {
    if (!decision.allowed) return;
    for (const statement of decision.allowedBy) {
      const entry: CoverageRecord = {
        functionName,
        action: authorization.action,
        resourcePattern: statement.resourcePattern,
        policyType: statement.policyType,
      };
      const id = JSON.stringify(entry);
      if (covered.has(id)) continue;
      covered.set(id, entry);
      if (options.coverageFile) appendFileSync(options.coverageFile, `${id}\n`);
    }
  };

  /** Evaluates each authorization in turn; returns the first refusal, or none. */
  const refusalOf = async (
    identity: FunctionIdentity,
    authorizations: AuthorizationRequest[],
  ): Promise<{ authorization: AuthorizationRequest; decision: AuthorizationDecision } | undefined> => {
    for (const authorization of authorizations) {
      const resourcePolicy = resourcePolicyFor(options.resourcePolicies ?? {}, authorization.resource);
      const decision = await decisions.of(identity, authorization, resourcePolicy, () =>
        evaluateAuthorization(authorization, identity, { account: options.account, resourcePolicy }),
      );
      if (!decision.allowed) return { authorization, decision };
      record(identity.functionName, authorization, decision);
    }
    return undefined;
  };

  const logS3Refusal = (response: ServiceResponse, method: string, path: string) =>
    log(
      JSON.stringify({
        level: 'WARN',
        message: 'Local S3 refused a request that S3 would refuse',
        method,
        path,
        status: response.status,
        code: /<Code>([^<]*)<\/Code>/.exec(response.body.toString('utf8'))?.[1],
      }),
    );

  const logRefusal = (functionName: string, authorization: AuthorizationRequest, reason: string) =>
    log(
      JSON.stringify({
        level: 'WARN',
        message: 'Local IAM refused an AWS call',
        functionName,
        action: authorization.action,
        resource: authorization.resource,
        reason,
      }),
    );

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const method = incoming.method ?? 'GET';
    const headers = incoming.headers as AwsHttpRequest['headers'];
    const query = queryRecord(url.searchParams);
    const requestId = newRequestId();
    const formPost =
      method === 'POST' &&
      (incoming.headers['content-type'] ?? '').startsWith('multipart/form-data') &&
      s3Target({ path: url.pathname, headers }).key === undefined;

    let credential: RequestCredential | undefined = credentialOf(
      incoming.headers.authorization,
      url.searchParams.get('X-Amz-Credential') ?? undefined,
    );
    let body: Buffer | undefined;
    let bodyStream: Readable = incoming;
    const signedInHeader = incoming.headers.authorization !== undefined;
    if (!signedInHeader && formPost) {
      // A browser form: its policy, signature and conditions are checked as S3 checks them.
      const whole = await readWholeForm(incoming);
      if (!whole) {
        response.setHeader('connection', 'close');
        writeResponse(
          response,
          method,
          s3ErrorResponse(
            400,
            'EntityTooLarge',
            'Your proposed upload exceeds the maximum allowed size',
            requestId,
          ),
        );
        return;
      }
      const upload = formUploadOf(whole, incoming.headers['content-type'] ?? '');
      const bucket = s3Target({ path: url.pathname, headers }).bucket ?? '';
      const refusal = await presignedPostRefusal(upload, bucket, secretAccessKeyOf, new Date(), requestId);
      if (refusal) {
        logS3Refusal(refusal, method, url.pathname);
        writeResponse(response, method, refusal);
        return;
      }
      body = whole;
      bodyStream = Readable.from([whole]);
      credential = parseCredentialScope(upload.fields['x-amz-credential'] ?? '');
    } else if (
      !signedInHeader &&
      isPresignedQuery(incoming.url ?? '') &&
      (credential?.service ?? 's3') === 's3'
    ) {
      // A presigned address: its signature and lifetime are checked as S3 checks them.
      const refusal = await presignedQueryRefusal(
        { method, url: incoming.url ?? '/', headers: incoming.headers },
        secretAccessKeyOf,
        new Date(),
        requestId,
      );
      if (refusal) {
        logS3Refusal(refusal, method, url.pathname);
        writeResponse(response, method, refusal);
        return;
      }
    } else if (
      !credential &&
      method !== 'OPTIONS' &&
      !String(incoming.headers['x-amz-target'] ?? '').startsWith('DynamoDB')
    ) {
      // No authentication at all: S3 lets an anonymous request reach no private bucket.
      writeResponse(response, method, s3ErrorResponse(403, 'AccessDenied', 'Access Denied', requestId));
      return;
    }
    // An unsigned request: a JSON target says DynamoDB; anything else is taken for S3.
    const service =
      credential?.service ??
      (String(incoming.headers['x-amz-target'] ?? '').startsWith('DynamoDB') ? 'dynamodb' : 's3');
    const identity = credential ? options.callers.get(credential.accessKeyId) : undefined;
    if (!identity && !options.passUnknownCallers) {
      log(
        JSON.stringify({
          level: 'WARN',
          message: 'Local AWS endpoint: a call from no known function',
          service,
        }),
      );
      writeResponse(response, method, unknownCallerResponse(service, requestId));
      return;
    }
    if (!isKnownService(service)) {
      writeResponse(
        response,
        method,
        accessDeniedResponse(service, `The local endpoint does not serve ${service}`, requestId),
      );
      return;
    }
    const readsBody = service !== 's3' || s3RequestNeedsBody({ method, path: url.pathname, query, headers });
    if (readsBody && body === undefined) {
      body = await readBody(incoming);
      bodyStream = Readable.from([body]);
    }
    const awsRequest: AwsHttpRequest = {
      method,
      path: url.pathname,
      query,
      headers,
      body: body ?? Buffer.alloc(0),
    };

    let authorizations: AuthorizationRequest[] = [];
    if (identity) {
      try {
        authorizations = authorizationRequestsOf(awsRequest, service, translation);
      } catch (error) {
        // What cannot be read cannot be checked: refused, never let through.
        const reason = `local IAM cannot read this request: ${(error as Error).message}`;
        log(
          JSON.stringify({ level: 'ERROR', message: reason, functionName: identity.functionName, service }),
        );
        writeResponse(response, method, accessDeniedResponse(service, reason, requestId));
        return;
      }
      const refusal = await refusalOf(identity, authorizations);
      if (refusal && !refusal.decision.allowed) {
        logRefusal(identity.functionName, refusal.authorization, refusal.decision.message);
        writeResponse(response, method, accessDeniedResponse(service, refusal.decision.message, requestId));
        return;
      }
    }

    const emulator = options.emulators?.[service];
    const backend = service === 'dynamodb' || service === 's3' ? options.backends[service] : undefined;
    if (emulator) {
      const emulated = await emulator({
        ...awsRequest,
        body: body ?? (await readBody(bodyStream)),
        functionName: identity?.functionName,
      });
      writeResponse(response, method, emulated);
      return;
    }
    if (!backend) {
      writeResponse(
        response,
        method,
        accessDeniedResponse(service, `No local backend serves ${service}`, requestId),
      );
      return;
    }
    await forward({
      backend,
      service,
      incoming,
      response,
      bodyStream,
      onResponse: async (status, responseBody) => {
        // A stream's iterators name no stream: remember which one each came from.
        const target = String(incoming.headers['x-amz-target'] ?? '');
        if (status === 200 && /^DynamoDBStreams_\d+\.(GetShardIterator|GetRecords)$/.test(target)) {
          const streamArn = authorizations[0]?.resource;
          if (streamArn) shardIterators.remember(streamArn, await responseBody());
        }
        // S3 responds to a missing object with 404 only to a caller who may list the bucket; to others 403.
        if (status === 404 && identity && service === 's3' && (method === 'GET' || method === 'HEAD')) {
          const read = authorizations[0];
          const { bucket, key } = s3Target(awsRequest);
          if (read?.action.startsWith('s3:GetObject') && bucket && key !== undefined) {
            const list: AuthorizationRequest = {
              action: 's3:ListBucket',
              resource: `arn:${options.account.partition ?? 'aws'}:s3:::${bucket}`,
              context: { 's3:prefix': key },
            };
            const refusal = await refusalOf(identity, [list]);
            if (refusal && !refusal.decision.allowed) {
              logRefusal(identity.functionName, list, refusal.decision.message);
              return accessDeniedResponse('s3', refusal.decision.message, requestId);
            }
          }
        }
        return undefined;
      },
    });
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      log(JSON.stringify({ level: 'ERROR', message: 'Local AWS endpoint failed', error: String(error) }));
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    coverage: () => [...covered.values()],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface Forwarding {
  backend: string;
  service: string;
  incoming: IncomingMessage;
  response: ServerResponse;
  bodyStream: Readable;
  /**
   * Sees the backend's status before it is passed on; may read the (small) body, or replace the
   * response with its own.
   */
  onResponse: (status: number, body: () => Promise<Buffer>) => Promise<ServiceResponse | undefined>;
}

/**
 * s3rver takes SigV4 requests from one access key id, its own, and checks no signature: the
 * function's key id in the credential scope is replaced by it (DynamoDB Local takes any id).
 */
const S3RVER_ACCESS_KEY_ID = 'S3RVER';
/** The secret that goes with it (`lambdas/shared/aws-requests.ts` signs with it). */
const S3RVER_SECRET_ACCESS_KEY = 'S3RVER';

/** The request's address and headers with s3rver's key id in place of the function's. */
function asS3rverCaller(incoming: IncomingMessage): { path: string; headers: IncomingMessage['headers'] } {
  const authorization = incoming.headers.authorization;
  return {
    path: (incoming.url ?? '/').replace(/([?&]X-Amz-Credential=)[^&%/]+/, `$1${S3RVER_ACCESS_KEY_ID}`),
    headers: {
      ...incoming.headers,
      ...(authorization
        ? {
            authorization: authorization.replace(
              /Credential=[^/,\s]+\//,
              `Credential=${S3RVER_ACCESS_KEY_ID}/`,
            ),
          }
        : {}),
    },
  };
}

/**
 * Sends the request to the backend as it came (the Host header too; to s3rver with its key id)
 * and streams its response back.
 */
function forward({
  backend,
  service,
  incoming,
  response,
  bodyStream,
  onResponse,
}: Forwarding): Promise<void> {
  const target = new URL(backend);
  const { path, headers } =
    service === 's3' ? asS3rverCaller(incoming) : { path: incoming.url, headers: incoming.headers };
  return new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path,
        headers,
      },
      (backendResponse) => {
        // A backend that fails mid-response cuts the caller's response short, as a lost connection would.
        backendResponse.once('error', (error) => response.destroy(error));
        const status = backendResponse.statusCode ?? 502;
        let buffered: Promise<Buffer> | undefined;
        const responseBody = () => {
          buffered ??= readBody(backendResponse);
          return buffered;
        };
        onResponse(status, responseBody)
          .then(async (replacement) => {
            if (replacement) {
              backendResponse.resume();
              writeResponse(response, incoming.method ?? 'GET', replacement);
              return;
            }
            response.writeHead(status, backendResponse.headers);
            if (buffered) response.end(await buffered);
            else backendResponse.pipe(response);
            await new Promise<void>((done) => response.once('close', done));
          })
          .then(resolve, reject);
      },
    );
    outgoing.once('error', reject);
    bodyStream.once('error', (error) => outgoing.destroy(error));
    bodyStream.pipe(outgoing);
  });
}
