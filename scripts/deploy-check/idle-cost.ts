/**
 * What the stack costs in a month in which nobody calls it, read from its synthesized
 * templates: the resources billed by the month (customer managed KMS keys, alarms, dashboards
 * beyond the free ones, secrets, WAF web ACLs and their rules), everything that runs on a schedule (EventBridge schedule
 * rules → the Lambda requests and GB-seconds of the functions they start) and the pollers
 * Lambda keeps on SQS queues; and, apart, the price of each GB stored (table, PITR, buckets,
 * logs), since what is stored depends on use.
 */
import { SEQUENCER_TIMING_ENVIRONMENT } from '../../lambdas/domain/ledger/sequencer-timing.js';
import {
  CLOUDWATCH_COMPOSITE_ALARM_MONTH,
  CLOUDWATCH_DASHBOARD_MONTH,
  CLOUDWATCH_FREE_DASHBOARDS,
  CLOUDWATCH_HIGH_RESOLUTION_ALARM_METRIC_MONTH,
  CLOUDWATCH_LOGS_STORAGE_GB_MONTH,
  CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH,
  DYNAMODB_PITR_GB_MONTH,
  DYNAMODB_STORAGE_GB_MONTH,
  HOURS_PER_MONTH,
  KMS_KEY_MONTH,
  LAMBDA_REQUEST,
  lambdaGbSecondPrice,
  type Price,
  S3_STANDARD_GB_MONTH,
  SECRETS_MANAGER_SECRET_MONTH,
  SQS_FIFO_REQUEST,
  SQS_STANDARD_REQUEST,
  WAF_RULE_MONTH,
  WAF_WEB_ACL_MONTH,
} from './aws-prices.js';
import type { BenchFigures } from './bench-figures.js';
import { triggersPerMonth } from './schedules.js';
import type { StackTemplate, TemplateResource } from './synthesized-templates.js';
import { functionReferencedBy, type TemplateFunction } from './template-functions.js';

/**
 * The environment variable in which a scheduled function that keeps running for a while
 * (polling) states how long one run lasts: the sequencer's, while a schedule starts it.
 */
export const RUN_SECONDS_ENVIRONMENT = SEQUENCER_TIMING_ENVIRONMENT.runSeconds;

/**
 * Lambda's pollers on an idle SQS queue: "When traffic is low, Lambda scales back the
 * processing to five concurrent batches, and can optimize to as few as 2 concurrent batches
 * ... this optimization is not available when you enable the maximum concurrency setting"
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html, read 2026-11-27).
 */
export const IDLE_SQS_POLLERS = { withMaximumConcurrency: 5, without: 2 } as const;
/**
 * How long each poller's ReceiveMessage waits on an empty queue: SQS's longest long poll.
 * AWS does not publish the wait its pollers use; this is an assumption, so the SQS line is an estimate.
 */
export const IDLE_SQS_LONG_POLL_SECONDS = 20;

/** One monthly charge: so many units at a price. */
export interface CostLine {
  /** What is charged (`KMS customer managed keys`). */
  item: string;
  quantity: number;
  price: Price;
  usdPerMonth: number;
  /** How the quantity was counted, and from what. */
  basis: string;
  /** The resources behind it, `<stack>/<logical id>`. */
  resources: string[];
}

/** A price per GB stored in a month, and the resources it applies to. */
export interface StorageLine {
  item: string;
  usdPerGbMonth: number;
  prices: Price[];
  resources: string[];
}

export interface IdleCost {
  lines: CostLine[];
  /** The sum of `lines`, per month. */
  usdPerMonth: number;
  storage: StorageLine[];
  /** What the model could not price, or priced only as a bound. */
  warnings: string[];
}

type Found = { stack: StackTemplate; logicalId: string; resource: TemplateResource };

const pathOf = ({ stack, logicalId }: Found) => `${stack.stackName}/${logicalId}`;
const propertiesOf = (found: Found) => found.resource.Properties ?? {};

/**
 * The idle cost of the stack whose templates are given; `figures` give the duration of a
 * scheduled function that states no run length.
 */
