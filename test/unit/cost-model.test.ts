/**
 * The deploy check's cost model (`scripts/deploy-check/cost-model.ts`): its arithmetic on
 * small hand-made templates, the bench figures it reads, and, on the real synthesized stack,
 * that it finds every KMS key, alarm and schedule of the templates.
 */
import {
  API_GATEWAY_REST_REQUEST,
  CLOUDWATCH_DASHBOARD_MONTH,
  CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH,
  DYNAMODB_READ_REQUEST_UNIT,
  DYNAMODB_WRITE_REQUEST_UNIT,
  KMS_KEY_MONTH,
  KMS_SYMMETRIC_REQUEST,
  LAMBDA_ARM64_GB_SECOND,
  LAMBDA_REQUEST,
  LAMBDA_X86_GB_SECOND,
  SQS_FIFO_REQUEST,
} from '../../scripts/deploy-check/aws-prices';
import {
  awsWriteRequestUnits,
  type BenchFigures,
  benchFigures,
} from '../../scripts/deploy-check/bench-figures';
import {
  costModel,
  costModelMarkdown,
  formatCostModel,
  formatPrice,
} from '../../scripts/deploy-check/cost-model';
import { idleCost, RUN_SECONDS_ENVIRONMENT } from '../../scripts/deploy-check/idle-cost';
import { operationCosts } from '../../scripts/deploy-check/operation-cost';
import { triggersPerMonth } from '../../scripts/deploy-check/schedules';
import {
  type StackTemplate,
  synthesizedTemplates,
  type TemplateResource,
} from '../../scripts/deploy-check/synthesized-templates';

const noFigures: BenchFigures = { byOperation: new Map(), source: 'none' };
const stackOf = (resources: Record<string, TemplateResource>, stackName = 'Test'): StackTemplate => ({
  stackName,
  template: { Resources: resources },
});
const key: TemplateResource = { Type: 'AWS::KMS::Key', Properties: {} };
const alarm: TemplateResource = {
  Type: 'AWS::CloudWatch::Alarm',
  Properties: { MetricName: 'Errors', Namespace: 'AWS/Lambda', Period: 300 },
};
const lambdaFunction = (properties: Record<string, unknown>): TemplateResource => ({
  Type: 'AWS::Lambda::Function',
  Properties: { Role: { 'Fn::GetAtt': ['Role', 'Arn'] }, ...properties },
});
const everyMinute = (target: string, state = 'ENABLED'): TemplateResource => ({
  Type: 'AWS::Events::Rule',
  Properties: {
    ScheduleExpression: 'rate(1 minute)',
    State: state,
    Targets: [{ Arn: { 'Fn::GetAtt': [target, 'Arn'] }, Id: 'Target0' }],
  },
});
/** A month is 730 hours: a 60 s rate fires 43,800 times. */
const RUNS_PER_MONTH_EVERY_MINUTE = 43_800;

