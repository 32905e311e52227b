/**
 * Structured JSON logs (with the request id and the caller's ids, never a key or a token) and
 * metrics in CloudWatch EMF, set up once per container. X-Ray tracing is `xray-tracing.ts`.
 *
 * They write what Powertools Logger and Metrics wrote (the same JSON keys, the same EMF
 * documents, the same `POWERTOOLS_*` settings), without their 37 KB of bundle and the classes
 * they build at every cold start: this service uses a handful of their calls. Local mode and
 * the tests turn metrics off and log warnings only (`POWERTOOLS_*` variables of the embedded
 * stack).
 */
import type { Context } from 'aws-lambda';

/** Powertools' environment variable for the service name, which `lib/` sets to the stack's name. */
export const SERVICE_NAME_ENVIRONMENT = 'POWERTOOLS_SERVICE_NAME';
/** Powertools' environment variable for the CloudWatch metrics namespace. */
export const METRICS_NAMESPACE_ENVIRONMENT = 'POWERTOOLS_METRICS_NAMESPACE';

const serviceName = process.env[SERVICE_NAME_ENVIRONMENT] ?? 'asset-registry';
/** The service name in logs, metrics and trace annotations. */
export const observedServiceName = serviceName;

const LOG_LEVELS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
type LogLevel = keyof typeof LOG_LEVELS;

/** The level set as Powertools reads it (its own variable, then Lambda's log level), INFO by default. */
function configuredLogLevel(): number {
  const setting = (
    process.env.POWERTOOLS_LOG_LEVEL ??
    process.env.AWS_LAMBDA_LOG_LEVEL ??
    'INFO'
  ).toUpperCase();
  return LOG_LEVELS[setting as LogLevel] ?? LOG_LEVELS.INFO;
}

/** An error as Powertools Logger writes it: name, where it was thrown, message, stack, cause. */
function loggedError(error: Error): Record<string, unknown> {
  return {
    name: error.name,
    location:
      // No parenthesis inside: each try stops at the next one, so the search stays linear on a
      // message (the stack's first line) made of parentheses.
      /\(([^()\n]*):(\d+):(\d+)\)/
        .exec(error.stack ?? '')
        ?.slice(1, 3)
        .join(':') ?? '',
    message: error.message,
    stack: error.stack,
    ...(error.cause === undefined
      ? {}
      : { cause: error.cause instanceof Error ? loggedError(error.cause) : error.cause }),
  };
}

const withErrorsLogged = (attributes: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      value instanceof Error ? loggedError(value) : value,
    ]),
  );

/** The invocation's fields in every log line, as Powertools' `injectLambdaContext` adds them. */
let invocationFields: Record<string, unknown> = {};
/** Keys added for the invocation (`appendKeys`), cleared when the next one starts. */
let appendedKeys: Record<string, unknown> = {};
let coldStart = true;

function writeLog(level: LogLevel, message: string, attributes: Record<string, unknown>): void {
  if (LOG_LEVELS[level] < configuredLogLevel()) return;
  const traceId = /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];
  const line = {
    level,
    message,
    timestamp: new Date().toISOString(),
    service: serviceName,
    ...invocationFields,
    ...(traceId ? { xray_trace_id: traceId } : {}),
    ...appendedKeys,
    ...withErrorsLogged(attributes),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** One JSON line per call, at or above the configured level. */
export const logger = {
  debug: (message: string, attributes: Record<string, unknown> = {}) =>
    writeLog('DEBUG', message, attributes),
  info: (message: string, attributes: Record<string, unknown> = {}) => writeLog('INFO', message, attributes),
  warn: (message: string, attributes: Record<string, unknown> = {}) => writeLog('WARN', message, attributes),
  error: (message: string, attributes: Record<string, unknown> = {}) =>
    writeLog('ERROR', message, attributes),
  /** Keys for every line of this invocation; undefined values are left out. */
  appendKeys(keys: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(keys)) if (value !== undefined) appendedKeys[name] = value;
  },
};

/** The units this service counts in. */
export type MetricUnit = 'Count' | 'Milliseconds';

const metricsNamespace = () => process.env[METRICS_NAMESPACE_ENVIRONMENT] ?? 'AssetRegistry';
const metricsDisabled = () => process.env.POWERTOOLS_METRICS_DISABLED === 'true';

/** One CloudWatch embedded-metric-format document: metrics under one set of dimensions. */
function writeEmf(
  dimensions: Record<string, string>,
  values: Map<string, { unit: MetricUnit; values: number[] }>,
): void {
  if (values.size === 0 || metricsDisabled()) return;
  const document = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: metricsNamespace(),
          Dimensions: [Object.keys(dimensions)],
          Metrics: [...values].map(([name, { unit }]) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    ...dimensions,
    ...Object.fromEntries(
      [...values].map(([name, stored]) => [
        name,
        stored.values.length === 1 ? stored.values[0] : stored.values,
      ]),
    ),
  };
  process.stdout.write(`${JSON.stringify(document)}\n`);
}

let metricDimensions: Record<string, string> = {};
let storedMetrics = new Map<string, { unit: MetricUnit; values: number[] }>();

/** Metrics of the invocation, written as one EMF document by `publishStoredMetrics`. */
export const metrics = {
  addDimension(name: string, value: string): void {
    metricDimensions[name] = value;
  },
  addMetric(name: string, unit: MetricUnit, value: number): void {
    const stored = storedMetrics.get(name) ?? { unit, values: [] };
    stored.values.push(value);
    storedMetrics.set(name, stored);
  },
  publishStoredMetrics(): void {
    writeEmf({ service: serviceName, ...metricDimensions }, storedMetrics);
    metricDimensions = {};
    storedMetrics = new Map();
  },
};

/**
 * Starts an invocation's logs and metrics, as Powertools' `injectLambdaContext` (with
 * `resetKeys`) and `logMetrics` (with `captureColdStartMetric`) did: the context's fields on
 * every line, last invocation's keys gone, and a `ColdStart` metric by function on the first.
 */
export function startInvocation(context: Context): void {
  invocationFields = {
    cold_start: coldStart,
    function_arn: context.invokedFunctionArn,
    function_memory_size: Number(context.memoryLimitInMB),
    function_name: context.functionName,
    function_request_id: context.awsRequestId,
  };
  appendedKeys = {};
  if (coldStart) {
    writeEmf(
      { service: serviceName, function_name: context.functionName },
      new Map([['ColdStart', { unit: 'Count', values: [1] }]]),
    );
  }
  coldStart = false;
}

/**
 * Counts a response by operation and status class on the invocation's own metrics, which the
 * handler stack publishes at the end. The metrics keep the names they were published under
 * (`Answers2xx`, `Answers4xx`, `Answers5xx`), so that dashboards and alarms still find them.
 */
export function countResponse(operationId: string, statusCode: number): void {
  metrics.addDimension('operation', operationId);
  metrics.addMetric(`Answers${Math.floor(statusCode / 100)}xx`, 'Count', 1);
}