export function idleCost(templates: readonly StackTemplate[], figures: BenchFigures): IdleCost {
  const resourcesOfType = (type: string): Found[] =>
    templates.flatMap((stack) =>
      Object.entries(stack.template.Resources)
        .filter(([, resource]) => resource.Type === type)
        .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
    );
  const warnings: string[] = [];
  const lines: CostLine[] = [];
  const line = (item: string, quantity: number, price: Price, basis: string, found: Found[]) => {
    if (found.length > 0) {
      lines.push({
        item,
        quantity,
        price,
        usdPerMonth: quantity * price.usd,
        basis,
        resources: found.map(pathOf),
      });
    }
  };

  const keys = resourcesOfType('AWS::KMS::Key');
  line('KMS customer managed keys', keys.length, KMS_KEY_MONTH, `${keys.length} AWS::KMS::Key`, keys);

  const alarms = resourcesOfType('AWS::CloudWatch::Alarm').map((found) => ({
    found,
    ...alarmMetrics(found),
  }));
  for (const highResolution of [false, true]) {
    const chosen = alarms.filter((alarm) => alarm.highResolution === highResolution);
    const metrics = chosen.reduce((sum, alarm) => sum + alarm.metrics, 0);
    line(
      `CloudWatch ${highResolution ? 'high-resolution' : 'standard'} alarms`,
      metrics,
      highResolution ? CLOUDWATCH_HIGH_RESOLUTION_ALARM_METRIC_MONTH : CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH,
      `${chosen.length} AWS::CloudWatch::Alarm reading ${metrics} metrics`,
      chosen.map((alarm) => alarm.found),
    );
  }
  const composites = resourcesOfType('AWS::CloudWatch::CompositeAlarm');
  line(
    'CloudWatch composite alarms',
    composites.length,
    CLOUDWATCH_COMPOSITE_ALARM_MONTH,
    `${composites.length} AWS::CloudWatch::CompositeAlarm`,
    composites,
  );

  const dashboards = resourcesOfType('AWS::CloudWatch::Dashboard');
  line(
    'CloudWatch dashboards beyond the free ones',
    Math.max(0, dashboards.length - CLOUDWATCH_FREE_DASHBOARDS),
    CLOUDWATCH_DASHBOARD_MONTH,
    `${dashboards.length} AWS::CloudWatch::Dashboard, ${CLOUDWATCH_FREE_DASHBOARDS} free per account (if the account has no other)`,
    dashboards,
  );

  const secrets = resourcesOfType('AWS::SecretsManager::Secret');
  line(
    'Secrets Manager secrets',
    secrets.length,
    SECRETS_MANAGER_SECRET_MONTH,
    `${secrets.length} AWS::SecretsManager::Secret`,
    secrets,
  );

  const webAcls = resourcesOfType('AWS::WAFv2::WebACL');
  line('WAF web ACLs', webAcls.length, WAF_WEB_ACL_MONTH, `${webAcls.length} AWS::WAFv2::WebACL`, webAcls);
  const webAclRules = webAcls.reduce(
    (sum, acl) => sum + ((propertiesOf(acl) as { Rules?: unknown[] }).Rules ?? []).length,
    0,
  );
  line(
    'WAF web ACL rules',
    webAclRules,
    WAF_RULE_MONTH,
    `the Rules of ${webAcls.length} AWS::WAFv2::WebACL (a managed rule group is one rule)`,
    webAcls,
  );

  for (const rule of resourcesOfType('AWS::Events::Rule')) {
    lines.push(...scheduledRunLines(templates, rule, figures, warnings));
  }
  for (const mapping of resourcesOfType('AWS::Lambda::EventSourceMapping')) {
    const sqsLine = idlePollingLine(mapping);
    if (sqsLine) lines.push(sqsLine);
  }

  for (const table of resourcesOfType('AWS::DynamoDB::Table')) {
    const properties = propertiesOf(table);
    if ((properties.BillingMode ?? 'PROVISIONED') !== 'PAY_PER_REQUEST') {
      warnings.push(`${pathOf(table)} has provisioned capacity, which this model does not price`);
    }
  }

  return {
    lines,
    usdPerMonth: lines.reduce((sum, each) => sum + each.usdPerMonth, 0),
    storage: storageLines(resourcesOfType),
    warnings,
  };
}