describe('idle cost', () => {
  it('adds $1 per KMS key and one alarm price per alarm metric', () => {
    // Prepare: 2 keys, 3 single-metric alarms.
    const stack = stackOf({ KeyA: key, KeyB: key, AlarmA: alarm, AlarmB: alarm, AlarmC: alarm });

    // Act
    const idle = idleCost([stack], noFigures);

    // Assess
    expect(idle.usdPerMonth).toBeCloseTo(
      2 * KMS_KEY_MONTH.usd + 3 * CLOUDWATCH_STANDARD_ALARM_METRIC_MONTH.usd,
      10,
    );
    expect(idle.usdPerMonth).toBeCloseTo(2.3, 10);
  });

  it('adds $5 per web ACL and $1 per rule of it', () => {
    // Prepare: one web ACL with four rules.
    const webAcl: TemplateResource = {
      Type: 'AWS::WAFv2::WebACL',
      Properties: { Rules: [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }, { Name: 'd' }] },
    };

    // Act
    const idle = idleCost([stackOf({ WebAcl: webAcl })], noFigures);

    // Assess
    expect(idle.lines.map((line) => [line.item, line.quantity])).toEqual([
      ['WAF web ACLs', 1],
      ['WAF web ACL rules', 4],
    ]);
    expect(idle.usdPerMonth).toBeCloseTo(9, 10);
  });

  it('counts each metric a metric-math alarm reads, not its expressions', () => {
    const mathAlarm: TemplateResource = {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        Metrics: [
          { Id: 'rate', Expression: '100 * failures / attempts' },
          { Id: 'failures', MetricStat: { Period: 300 } },
          { Id: 'attempts', MetricStat: { Period: 300 } },
        ],
      },
    };

    const idle = idleCost([stackOf({ MathAlarm: mathAlarm })], noFigures);

    expect(idle.lines).toEqual([
      expect.objectContaining({ item: 'CloudWatch standard alarms', quantity: 2 }),
    ]);
  });

  it('charges only the dashboards beyond the free three', () => {
    const dashboard: TemplateResource = { Type: 'AWS::CloudWatch::Dashboard', Properties: {} };

    const idle = idleCost(
      [stackOf({ D1: dashboard, D2: dashboard, D3: dashboard, D4: dashboard })],
      noFigures,
    );

    expect(idle.usdPerMonth).toBeCloseTo(CLOUDWATCH_DASHBOARD_MONTH.usd, 10);
  });

  it('prices a 60 s schedule of a 1,024 MB function that runs 80 s: 3,504,000 GB-seconds', () => {
    const stack = stackOf({
      Sequencer: lambdaFunction({
        MemorySize: 1024,
        Architectures: ['arm64'],
        Timeout: 300,
        Environment: { Variables: { [RUN_SECONDS_ENVIRONMENT]: '80' } },
      }),
      Schedule: everyMinute('Sequencer'),
    });

    const idle = idleCost([stack], noFigures);

    const [scheduled] = idle.lines;
    expect(scheduled?.quantity).toBeCloseTo(RUNS_PER_MONTH_EVERY_MINUTE * 80, 6);
    expect(scheduled?.quantity).toBeCloseTo(3_504_000, 6);
    expect(idle.usdPerMonth).toBeCloseTo(
      3_504_000 * LAMBDA_ARM64_GB_SECOND.usd + RUNS_PER_MONTH_EVERY_MINUTE * LAMBDA_REQUEST.usd,
      6,
    );
    expect(scheduled?.resources).toEqual(['Test/Schedule', 'Test/Sequencer']);
  });

  it('drops the scheduled cost when the rule is gone or disabled', () => {
    const sequencer = lambdaFunction({
      MemorySize: 1024,
      Environment: { Variables: { [RUN_SECONDS_ENVIRONMENT]: '80' } },
    });

    expect(idleCost([stackOf({ Sequencer: sequencer })], noFigures).usdPerMonth).toBe(0);
    expect(
      idleCost([stackOf({ Sequencer: sequencer, Schedule: everyMinute('Sequencer', 'DISABLED') })], noFigures)
        .usdPerMonth,
    ).toBe(0);
  });

  it("takes a scheduled run's length from the bench when the function states none, else from its timeout", () => {
    // A 512 MB x86 function: 0.5 GB.
    const stack = stackOf({
      TidyFunction0A1B2C3D: lambdaFunction({ MemorySize: 512, Timeout: 30 }),
      Schedule: everyMinute('TidyFunction0A1B2C3D'),
    });
    const measured: BenchFigures = {
      byOperation: new Map([['TidyFunction', { durationMs: 1999.2 }]]),
      source: 'test',
    };

    const fromBench = idleCost([stack], measured);
    const fromTimeout = idleCost([stack], noFigures);

    expect(fromBench.lines[0]?.quantity).toBeCloseTo(RUNS_PER_MONTH_EVERY_MINUTE * 2 * 0.5, 6);
    expect(fromBench.warnings).toEqual([]);
    expect(fromTimeout.lines[0]?.quantity).toBeCloseTo(RUNS_PER_MONTH_EVERY_MINUTE * 30 * 0.5, 6);
    expect(fromTimeout.usdPerMonth).toBeCloseTo(
      RUNS_PER_MONTH_EVERY_MINUTE * (15 * LAMBDA_X86_GB_SECOND.usd + LAMBDA_REQUEST.usd),
      6,
    );
    expect(fromTimeout.warnings).toEqual([expect.stringContaining('priced at its timeout')]);
  });

  it('prices the pollers Lambda keeps on an empty SQS queue: 5 with a maximum concurrency, every 20 s', () => {
    const stack = stackOf({
      Queue: { Type: 'AWS::SQS::Queue', Properties: { FifoQueue: true } },
      Mapping: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: {
          EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] },
          ScalingConfig: { MaximumConcurrency: 50 },
        },
      },
    });

    const idle = idleCost([stack], noFigures);

    // 5 pollers × 3 receives a minute × 43,800 minutes.
    expect(idle.lines[0]?.quantity).toBe(657_000);
    expect(idle.usdPerMonth).toBeCloseTo(657_000 * SQS_FIFO_REQUEST.usd, 10);
  });
});

describe('schedules', () => {
  it('counts the runs of rate and cron expressions in a 730-hour month', () => {
    expect(triggersPerMonth('rate(1 minute)')).toEqual({ triggersPerMonth: 43_800, upperBound: false });
    expect(triggersPerMonth('rate(5 minutes)').triggersPerMonth).toBeCloseTo(8760, 6);
    expect(triggersPerMonth('rate(1 day)').triggersPerMonth).toBeCloseTo(730 / 24, 6);
    expect(triggersPerMonth('cron(0/15 * * * ? *)').triggersPerMonth).toBeCloseTo(4 * 24 * (730 / 24), 6);
    expect(triggersPerMonth('cron(0 8 ? * MON-FRI *)')).toEqual({
      triggersPerMonth: 730 / 24,
      upperBound: true,
    });
    expect(() => triggersPerMonth('at(2026-12-01T00:00:00)')).toThrow('Cannot read the schedule');
  });
});

