/**
 * What on-call needs from the infrastructure: log groups with retention for every function and
 * for the API, JSON access logs with the caller's ids, X-Ray on functions and the stage, the
 * alarms (API 5xx rate, API throttles, Lambda errors, DynamoDB system errors) on one topic,
 * and one dashboard.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { ACCESS_LOG_FIELDS } from '../../lib/api-access-log.js';
import { DEFAULT_LOG_RETENTION_DAYS } from '../../lib/log-retention.js';
import {
  ACCESS_LOG_METRICS_NAMESPACE,
  API_5XX_RATE_ALARM,
  API_THROTTLE_ALARM,
  DYNAMODB_SYSTEM_ERRORS_ALARM,
  LAMBDA_ERRORS_ALARM,
  THROTTLED_REQUESTS_METRIC,
} from '../../lib/monitoring.js';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

interface CfnResource {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties of every shape
  Properties: Record<string, any>;
  DeletionPolicy?: string;
}

let synthesized: SynthesizedStack;
let template: Template;
let resources: Record<string, CfnResource>;

beforeAll(() => {
  // Act: one synth for the whole file.
  synthesized = synthesizeStack();
  template = synthesized.template;
  resources = template.toJSON().Resources;
});

const functions = () => Object.entries(template.findResources('AWS::Lambda::Function'));

describe('logs', () => {
  it('gives every function a log group of its own, kept 30 days and retained on teardown', () => {
    // Act
    const logGroupIds = functions().map(
      ([, lambdaFunction]) => (lambdaFunction.Properties.LoggingConfig.LogGroup as { Ref: string }).Ref,
    );
    // Assess
    expect(new Set(logGroupIds).size).toBe(functions().length);
    for (const logGroupId of logGroupIds) {
      expect(resources[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        DeletionPolicy: 'Retain',
        Properties: { RetentionInDays: DEFAULT_LOG_RETENTION_DAYS },
      });
    }
  });

  it('has no log group without a retention', () => {
    // Assess
    for (const logGroup of Object.values(template.findResources('AWS::Logs::LogGroup'))) {
      expect(logGroup.Properties.RetentionInDays).toBe(DEFAULT_LOG_RETENTION_DAYS);
    }
  });

  it('takes the retention from context logRetentionDays, and refuses one CloudWatch does not know', () => {
    // Act
    const longer = synthesizeStack({ logRetentionDays: '90' }).template;
    // Assess
    for (const logGroup of Object.values(longer.findResources('AWS::Logs::LogGroup'))) {
      expect(logGroup.Properties.RetentionInDays).toBe(90);
    }
    expect(() => synthesizeStack({ logRetentionDays: '31' })).toThrow(/logRetentionDays must be one of/);
  });

  it('writes an API access log line as JSON with the request, caller and response', () => {
    // Prepare
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const accessLogGroupId = synthesized.logicalIdOf(synthesized.stack.api.accessLogGroup);
    // Act
    const format = JSON.parse(stage?.Properties.AccessLogSetting.Format);
    // Assess
    // The log group's ARN without the `:*` suffix (feature flag in cdk.json, as API Gateway asks).
    expect(stage?.Properties.AccessLogSetting.DestinationArn).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':logs:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':log-group:',
          { Ref: accessLogGroupId },
        ],
      ],
    });
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      principalId: '$context.authorizer.principalId',
      tenantId: '$context.authorizer.tenantId',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
    });
    // Ids only: no header, body or query string (keys and passwords travel there).
    expect(JSON.stringify(format)).not.toMatch(/header|body|querystring|apiKey"/i);
  });

  it('logs API errors without bodies, to a log group with retention made before the stage', () => {
    // Prepare
    const [stageId, stage] = Object.entries(template.findResources('AWS::ApiGateway::Stage'))[0]!;
    const executionLogGroupId = synthesized.logicalIdOf(synthesized.stack.api.executionLogGroup);
    // Assess
    expect(stage.Properties.MethodSettings).toContainEqual(
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      }),
    );
    expect(JSON.stringify(resources[executionLogGroupId]?.Properties.LogGroupName)).toContain(
      'API-Gateway-Execution-Logs_',
    );
    expect(resources[stageId]).toMatchObject({ DependsOn: expect.arrayContaining([executionLogGroupId]) });
  });

  it('leaves the account-wide API Gateway logging role alone unless asked', () => {
    // Act
    const withRole = synthesizeStack({ createApiGatewayCloudWatchRole: 'true' }).template;
    // Assess
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    withRole.resourceCountIs('AWS::ApiGateway::Account', 1);
    withRole.hasResource('AWS::ApiGateway::Account', { DeletionPolicy: 'Retain' });
  });
});

describe('tracing', () => {
  it('is active on every function and on the stage', () => {
    // Assess
    for (const [, lambdaFunction] of functions()) {
      expect(lambdaFunction.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
    template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
  });
});

describe('alarms', () => {
  const alarms = () => Object.entries(template.findResources('AWS::CloudWatch::Alarm'));
  const topicId = () => synthesized.logicalIdOf(synthesized.stack.monitoring.alarmTopic);

  it('all notify the alarm topic, when they fire and when they clear', () => {
    // Assess
    expect(alarms().length).toBeGreaterThan(0);
    for (const [, alarm] of alarms()) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
    }
  });

  it('watch the API 5xx rate, over periods with enough requests', () => {
    // Assess
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: API_5XX_RATE_ALARM.thresholdPercent,
      EvaluationPeriods: API_5XX_RATE_ALARM.evaluationPeriods,
      DatapointsToAlarm: API_5XX_RATE_ALARM.datapointsToAlarm,
      Metrics: Match.arrayWith([
        Match.objectLike({
          Expression: `IF(requests >= ${API_5XX_RATE_ALARM.minimumRequests}, 100 * errors / requests, 0)`,
        }),
        Match.objectLike({
          Id: 'requests',
          MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'Count' }) }),
        }),
        Match.objectLike({
          Id: 'errors',
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({ Namespace: 'AWS/ApiGateway', MetricName: '5XXError' }),
          }),
        }),
      ]),
    });
  });

  it('count API throttles (429) from the access log', () => {
    // Prepare
    const accessLogGroupId = synthesized.logicalIdOf(synthesized.stack.api.accessLogGroup);
    // Assess
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: accessLogGroupId },
      FilterPattern: '{ $.status = "429" }',
      MetricTransformations: [
        Match.objectLike({
          MetricName: THROTTLED_REQUESTS_METRIC,
          MetricValue: '1',
          Dimensions: [{ Key: 'ApiId', Value: '$.apiId' }],
        }),
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: API_THROTTLE_ALARM.threshold,
      EvaluationPeriods: API_THROTTLE_ALARM.evaluationPeriods,
      Metrics: [
        Match.objectLike({
          MetricStat: {
            Metric: {
              Namespace: ACCESS_LOG_METRICS_NAMESPACE,
              MetricName: THROTTLED_REQUESTS_METRIC,
              Dimensions: [
                { Name: 'ApiId', Value: { Ref: synthesized.logicalIdOf(synthesized.stack.api.restApi) } },
              ],
            },
            Period: 300,
            Stat: 'Sum',
          },
        }),
      ],
    });
  });

  it('watch the errors of every function but the authorizer (which throws for every refused key)', () => {
    // Prepare
    const authorizerId = synthesized.logicalIdOf(synthesized.stack.api.authorizerFunction);
    const watched = alarms()
      .filter(
        ([, alarm]) =>
          alarm.Properties.Namespace === 'AWS/Lambda' && alarm.Properties.MetricName === 'Errors',
      )
      .map(([, alarm]) => alarm);
    // Act
    const watchedFunctions = watched
      .map((alarm) => alarm.Properties.Dimensions[0].Value.Ref as string)
      .sort();
    // Assess
    expect(watchedFunctions).toEqual(
      functions()
        .map(([functionId]) => functionId)
        .filter((functionId) => functionId !== authorizerId)
        .sort(),
    );
    for (const alarm of watched) {
      expect(alarm.Properties).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        Threshold: LAMBDA_ERRORS_ALARM.threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('watch DynamoDB system errors of the table, within the 10 metrics an alarm takes', () => {
    // Prepare
    const tableId = synthesized.logicalIdOf(synthesized.stack.dataStore.table);
    // Act
    const [, alarm] = alarms().find(([, candidate]) => JSON.stringify(candidate).includes('SystemErrors'))!;
    const metrics = (
      alarm.Properties.Metrics as Array<{ MetricStat?: { Metric: Record<string, unknown> } }>
    ).filter((metric) => metric.MetricStat);
    // Assess
    expect(alarm.Properties.Threshold).toBe(DYNAMODB_SYSTEM_ERRORS_ALARM.threshold);
    expect(metrics.length).toBeGreaterThan(0);
    expect(metrics.length).toBeLessThanOrEqual(10);
    for (const metric of metrics) {
      expect(metric.MetricStat?.Metric).toMatchObject({
        Namespace: 'AWS/DynamoDB',
        MetricName: 'SystemErrors',
        Dimensions: expect.arrayContaining([{ Name: 'TableName', Value: { Ref: tableId } }]),
      });
    }
  });

  it('go to an encrypted topic only SSL reaches, and to an email address given by context', () => {
    // Act
    const withEmail = synthesizeStack({ alarmEmail: 'oncall@example.com' }).template;
    // Assess
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    withEmail.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
    template.hasOutput('AlarmTopicArn', {
      Value: { Ref: synthesized.logicalIdOf(synthesized.stack.monitoring.alarmTopic) },
    });
  });
});

describe('dashboard', () => {
  it('shows the API, every function and the table on one dashboard', () => {
    // Prepare
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    // Act
    const parts = (dashboard!.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const body = parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
    // Assess
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    for (const metric of [
      'AWS/ApiGateway',
      '"Count"',
      '"4XXError"',
      '"5XXError"',
      '"Latency"',
      THROTTLED_REQUESTS_METRIC,
      'AWS/Lambda',
      '"Errors"',
      '"Duration"',
      '"Throttles"',
      'AWS/DynamoDB',
      '"ConsumedReadCapacityUnits"',
      '"ConsumedWriteCapacityUnits"',
      '"ReadThrottleEvents"',
      '"WriteThrottleEvents"',
      '"SystemErrors"',
    ]) {
      expect(body).toContain(metric);
    }
    for (const [functionId] of functions()) expect(body).toContain(functionId);
    template.hasOutput('DashboardName', {});
  });
});
