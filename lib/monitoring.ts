/**
 * What an on-call engineer watches: alarms (API 5xx rate, API throttles, Lambda errors per
 * function, DynamoDB system errors) that notify one SNS topic, and one CloudWatch dashboard with
 * the API, the functions and the table side by side. Thresholds are constants here and documented
 * in docs/operating.md. A function's errors alarm is made in the function's own stack (the
 * operations' nested stacks, see `operation-functions-stack.ts`), so that alarms grow with those
 * stacks and not with the root stack and its cap of 500 resources.
 */
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type Table, Operation as TableOperation } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from './bundled-function.js';

/** Every alarm looks at 5-minute periods. */
export const ALARM_PERIOD = Duration.minutes(5);

/** API 5xx rate: percent of requests, when a period has at least the minimum of requests. */
export const API_5XX_RATE_ALARM = {
  thresholdPercent: 5,
  minimumRequests: 20,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
} as const;

/** API throttles: requests refused with 429 (rate, burst or quota) per period. */
export const API_THROTTLE_ALARM = { threshold: 100, evaluationPeriods: 1 } as const;

/** Lambda errors (crashes, timeouts, out of memory; handled errors are responses) per function and period. */
export const LAMBDA_ERRORS_ALARM = { threshold: 1, evaluationPeriods: 1 } as const;

/** DynamoDB system errors (HTTP 500 from DynamoDB) over the table's operations per period. */
export const DYNAMODB_SYSTEM_ERRORS_ALARM = { threshold: 5, evaluationPeriods: 2 } as const;

/**
 * The table operations the functions call, whose system errors are summed (a CloudWatch alarm
 * takes at most 10 metrics).
 */
const TABLE_OPERATIONS = [
  TableOperation.GET_ITEM,
  TableOperation.BATCH_GET_ITEM,
  TableOperation.QUERY,
  TableOperation.PUT_ITEM,
  TableOperation.UPDATE_ITEM,
  TableOperation.DELETE_ITEM,
  TableOperation.BATCH_WRITE_ITEM,
  TableOperation.TRANSACT_WRITE_ITEMS,
];

/** Where the access-log metric filter writes the API's 429 count. */
export const ACCESS_LOG_METRICS_NAMESPACE = `${METRICS_NAMESPACE}/Api`;
export const THROTTLED_REQUESTS_METRIC = 'ThrottledRequests';

export interface MonitoringProps {
  restApi: RestApi;
  /** The stage's JSON access log (its `status` and `apiId` fields). */
  accessLogGroup: ILogGroup;
  table: Table;
  /** Functions that get an errors alarm, by a name for the alarm. */
  alarmedFunctions: ReadonlyMap<string, NodejsFunction>;
  /** Functions shown on the dashboard without an errors alarm (docs/operating.md: the authorizer). */
  otherFunctions: ReadonlyMap<string, NodejsFunction>;
  /** An address that gets every alarm by email (context `alarmEmail`); confirm the subscription. */
  alarmEmail?: string;
}

export class Monitoring extends Construct {
  readonly alarmTopic: Topic;
  readonly dashboard: Dashboard;
  readonly api5xxRateAlarm: Alarm;
  readonly apiThrottleAlarm: Alarm;
  readonly dynamoDbSystemErrorsAlarm: Alarm;
  /** One errors alarm per alarmed function, by the same name. */
  readonly functionErrorAlarms: ReadonlyMap<string, Alarm>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;