/** The metrics an alarm reads (each is billed) and whether its period is under a minute. */
function alarmMetrics(found: Found): { metrics: number; highResolution: boolean } {
  const properties = propertiesOf(found) as {
    Period?: number;
    Metrics?: Array<{ MetricStat?: { Period?: number } }>;
  };
  if (!properties.Metrics) return { metrics: 1, highResolution: Number(properties.Period ?? 60) < 60 };
  const stats = properties.Metrics.filter((metric) => metric.MetricStat);
  return {
    metrics: stats.length,
    highResolution: stats.some((metric) => Number(metric.MetricStat?.Period ?? 60) < 60),
  };
}

/** The Lambda requests and GB-seconds of the functions an enabled schedule rule starts. */
function scheduledRunLines(
  templates: readonly StackTemplate[],
  rule: Found,
  figures: BenchFigures,
  warnings: string[],
): CostLine[] {
  const properties = propertiesOf(rule) as {
    ScheduleExpression?: string;
    State?: string;
    Targets?: Array<{ Arn?: unknown }>;
  };
  if (!properties.ScheduleExpression || properties.State === 'DISABLED') return [];
  const frequency = triggersPerMonth(properties.ScheduleExpression);
  if (frequency.upperBound) {
    warnings.push(
      `${pathOf(rule)}: ${properties.ScheduleExpression} counted as firing every day (an upper bound)`,
    );
  }
  const lines: CostLine[] = [];
  for (const target of properties.Targets ?? []) {
    const targetFunction = functionReferencedBy(templates, rule.stack, target.Arn);
    if (!targetFunction) {
      warnings.push(`${pathOf(rule)} starts a target that is not a Lambda function; not priced`);
      continue;
    }
    const run = secondsPerRun(targetFunction, figures);
    if (run.warning) warnings.push(run.warning);
    const gbSeconds = frequency.triggersPerMonth * run.seconds * (targetFunction.memoryMb / 1024);
    const gbSecondPrice = lambdaGbSecondPrice(targetFunction.architecture);
    lines.push({
      item: `Scheduled Lambda runs: ${targetFunction.logicalId}`,
      quantity: gbSeconds,
      price: gbSecondPrice,
      usdPerMonth: gbSeconds * gbSecondPrice.usd + frequency.triggersPerMonth * LAMBDA_REQUEST.usd,
      basis:
        `${properties.ScheduleExpression}: ${Math.round(frequency.triggersPerMonth).toLocaleString('en-US')} runs × ` +
        `${run.seconds} s (${run.source}) × ${targetFunction.memoryMb} MB ${targetFunction.architecture}, ` +
        'plus the runs as Lambda requests',
      resources: [pathOf(rule), `${targetFunction.stackName}/${targetFunction.logicalId}`],
    });
  }
  return lines;
}

/**
 * How long one scheduled run lasts: what the function's environment says (capped by its
 * timeout), else the bench's duration of a row named after the function (its logical id
 * without the hash), else its timeout, the most it can bill.
 */
function secondsPerRun(
  lambdaFunction: TemplateFunction,
  figures: BenchFigures,
): { seconds: number; source: string; warning?: string } {
  const stated = Number(lambdaFunction.environment[RUN_SECONDS_ENVIRONMENT]);
  if (Number.isFinite(stated) && stated > 0) {
    return {
      seconds: Math.min(stated, lambdaFunction.timeoutSeconds),
      source: `its environment's ${RUN_SECONDS_ENVIRONMENT}`,
    };
  }
  const benchName = lambdaFunction.logicalId.replace(/[0-9A-F]{8}$/, '');
  const measuredMs = figures.byOperation.get(benchName)?.durationMs;
  if (measuredMs !== undefined) return { seconds: Math.ceil(measuredMs) / 1000, source: 'bench' };
  return {
    seconds: lambdaFunction.timeoutSeconds,
    source: 'its timeout',
    warning: `${lambdaFunction.logicalId} runs on a schedule; no run length is stated or measured, so each run is priced at its timeout (an upper bound)`,
  };
}

