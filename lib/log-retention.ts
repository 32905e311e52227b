/**
 * How long every log group of the stack keeps its events: function logs, API Gateway access and
 * execution logs. One setting, context `logRetentionDays`, so that a team can keep more (or
 * less) without touching the constructs.
 */
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Days a log event is kept when context `logRetentionDays` is not given. */
export const DEFAULT_LOG_RETENTION_DAYS = 30;

/** CloudWatch Logs accepts only these retention periods (days; `RetentionDays` values). */
const ALLOWED_RETENTION_DAYS = new Set(
  Object.values(RetentionDays).filter((days): days is number => typeof days === 'number' && days > 0),
);

/**
 * The retention the stack's log groups get: context `logRetentionDays`, else
 * {@link DEFAULT_LOG_RETENTION_DAYS}. Throws at synth for a value CloudWatch Logs refuses.
 *
 * @example
 * // cdk deploy -c logRetentionDays=90
 * logRetentionOf(this); // RetentionDays.THREE_MONTHS
 */
export function logRetentionOf(scope: Construct): RetentionDays {
  const given = scope.node.tryGetContext('logRetentionDays');
  const days = given === undefined ? DEFAULT_LOG_RETENTION_DAYS : Number(given);
  if (!ALLOWED_RETENTION_DAYS.has(days)) {
    throw new Error(
      `logRetentionDays must be one of ${[...ALLOWED_RETENTION_DAYS].sort((a, b) => a - b).join(', ')}; got ${given}`,
    );
  }
  return days as RetentionDays;
}

/**
 * A log group with the stack's retention. Kept when the stack is deleted (`lib/stateful-resources.ts`
 * decides, for every log group): the last days of logs are evidence (who called what) that a
 * teardown must not erase; they still expire by retention.
 */
export function retainedLogGroup(scope: Construct, id: string, logGroupName?: string): LogGroup {
  return new LogGroup(scope, id, { logGroupName, retention: logRetentionOf(scope) });
}
