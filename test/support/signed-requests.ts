/**
 * Comparing the service's own signed AWS requests (`lambdas/shared/aws-requests.ts`) with the
 * SDK's, the reference: the same Lambda-role credentials (with a session token), region,
 * endpoint settings and frozen clock on both sides. The SDK's request is captured by its
 * request handler (nothing is sent), its telemetry headers taken out before it signs; the
 * service's is stopped by an observer before it leaves, then signed. No network.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { partition } from '@aws-sdk/core/client';
import type { AwsRequest } from '../../lambdas/shared/aws-requests';

export const CREDENTIALS = {
  accessKeyId: 'AKIAEXAMPLEROLEKEY01',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//session+token==',
};
export const REGION = 'eu-west-1';
const NOW = new Date('2026-11-26T06:15:30.000Z');

/** What the SDK adds for its own telemetry; it is not part of the operation. */
const SDK_TELEMETRY = ['user-agent', 'x-amz-user-agent', 'amz-sdk-invocation-id', 'amz-sdk-request'];

/** A request as it goes on the wire. */
export interface WireRequest {
  method: string;
  hostname: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: string;
}

interface AnyHttpRequest {
  method: string;
  hostname: string;
  path: string;
  query?: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

export const wire = (request: AnyHttpRequest): WireRequest => ({
  method: request.method,
  hostname: request.hostname,
  path: request.path,
  query: { ...request.query },
  headers: Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  ),
  body: request.body === undefined ? '' : Buffer.from(request.body as string).toString('utf8'),
});

/**
 * An SDK client's options that capture what it would send, and the request it signed last.
 *
 * @example
 * const capture = sdkCapture();
 * const kms = capture.watch(new KMSClient(capture.options));
 * const sent = await capture.request(kms, new EncryptCommand(input));
 */
export function sdkCapture(region = REGION) {
  let captured: WireRequest[] = [];
  return {
    options: {
      region,
      credentials: CREDENTIALS,
      requestHandler: {
        handle: async (request: AnyHttpRequest) => {
          captured.push(wire(request));
          throw new Error('captured, not sent');
        },
      },
    },
    /** Takes the telemetry headers out before the client signs. */
    watch<Client extends { middlewareStack: { addRelativeTo: (...args: never[]) => void } }>(
      client: Client,
    ): Client {
      (client.middlewareStack.addRelativeTo as (...args: unknown[]) => void)(
        (next: (args: unknown) => unknown) => (args: { request: { headers: Record<string, string> } }) => {
          for (const name of SDK_TELEMETRY) delete args.request.headers[name];
          return next(args);
        },
        { relation: 'before', toMiddleware: 'httpSigningMiddleware', name: 'dropTelemetry' },
      );
      return client;
    },
    /** The request the client signs for a command, or the error it throws before it sends one. */
    async outcome(client: { send(command: never): Promise<unknown> }, command: unknown): Promise<Outcome> {
      captured = [];
      let thrown: unknown;
      await client.send(command as never).catch((error: unknown) => {
        thrown = error;
      });
      return captured[0] ?? { error: (thrown as Error).message };
    },
    /** The request the client signs for a command. */
    async request(
      client: { send(command: never): Promise<unknown> },
      command: unknown,
    ): Promise<WireRequest> {
      captured = [];
      await client.send(command as never).catch(() => undefined);
      const [request] = captured;
      if (!request) throw new Error('The SDK sent nothing');
      return request;
    },
  };
}

type AwsRequests = typeof import('../../lambdas/shared/aws-requests');

/** The requests the service sends while `act` runs, signed; each is stopped before it leaves. */
export async function ourRequests(aws: AwsRequests, act: () => Promise<unknown>): Promise<WireRequest[]> {
  const seen: AwsRequest[] = [];
  const stop = aws.observeAwsRequests((request) => {
    seen.push(request);
    throw new Error('captured, not sent');
  });
  await act().catch(() => undefined);
  stop();
  return Promise.all(seen.map(async (request) => wire(await aws.signedAwsRequest(request))));
}

/** The first request the service sends while `act` runs, signed. */
export async function ourRequest(aws: AwsRequests, act: () => Promise<unknown>): Promise<WireRequest> {
  const [request] = await ourRequests(aws, act);
  if (!request) throw new Error('The service sent nothing');
  return request;
}

/** What a client did with a call: the request it signed, or the error it threw instead. */
export type Outcome = WireRequest | { error: string };

