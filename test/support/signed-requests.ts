/**
 * Comparing the service's own signed AWS requests (`lambdas/shared/aws-requests.ts`) with the
 * SDK's, the reference: the same Lambda-role credentials (with a session token), region and
 * frozen clock on both sides. The SDK's request is captured by its request handler (nothing is
 * sent), its telemetry headers taken out before it signs; the service's is stopped by an
 * observer before it leaves, then signed. No network.
 */
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
export function sdkCapture() {
  let captured: WireRequest[] = [];
  return {
    options: {
      region: REGION,
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

/** A Lambda function's environment: the role's credentials, the region, no local endpoints. */
export function useLambdaRoleEnvironment(): void {
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  process.env.AWS_SESSION_TOKEN = CREDENTIALS.sessionToken;
  process.env.AWS_REGION = REGION;
  for (const name of Object.keys(process.env)) if (name.startsWith('LOCAL_')) delete process.env[name];
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