describe('bench figures', () => {
  const report = `# Benchmark results

## 2. DynamoDB calls and consumed capacity per operation

_Measured 2026-11-25T06:34:12.299Z, commit d59e5ca21572-dirty (Node v20.20.2), in a run._

| operation | calls | commands | RCU | WCU | S3 calls | request |
| --------- | ----: | -------- | --: | --: | -------- | ------- |
| getObject | 2 | GetItem×2 | 2 | 0 | | an object |
| createObject + Idempotency-Key | 3 | PutItem×1, TransactWriteItems×1, UpdateItem×1 | 0 | 82 | | a new one |
| uploadFile | 3 | GetItem×2, TransactWriteItems×1 | 2 | 68 | PutObject×1 | a 2 KB PDF |
| brokenCase | NaN | | NaN | NaN | | |

## 3. Handler overhead

| operation | runs | handler ms | raw calls ms |
| --------- | ---: | ---------: | -----------: |
| getObject | 50 | 4.55 | 3.91 |

## 4. Throughput through the local gateway
`;

  it('reads each operation by column name, halving the transactions’ write units', () => {
    const figures = benchFigures(report);

    expect(figures.byOperation.get('getObject')).toEqual({
      durationMs: 4.55,
      dynamoDbCommands: { GetItem: 2 },
      readRequestUnits: 2,
      writeRequestUnits: 0,
      s3Commands: {},
    });
    expect(figures.byOperation.get('createObject + Idempotency-Key')?.writeRequestUnits).toBe(42);
    expect(figures.byOperation.get('uploadFile')?.writeRequestUnits).toBe(34);
    expect(figures.byOperation.get('uploadFile')?.s3Commands).toEqual({ PutObject: 1 });
    expect(figures.byOperation.has('brokenCase')).toBe(false);
    expect(figures.source).toContain('measured 2026-11-25T06:34:12.299Z, commit d59e5ca21572');
  });

  it('keeps standard writes at their reported units', () => {
    expect(awsWriteRequestUnits({ GetItem: 2, PutItem: 1 }, 1)).toBe(1);
    expect(awsWriteRequestUnits({ TransactWriteItems: 1 }, 80)).toBe(40);
  });

  it('reads the committed bench/RESULTS.md', () => {
    const figures = benchFigures();

    expect(figures.byOperation.get('getObject')?.durationMs).toBeGreaterThan(0);
    expect(figures.byOperation.get('getObject')?.readRequestUnits).toBeGreaterThan(0);
  });
});

