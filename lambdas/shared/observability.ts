/**
 * Powertools for AWS Lambda, set up once per container: structured JSON logs (with the request
 * id and the caller's ids, never a key or a token) and metrics in CloudWatch EMF. X-Ray
 * tracing is `xray-tracing.ts`. Local mode and the tests turn metrics and tracing off and log warnings only
 * (`POWERTOOLS_*` variables of the embedded stack).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** Powertools' environment variable for the service name, which `lib/` sets to the stack's name. */
export const SERVICE_NAME_ENVIRONMENT = 'POWERTOOLS_SERVICE_NAME';
/** Powertools' environment variable for the CloudWatch metrics namespace. */
export const METRICS_NAMESPACE_ENVIRONMENT = 'POWERTOOLS_METRICS_NAMESPACE';

const serviceName = process.env[SERVICE_NAME_ENVIRONMENT] ?? 'asset-registry';

export const logger = new Logger({ serviceName });
export const metrics = new Metrics({
  serviceName,
  namespace: process.env[METRICS_NAMESPACE_ENVIRONMENT] ?? 'AssetRegistry',
});
/** The service name in logs, metrics and trace annotations. */
export const observedServiceName = serviceName;

/**
 * Counts an answer by operation and status class (`Answers2xx`, `Answers4xx`, `Answers5xx`),
 * on the invocation's own metrics, which the `logMetrics` middleware flushes at the end.
 */
export function countAnswer(operationId: string, statusCode: number): void {
  metrics.addDimension('operation', operationId);
  metrics.addMetric(`Answers${Math.floor(statusCode / 100)}xx`, MetricUnit.Count, 1);
}