    // CloudWatch can publish to an encrypted topic only under a customer managed key it may use.
    const topicKey = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm notifications of ${stackName}`,
      enableKeyRotation: true,
      // It protects notifications in flight only: nothing to keep once the topic is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    topicKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: `${stackName} alarms`,
      masterKey: topicKey,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
    const notify = new SnsAction(this.alarmTopic);
    const withActions = (alarm: Alarm): Alarm => {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
      return alarm;
    };

    const requests = props.restApi.metricCount({ period: ALARM_PERIOD, statistic: 'Sum' });
    const serverErrors = props.restApi.metricServerError({ period: ALARM_PERIOD, statistic: 'Sum' });
    const api5xxRate = new MathExpression({
      // Below the minimum of requests, one failed call is not a rate worth waking anyone for.
      expression: `IF(requests >= ${API_5XX_RATE_ALARM.minimumRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: 'API 5xx rate (%)',
      period: ALARM_PERIOD,
    });
    this.api5xxRateAlarm = withActions(
      api5xxRate.createAlarm(this, 'Api5xxRateAlarm', {
        alarmDescription: `More than ${API_5XX_RATE_ALARM.thresholdPercent}% of API requests got 5xx in ${API_5XX_RATE_ALARM.datapointsToAlarm} of ${API_5XX_RATE_ALARM.evaluationPeriods} periods of 5 minutes (periods with at least ${API_5XX_RATE_ALARM.minimumRequests} requests).`,
        threshold: API_5XX_RATE_ALARM.thresholdPercent,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: API_5XX_RATE_ALARM.evaluationPeriods,
        datapointsToAlarm: API_5XX_RATE_ALARM.datapointsToAlarm,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    // REST APIs publish no 429 metric: count the access log's 429 lines (throttles and quotas).
    new MetricFilter(this, 'ThrottledRequestsFilter', {
      logGroup: props.accessLogGroup,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: ACCESS_LOG_METRICS_NAMESPACE,
      metricName: THROTTLED_REQUESTS_METRIC,
      metricValue: '1',
      dimensions: { ApiId: '$.apiId' },
    });
    const throttledRequests = new Metric({
      namespace: ACCESS_LOG_METRICS_NAMESPACE,
      metricName: THROTTLED_REQUESTS_METRIC,
      dimensionsMap: { ApiId: props.restApi.restApiId },
      statistic: 'Sum',
      period: ALARM_PERIOD,
      label: 'Throttled (429)',
    });
    this.apiThrottleAlarm = withActions(
      throttledRequests.createAlarm(this, 'ApiThrottleAlarm', {
        alarmDescription: `At least ${API_THROTTLE_ALARM.threshold} API requests got 429 (rate, burst or quota of a usage plan, or the stage throttle) in 5 minutes.`,
        threshold: API_THROTTLE_ALARM.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: API_THROTTLE_ALARM.evaluationPeriods,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    const functionErrorAlarms = new Map<string, Alarm>();
    // In the root stack, the alarms stay under this construct; in a nested stack, under one
    // construct of the same name there.
    const alarmScopes = new Map<Stack, Construct>([[Stack.of(this), this]]);
    const alarmScopeOf = (lambdaFunction: NodejsFunction): Construct => {
      const stack = Stack.of(lambdaFunction);
      let alarmScope = alarmScopes.get(stack);
      if (!alarmScope) {
        alarmScope = new Construct(stack, id);
        alarmScopes.set(stack, alarmScope);
      }
      return alarmScope;
    };
    for (const [name, lambdaFunction] of props.alarmedFunctions) {
      functionErrorAlarms.set(
        name,
        withActions(
          lambdaFunction
            .metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' })
            .createAlarm(alarmScopeOf(lambdaFunction), `${name}ErrorsAlarm`, {
              alarmDescription: `${name}: at least ${LAMBDA_ERRORS_ALARM.threshold} invocation error (crash, timeout, out of memory) in 5 minutes.`,
              threshold: LAMBDA_ERRORS_ALARM.threshold,
              comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
              evaluationPeriods: LAMBDA_ERRORS_ALARM.evaluationPeriods,
              treatMissingData: TreatMissingData.NOT_BREACHING,
            }),
        ),
      );
    }
    this.functionErrorAlarms = functionErrorAlarms;

    const systemErrors = props.table.metricSystemErrorsForOperations({
      operations: TABLE_OPERATIONS,
      period: ALARM_PERIOD,
      statistic: 'Sum',
    });
    this.dynamoDbSystemErrorsAlarm = withActions(
      new Alarm(this, 'DynamoDbSystemErrorsAlarm', {
        metric: systemErrors,
        alarmDescription: `At least ${DYNAMODB_SYSTEM_ERRORS_ALARM.threshold} DynamoDB system errors (HTTP 500) in each of ${DYNAMODB_SYSTEM_ERRORS_ALARM.evaluationPeriods} periods of 5 minutes; the SDK retries single ones.`,
        threshold: DYNAMODB_SYSTEM_ERRORS_ALARM.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: DYNAMODB_SYSTEM_ERRORS_ALARM.evaluationPeriods,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    this.dashboard = this.buildDashboard(props, { requests, throttledRequests, systemErrors });
  }

  private buildDashboard(
    props: MonitoringProps,
    metrics: { requests: IMetric; throttledRequests: IMetric; systemErrors: IMetric },
  ): Dashboard {
    const { restApi, table } = props;
    const allFunctions = [...props.alarmedFunctions, ...props.otherFunctions];
    const perFunction = (metric: (lambdaFunction: NodejsFunction) => IMetric) =>
      allFunctions.map(([, lambdaFunction]) => metric(lambdaFunction));
    const labelled = (name: string, metric: Metric): Metric => metric.with({ label: name });
    const dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboard names are unique per account, not per region.
      dashboardName: `${Stack.of(this).stackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${Stack.of(this).stackName}\nAPI stage, Lambda functions and the DynamoDB table. Alarms notify the stack's \`AlarmTopicArn\`.`,
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [
          metrics.requests,
          restApi.metricClientError({ statistic: 'Sum', label: '4xx' }),
          restApi.metricServerError({ statistic: 'Sum', label: '5xx' }),
          metrics.throttledRequests,
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: ['p50', 'p90', 'p99'].map((statistic) =>
          restApi.metricLatency({ statistic, label: `latency ${statistic}` }),
        ),
        right: [restApi.metricIntegrationLatency({ statistic: 'p90', label: 'integration p90' })],
        width: 12,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Lambda errors',
        left: allFunctions.map(([name, lambdaFunction]) =>
          labelled(name, lambdaFunction.metricErrors({ statistic: 'Sum' })),
        ),
        width: 8,
        height: 8,
      }),
      new GraphWidget({
        title: 'Lambda duration p99 (ms)',
        left: allFunctions.map(([name, lambdaFunction]) =>
          labelled(name, lambdaFunction.metricDuration({ statistic: 'p99' })),
        ),
        width: 8,
        height: 8,
      }),
      new GraphWidget({
        title: 'Lambda throttles and concurrency',
        left: allFunctions.map(([name, lambdaFunction]) =>
          labelled(name, lambdaFunction.metricThrottles({ statistic: 'Sum' })),
        ),
        right: perFunction((lambdaFunction) =>
          lambdaFunction.metric('ConcurrentExecutions', { statistic: 'Maximum' }),
        ),
        width: 8,
        height: 8,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'DynamoDB consumed capacity',
        left: [
          table.metricConsumedReadCapacityUnits({ statistic: 'Sum', label: 'read units' }),
          table.metricConsumedWriteCapacityUnits({ statistic: 'Sum', label: 'write units' }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'DynamoDB throttles and system errors',
        left: [
          table.metric('ReadThrottleEvents', { statistic: 'Sum', label: 'read throttle events' }),
          table.metric('WriteThrottleEvents', { statistic: 'Sum', label: 'write throttle events' }),
          metrics.systemErrors,
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'DynamoDB latency (ms)',
        left: [TableOperation.GET_ITEM, TableOperation.QUERY, TableOperation.TRANSACT_WRITE_ITEMS].map(
          (operation) =>
            table.metricSuccessfulRequestLatency({
              dimensionsMap: { TableName: table.tableName, Operation: operation },
              statistic: 'Average',
              label: operation,
            }),
        ),
        width: 8,
      }),
    );
    dashboard.addWidgets(
      new AlarmStatusWidget({
        title: 'Alarms',
        alarms: [
          this.api5xxRateAlarm,
          this.apiThrottleAlarm,
          this.dynamoDbSystemErrorsAlarm,
          ...this.functionErrorAlarms.values(),
        ],
        width: 24,
        height: 6,
      }),
    );
    return dashboard;
  }
}
