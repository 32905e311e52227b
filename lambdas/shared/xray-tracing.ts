/**
 * X-Ray traces without the X-Ray SDK. Lambda's active tracing records each invocation (the
 * function segment, with its initialization) and hands the trace header to the function; this
 * module adds what Powertools Tracer added on top (a `## handler` subsegment annotated with
 * ColdStart, Service and operation, and one subsegment per AWS call, with its operation, table,
 * request id, attempts and status), written as segment documents to the X-Ray daemon over UDP,
 * as the SDK does. It replaces Powertools Tracer because the SDK behind it (aws-xray-sdk-core
 * and semver, about 100 KB) was the largest part of every function's bundle beyond the
 * DynamoDB client, and loaded at every cold start.
 *
 * Tracing is on when Lambda gives a daemon address and a sampled trace header, and
 * `POWERTOOLS_TRACE_ENABLED` is not `false` (local mode and the tests turn it off).
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:dgram';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';

/** The daemon's segment-document header. */
const DOCUMENT_HEADER = '{"format":"json","version":1}\n';

interface TraceHeader {
  root: string;
  parent: string;
}

/** One subsegment under way. */
interface OpenSubsegment {
  id: string;
  name: string;
  traceId: string;
  parentId: string;
  startTime: number;
}

let socket: Socket | undefined;
let coldStart = true;
/** The `## handler` subsegment of the invocation running now (Lambda runs one at a time per container). */
let activeHandlerSegment: OpenSubsegment | undefined;

/** `udp:host:port tcp:host:port` or `host:port` → the UDP address. */
function daemonAddress(): { host: string; port: number } | undefined {
  const setting = process.env.AWS_XRAY_DAEMON_ADDRESS;
  if (!setting) return undefined;
  const udp = setting.split(' ').find((part) => part.startsWith('udp:')) ?? setting;
  const [host, port] = udp.replace(/^udp:/, '').split(':');
  return host && port ? { host, port: Number(port) } : undefined;
}

/** The invocation's trace header, when tracing is on and the invocation is sampled. */
function sampledTraceHeader(): TraceHeader | undefined {
  if (process.env.POWERTOOLS_TRACE_ENABLED === 'false' || !daemonAddress()) return undefined;
  const fields = new Map(
    (process.env._X_AMZN_TRACE_ID ?? '').split(';').map((part) => part.split('=') as [string, string]),
  );
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  return root && parent && fields.get('Sampled') === '1' ? { root, parent } : undefined;
}

const nowSeconds = (): number => Date.now() / 1000;

function openSubsegment(name: string, traceId: string, parentId: string): OpenSubsegment {
  return { id: randomBytes(8).toString('hex'), name, traceId, parentId, startTime: nowSeconds() };
}

/** Sends a finished subsegment; a failed send never fails the request. */
function sendSubsegment(subsegment: OpenSubsegment, details: Record<string, unknown>): void {
  const address = daemonAddress();
  if (!address) return;
  const document = JSON.stringify({
    type: 'subsegment',
    id: subsegment.id,
    trace_id: subsegment.traceId,
    parent_id: subsegment.parentId,
    name: subsegment.name,
    start_time: subsegment.startTime,
    end_time: nowSeconds(),
    ...details,
  });
  if (!socket) {
    // Loaded with the first segment sent, not at every cold start (local mode and tests send none).
    socket = process.getBuiltinModule('node:dgram').createSocket('udp4');
    // The socket must not keep a finished process (tests, scripts) alive.
    socket.unref();
  }
  socket.send(`${DOCUMENT_HEADER}${document}`, address.port, address.host, () => undefined);
}

/** error (4xx), throttle (429) and fault (5xx) flags of a status code, as X-Ray reads them. */
function statusFlags(statusCode: number | undefined): Record<string, boolean> {
  if (statusCode === undefined) return { fault: true };
  if (statusCode === 429) return { error: true, throttle: true };
  if (statusCode >= 500) return { fault: true };
  if (statusCode >= 400) return { error: true };
  return {};
}

/**
 * The middy middleware that traces each invocation as a `## handler` subsegment of Lambda's
 * function segment, with the ColdStart, Service and operation annotations.
 *
 * @example
 * middy().use(traceInvocation({ serviceName: 'asset-registry', operation: 'getObject' }))
 */
export function traceInvocation(options: {
  serviceName: string;
  operation: string;
}): middy.MiddlewareObj<unknown, APIGatewayProxyResult> {
  const finish = (statusCode: number | undefined) => {
    const subsegment = activeHandlerSegment;
    activeHandlerSegment = undefined;
    if (!subsegment) return;
    sendSubsegment(subsegment, {
      annotations: { ColdStart: coldStart, Service: options.serviceName, operation: options.operation },
      http: { response: { status: statusCode } },
      ...statusFlags(statusCode),
    });
    coldStart = false;
  };
  return {
    before: () => {
      const header = sampledTraceHeader();
      activeHandlerSegment = header ? openSubsegment('## handler', header.root, header.parent) : undefined;
      if (!header) coldStart = false;
    },
    after: (request) => finish(request.response?.statusCode),
    onError: () => finish(undefined),
  };
}

/** What an AWS call's subsegment records of its response. */
export interface CallMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

/**
 * Runs one AWS call as a subsegment named after the service, under the running invocation's
 * `## handler` subsegment; `metadataOf` reads the call's response (or its error).
 *
 * @example
 * await traceAwsCall({ service: 'S3', operation: 'GetObject', bucket }, send, (response) => response.metadata);
 */
export async function traceAwsCall<T>(
  call: { service: string; operation?: string; table?: string; bucket?: string },
  run: () => Promise<T>,
  metadataOf: (responseOrError: unknown) => CallMetadata | undefined,
): Promise<T> {
  const parent = activeHandlerSegment;
  if (!parent) return run();
  const subsegment = openSubsegment(call.service, parent.traceId, parent.id);
  const aws = (metadata: CallMetadata | undefined) => ({
    namespace: 'aws',
    aws: {
      operation: call.operation,
      region: process.env.AWS_REGION,
      request_id: metadata?.requestId,
      retries: Math.max(0, (metadata?.attempts ?? 1) - 1),
      ...(call.table ? { table_name: call.table } : {}),
      ...(call.bucket ? { bucket_name: call.bucket } : {}),
    },
    http: { response: { status: metadata?.httpStatusCode } },
    ...statusFlags(metadata?.httpStatusCode),
  });
  try {
    const response = await run();
    sendSubsegment(subsegment, aws(metadataOf(response)));
    return response;
  } catch (error) {
    sendSubsegment(subsegment, aws(metadataOf(error)));
    throw error;
  }
}

/**
 * Traces every call of an AWS SDK client as a subsegment named after the service (retries
 * included), under the running invocation's `## handler` subsegment.
 *
 * @example
 * traceAwsCalls(new DynamoDBClient({}), 'DynamoDB');
 */
export function traceAwsCalls(client: DynamoDBClient, serviceName: string): void {
  client.middlewareStack.add(
    (next, context) => (args) => {
      const input = args.input as { TableName?: string };
      return traceAwsCall(
        {
          service: serviceName,
          operation: context.commandName?.replace(/Command$/, ''),
          table: input.TableName,
        },
        () => next(args),
        (responseOrError) =>
          (
            (responseOrError as { output?: { $metadata?: CallMetadata } }).output ??
            (responseOrError as { $metadata?: CallMetadata })
          ).$metadata,
      );
    },
    { step: 'initialize', name: 'xrayTracing' },
  );
}