/** The ReceiveMessage requests of Lambda's pollers on an SQS queue with nothing in it. */
function idlePollingLine(mapping: Found): CostLine | undefined {
  const properties = propertiesOf(mapping) as {
    EventSourceArn?: unknown;
    Enabled?: boolean;
    ScalingConfig?: { MaximumConcurrency?: number };
  };
  if (properties.Enabled === false) return undefined;
  const sourceId = (properties.EventSourceArn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.[
    'Fn::GetAtt'
  ]?.[0];
  const queue = sourceId ? mapping.stack.template.Resources[sourceId] : undefined;
  if (queue?.Type !== 'AWS::SQS::Queue') return undefined;
  const fifo = queue.Properties?.FifoQueue === true;
  const pollers =
    properties.ScalingConfig?.MaximumConcurrency !== undefined
      ? IDLE_SQS_POLLERS.withMaximumConcurrency
      : IDLE_SQS_POLLERS.without;
  const requests = (pollers * HOURS_PER_MONTH * 3600) / IDLE_SQS_LONG_POLL_SECONDS;
  const price = fifo ? SQS_FIFO_REQUEST : SQS_STANDARD_REQUEST;
  return {
    item: `Lambda polling an empty ${fifo ? 'FIFO' : 'standard'} SQS queue: ${sourceId}`,
    quantity: requests,
    price,
    usdPerMonth: requests * price.usd,
    basis: `${pollers} pollers, one ${IDLE_SQS_LONG_POLL_SECONDS} s ReceiveMessage after another (an estimate: AWS publishes neither figure exactly)`,
    resources: [pathOf(mapping), `${mapping.stack.stackName}/${sourceId}`],
  };
}

/** The price of a GB stored in each kind of store of the templates. */
function storageLines(resourcesOfType: (type: string) => Found[]): StorageLine[] {
  const lines: StorageLine[] = [];
  const tables = resourcesOfType('AWS::DynamoDB::Table');
  const withRecovery = tables.filter(
    (table) =>
      (
        propertiesOf(table).PointInTimeRecoverySpecification as
          | { PointInTimeRecoveryEnabled?: boolean }
          | undefined
      )?.PointInTimeRecoveryEnabled === true,
  );
  const withoutRecovery = tables.filter((table) => !withRecovery.includes(table));
  if (withRecovery.length > 0) {
    lines.push({
      item: 'DynamoDB table data, with point-in-time recovery',
      usdPerGbMonth: DYNAMODB_STORAGE_GB_MONTH.usd + DYNAMODB_PITR_GB_MONTH.usd,
      prices: [DYNAMODB_STORAGE_GB_MONTH, DYNAMODB_PITR_GB_MONTH],
      resources: withRecovery.map(pathOf),
    });
  }
  if (withoutRecovery.length > 0) {
    lines.push({
      item: 'DynamoDB table data',
      usdPerGbMonth: DYNAMODB_STORAGE_GB_MONTH.usd,
      prices: [DYNAMODB_STORAGE_GB_MONTH],
      resources: withoutRecovery.map(pathOf),
    });
  }
  const buckets = resourcesOfType('AWS::S3::Bucket');
  if (buckets.length > 0) {
    lines.push({
      item: 'S3 objects (Standard; every version a versioned bucket keeps counts)',
      usdPerGbMonth: S3_STANDARD_GB_MONTH.usd,
      prices: [S3_STANDARD_GB_MONTH],
      resources: buckets.map(pathOf),
    });
  }
  const logGroups = resourcesOfType('AWS::Logs::LogGroup');
  if (logGroups.length > 0) {
    lines.push({
      item: 'CloudWatch Logs (stored, compressed)',
      usdPerGbMonth: CLOUDWATCH_LOGS_STORAGE_GB_MONTH.usd,
      prices: [CLOUDWATCH_LOGS_STORAGE_GB_MONTH],
      resources: logGroups.map(pathOf),
    });
  }
  return lines;
}