/** What `act` returns, or the message of the error it throws (presigned addresses, refusals). */
export async function settled<Value>(act: () => Promise<Value>): Promise<Value | { error: string }> {
  try {
    return await act();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** What the service's `act` ends in: its first request, signed, or the error it threw instead. */
export async function ourOutcome(aws: AwsRequests, act: () => Promise<unknown>): Promise<Outcome> {
  let thrown: unknown;
  const [request] = await ourRequests(aws, () =>
    act().catch((error: unknown) => {
      thrown = error;
    }),
  );
  return request ?? { error: (thrown as Error)?.message ?? 'nothing sent, nothing thrown' };
}

/** The endpoint settings the SDK clients read from the environment (`aws-endpoints.ts`). */
const isEndpointSetting = (name: string) =>
  name.startsWith('AWS_ENDPOINT_URL') ||
  ['AWS_USE_FIPS_ENDPOINT', 'AWS_USE_DUALSTACK_ENDPOINT', 'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS'].includes(
    name,
  );

/**
 * A Lambda function's environment: the role's credentials, the region, no endpoint settings,
 * no local endpoints, and no shared config file (a Lambda has none, and the SDK would read one).
 */
export function useLambdaRoleEnvironment(): void {
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  process.env.AWS_SESSION_TOKEN = CREDENTIALS.sessionToken;
  process.env.AWS_REGION = REGION;
  process.env.AWS_CONFIG_FILE = join(__dirname, 'no-shared-config-file');
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(__dirname, 'no-shared-credentials-file');
  for (const name of Object.keys(process.env)) {
    if (name.startsWith('LOCAL_') || isEndpointSetting(name)) delete process.env[name];
  }
}

/** One partition of the SDK's table and its regions. */
export interface PartitionRegions {
  partition: string;
  /** Its first region. */
  region: string;
  regions: string[];
}

/**
 * Every partition of the SDK's partition table with its regions: those that match its region
 * pattern (the table also names pseudo-regions such as `aws-global`, where no function runs).
 * The table is read from the SDK's own data file, so that a partition or region the SDK adds is
 * compared too; `partition()`, which the service calls, must agree with it.
 */
export function sdkPartitionRegions(): PartitionRegions[] {
  const coreDirectory = dirname(require.resolve('@aws-sdk/core/package.json'));
  const source = readFileSync(
    join(coreDirectory, 'dist-es', 'submodules', 'client', 'util-endpoints', 'lib', 'aws', 'partitions.js'),
    'utf8',
  );
  const table = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as {
    partitions: Array<{ id: string; regionRegex: string; regions: Record<string, unknown> }>;
  };
  return table.partitions.map(({ id, regionRegex, regions }) => {
    const real = Object.keys(regions).filter((name) => new RegExp(regionRegex).test(name));
    for (const region of real) {
      const found = partition(region).name;
      if (found !== id) throw new Error(`partition('${region}') is ${found}, not ${id}`);
    }
    const [region] = real;
    if (!region) throw new Error(`No region of partition ${id} matches ${regionRegex}`);
    return { partition: id, region, regions: real };
  });
}

/** A region and the endpoint settings in the environment, under which both sides are compared. */
export interface EndpointCase {
  name: string;
  region: string;
  environment: Record<string, string>;
}

const FIPS = { AWS_USE_FIPS_ENDPOINT: 'true' };
const DUAL_STACK = { AWS_USE_DUALSTACK_ENDPOINT: 'true' };

/**
 * The cases: one region of every partition, plain, FIPS, dual-stack and both; then, in
 * {@link REGION}, endpoint URLs as configured for local mode (the service's own variable, the
 * global one, the service's before the global, one with a path, one ignored) and with FIPS or
 * dual-stack, which the SDK refuses. `serviceId` names the service's variable (`S3`, `KMS`).
 */
export function endpointCases(serviceId: string): EndpointCase[] {
  const ownVariable = `AWS_ENDPOINT_URL_${serviceId.toUpperCase()}`;
  const local = 'http://127.0.0.1:4569';
  return [
    ...sdkPartitionRegions().flatMap(({ partition: id, region }) => [
      { name: `${id} (${region})`, region, environment: {} },
      { name: `${id} (${region}), FIPS`, region, environment: FIPS },
      { name: `${id} (${region}), dual-stack`, region, environment: DUAL_STACK },
      { name: `${id} (${region}), FIPS and dual-stack`, region, environment: { ...FIPS, ...DUAL_STACK } },
    ]),
    { name: ownVariable, region: REGION, environment: { [ownVariable]: local } },
    { name: 'AWS_ENDPOINT_URL', region: REGION, environment: { AWS_ENDPOINT_URL: 'http://localhost:4566' } },
    {
      name: `${ownVariable} before AWS_ENDPOINT_URL`,
      region: REGION,
      environment: { AWS_ENDPOINT_URL: 'http://localhost:4566', [ownVariable]: local },
    },
    {
      name: 'an endpoint URL with a port and a path',
      region: REGION,
      environment: { [ownVariable]: 'https://emulator.example:8443/aws/' },
    },
    {
      name: 'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS',
      region: REGION,
      environment: { [ownVariable]: local, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' },
    },
    { name: `${ownVariable} with FIPS`, region: REGION, environment: { [ownVariable]: local, ...FIPS } },
    {
      name: `${ownVariable} with dual-stack`,
      region: REGION,
      environment: { [ownVariable]: local, ...DUAL_STACK },
    },
    {
      name: `${ownVariable} with FIPS and dual-stack`,
      region: REGION,
      environment: { [ownVariable]: local, ...FIPS, ...DUAL_STACK },
    },
  ];
}

/** Runs `act` with the case's region and endpoint settings in the environment, then restores it. */
export async function inEndpointCase<Result>(
  endpointCase: EndpointCase,
  act: () => Promise<Result>,
): Promise<Result> {
  const saved = { ...process.env };
  for (const name of Object.keys(process.env)) if (isEndpointSetting(name)) delete process.env[name];
  Object.assign(process.env, endpointCase.environment, { AWS_REGION: endpointCase.region });
  try {
    return await act();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

/** Freezes the clock in each test, and only the clock: promises and sockets keep their timers. */
export function freezeClockInEachTest(): void {
  beforeEach(() => {
    jest.useFakeTimers({
      now: NOW,
      doNotFake: [
        'nextTick',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'hrtime',
        'performance',
      ],
    });
  });
  afterEach(() => {
    jest.useRealTimers();
  });
}