describe('cost per million calls', () => {
  // A root stack whose method calls a function of a nested stack through its output, as the real one does.
  const root = stackOf(
    {
      Authorizer: {
        Type: 'AWS::ApiGateway::Authorizer',
        Properties: {
          AuthorizerResultTtlInSeconds: 0,
          AuthorizerUri: { 'Fn::GetAtt': ['AuthorizerFunction', 'Arn'] },
        },
      },
      AuthorizerFunction: lambdaFunction({ MemorySize: 1024, Architectures: ['arm64'] }),
      Nested: { Type: 'AWS::CloudFormation::Stack', Properties: {} },
      GetMethod: {
        Type: 'AWS::ApiGateway::Method',
        Properties: {
          HttpMethod: 'GET',
          OperationName: 'getWebhook',
          AuthorizationType: 'CUSTOM',
          AuthorizerId: { Ref: 'Authorizer' },
          Integration: {
            Uri: {
              'Fn::Join': [
                '',
                ['arn:', { 'Fn::GetAtt': ['Nested', 'Outputs.GetWebhookArn'] }, '/invocations'],
              ],
            },
          },
        },
      },
      HeadMethod: {
        Type: 'AWS::ApiGateway::Method',
        Properties: { HttpMethod: 'HEAD', OperationName: 'getWebhookHEAD', Integration: {} },
      },
    },
    'Root',
  );
  const nested: StackTemplate = {
    stackName: 'Root/WebhooksFunctions',
    nestedIn: { stackName: 'Root', logicalId: 'Nested' },
    template: {
      Resources: {
        GetWebhookFunction: lambdaFunction({ MemorySize: 2048, Architectures: ['arm64'] }),
        Role: { Type: 'AWS::IAM::Role', Properties: {} },
        Policy: {
          Type: 'AWS::IAM::Policy',
          Properties: {
            Roles: [{ Ref: 'Role' }],
            PolicyDocument: { Statement: [{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'kms:Encrypt'] }] },
          },
        },
      },
      Outputs: { GetWebhookArn: { Value: { 'Fn::GetAtt': ['GetWebhookFunction', 'Arn'] } } },
    },
  };

  it('adds API Gateway, the authorizer, Lambda at the measured duration, DynamoDB units and KMS', () => {
    const figures: BenchFigures = {
      byOperation: new Map([
        ['getWebhook', { durationMs: 4.2, readRequestUnits: 1.5, writeRequestUnits: 1 }],
      ]),
      source: 'test',
    };

    const { operations, groups, authorizers } = operationCosts([root, nested], figures);

    expect(operations).toHaveLength(1);
    const [operation] = operations;
    // 2 GB × 5 ms (4.2 ms rounded up, as Lambda bills it) = 0.01 GB-s per call.
    const lambdaUsd = 1e6 * (LAMBDA_REQUEST.usd + 0.01 * LAMBDA_ARM64_GB_SECOND.usd);
    expect(operation?.usdPerMillion.lambda).toBeCloseTo(lambdaUsd, 8);
    expect(operation?.usdPerMillion.total).toBeCloseTo(
      1e6 *
        (API_GATEWAY_REST_REQUEST.usd +
          LAMBDA_REQUEST.usd +
          1.5 * DYNAMODB_READ_REQUEST_UNIT.usd +
          1 * DYNAMODB_WRITE_REQUEST_UNIT.usd +
          KMS_SYMMETRIC_REQUEST.usd) +
        lambdaUsd,
      8,
    );
    expect(operation).toMatchObject({
      operationId: 'getWebhook',
      group: 'webhooks',
      functionPath: 'Root/WebhooksFunctions/GetWebhookFunction',
      unmeasured: [],
    });
    expect(authorizers).toEqual([
      expect.objectContaining({ resultTtlSeconds: 0, functionPath: 'Root/AuthorizerFunction' }),
    ]);
    expect(groups).toEqual([expect.objectContaining({ group: 'webhooks', incomplete: [] })]);
  });

  it('names what the bench did not measure and prices the rest', () => {
    const { operations, groups } = operationCosts([root, nested], noFigures);

    expect(operations[0]?.unmeasured).toEqual(['duration', 'DynamoDB and S3 calls']);
    expect(operations[0]?.usdPerMillion.dynamoDb).toBe(0);
    expect(groups[0]?.incomplete).toEqual(['getWebhook']);
  });
});

describe('formatting', () => {
  it('states each price as AWS does', () => {
    expect(formatPrice(LAMBDA_REQUEST)).toBe('$0.20 per million requests');
    expect(formatPrice(KMS_KEY_MONTH)).toBe('$1.00 per key-month');
    expect(formatPrice(LAMBDA_ARM64_GB_SECOND)).toBe('$0.0000133334 per GB-second');
  });
});

describe('the real stack', () => {
  it('finds every KMS key, alarm and schedule of the synthesized templates, and formats them', () => {
    const templates = synthesizedTemplates();
    const resourcesOfType = (type: string) =>
      templates.flatMap((stack) =>
        Object.entries(stack.template.Resources)
          .filter(([, resource]) => resource.Type === type)
          .map(([logicalId, resource]) => ({ path: `${stack.stackName}/${logicalId}`, resource })),
      );
    const model = costModel(templates, benchFigures());
    const pricedResources = (item: string) =>
      model.idle.lines.filter((line) => line.item.startsWith(item)).flatMap((line) => line.resources);

    const keys = resourcesOfType('AWS::KMS::Key').map((each) => each.path);
    const alarms = resourcesOfType('AWS::CloudWatch::Alarm').map((each) => each.path);
    const schedules = resourcesOfType('AWS::Events::Rule')
      .filter(
        ({ resource }) => resource.Properties?.ScheduleExpression && resource.Properties.State !== 'DISABLED',
      )
      .map((each) => each.path);
    expect(keys.length).toBeGreaterThan(0);
    expect(alarms.length).toBeGreaterThan(0);
    expect(pricedResources('KMS customer managed keys').sort()).toEqual(keys.sort());
    expect(
      pricedResources('CloudWatch')
        .filter((path) => alarms.includes(path))
        .sort(),
    ).toEqual(alarms.sort());
    const pricedSchedules = model.idle.lines
      .filter((line) => line.item.startsWith('Scheduled Lambda runs'))
      .map((line) => line.resources[0]);
    expect(pricedSchedules.sort()).toEqual(schedules.sort());
    expect(model.operations.length).toBeGreaterThan(40);
    expect(formatCostModel(model)).toContain('Idle, with no request at all');
    expect(costModelMarkdown(model)).toContain('# What the stack costs');
  }, 180_000);
});
