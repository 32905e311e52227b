/**
 * Infrastructure tests: the synthesized AssetRegistryStack, checked against the operation
 * table and the shared settings it is built from.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { operationList } from '../../lambdas/operations.js';
import { UPLOAD_STAGING_PREFIX } from '../../lambdas/repositories/file-repository.js';
import {
  TABLE_INDEXES,
  TABLE_PARTITION_KEY,
  TABLE_SORT_KEY,
} from '../../lambdas/repositories/table-definition.js';
import { STAGE_NAME } from '../../lib/api.js';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  BINARY_MEDIA_TYPES,
  DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
  GATEWAY_RESPONSES,
  USAGE_PLAN_GATEWAY_RESPONSES,
  USAGE_PLANS,
  type UsagePlanName,
} from '../../lib/api-gateway-settings.js';
import { usagePlanOutputId } from '../../lib/usage-plans.js';
import {
  policyActionsOfRole,
  resourcePaths,
  routesOfRows,
  type SynthesizedStack,
  synthesizeStack,
} from './synthesized-stack.js';

interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
}

interface MethodProperties {
  HttpMethod: string;
  AuthorizationType: string;
  AuthorizerId: { Ref: string };
  ResourceId: { Ref: string };
  Integration: { Type: string; Uri: unknown };
}

let synthesized: SynthesizedStack;
let template: Template;

beforeAll(() => {
  // Act: one synth for the whole file.
  synthesized = synthesizeStack();
  template = synthesized.template;
});

const methodsOf = (stackTemplate: Template): MethodProperties[] =>
  Object.values(stackTemplate.findResources('AWS::ApiGateway::Method') as Record<string, CfnResource>)
    .map((method) => method.Properties as unknown as MethodProperties)
    .filter((method) => method.HttpMethod !== 'OPTIONS');

const functionOf = (operationId: (typeof operationList)[number]['id']): NodejsFunction =>
  synthesized.stack.api.operationFunctions.get(operationId)!;

describe('Lambda functions', () => {
  it('has one function per operation plus the authorizer and the two job functions, and no custom-resource helpers', () => {
    // Prepare
    const resourceTypes = Object.values(template.toJSON().Resources as Record<string, CfnResource>).map(
      (resource) => resource.Type,
    );

    // Assess
    // The authorizer, the ledger sequencer, the three background jobs (subcategory removal,
    // import, export), the ledger event publisher, the webhook delivery function and the
    // recorder of failed jobs.
    template.resourceCountIs('AWS::Lambda::Function', operationList.length + 8);
    expect(synthesized.stack.api.operationFunctions.size).toBe(operationList.length);
    expect(resourceTypes.filter((type) => type.startsWith('Custom::'))).toEqual([]);
    expect(resourceTypes).not.toContain('AWS::CloudFormation::CustomResource');
  });

  // Node.js 24: cdk-nag's AwsSolutions-L1 wants the newest runtime.
  it('runs every function on Node.js 24, arm64, 1024 MB, with source maps; API functions stop at 29 s, the sequencer and the removal job at 300 s, the import and export jobs at 900 s', () => {
    // Prepare
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    const jobs = synthesized.stack.backgroundJobs.functions;
    const idOf = (job: NodejsFunction | undefined) => synthesized.logicalIdOf(job!);
    const longTimeouts = new Map([
      [synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction), 300],
      [idOf(jobs.get('removeSubcategoryData')), 300],
      // An import run hands over after 10 minutes; an export streams the whole list in one run.
      [idOf(jobs.get('importObjects')), 900],
      [idOf(jobs.get('exportObjects')), 900],
      // Events out: the publisher takes a batch of 100 events; a delivery waits 10 s at most.
      [synthesized.logicalIdOf(synthesized.stack.eventsOut.publisherFunction), 60],
      [synthesized.logicalIdOf(synthesized.stack.eventsOut.deliveryFunction), 30],
      [synthesized.logicalIdOf(synthesized.stack.failedWork.recorderFunction), 60],
    ]);

    // Assess
    expect(jobs.size).toBe(3);
    for (const [logicalId, lambdaFunction] of Object.entries(functions)) {
      expect(lambdaFunction.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        Timeout: longTimeouts.get(logicalId) ?? 29,
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
  });

  it.each(operationList)('gives $id the table and bucket names', ({ id }) => {
    // Prepare
    const tableId = synthesized.logicalIdOf(synthesized.stack.dataStore.table);
    const bucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.filesBucket);

    // Act
    const lambdaFunction = template.toJSON().Resources[synthesized.logicalIdOf(functionOf(id))];

    // Assess
    expect(lambdaFunction.Properties.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: tableId },
      FILES_BUCKET_NAME: { Ref: bucketId },
    });
  });

  // Which actions each function gets is proven in least-privilege.test.ts, from the actions each
  // row of the operation table declares.

  it('lets the authorizer use the table and nothing else (besides its logs and traces)', () => {
    // Prepare
    const authorizerFunction = synthesized.stack.api.authorizerFunction;

    // Act
    const actions = [...policyActionsOfRole(template, synthesized.logicalIdOf(authorizerFunction.role!))];
    const variables =
      template.toJSON().Resources[synthesized.logicalIdOf(authorizerFunction)].Properties.Environment
        .Variables;

    // Assess
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions.filter((action) => !/^(dynamodb|logs|xray):/.test(action))).toEqual([]);
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(Object.keys(variables).sort()).toEqual([
      DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
      'NODE_OPTIONS',
      'POWERTOOLS_METRICS_NAMESPACE',
      'POWERTOOLS_SERVICE_NAME',
      'TABLE_NAME',
    ]);
  });
});

describe('REST API', () => {
  it('is deployed to the prod stage with the binary media types and no CloudWatch role', () => {
    // Assess
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: BINARY_MEDIA_TYPES });
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: STAGE_NAME });
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('has a REQUEST authorizer without identity sources and with caching off (API key or Bearer token)', () => {
    // Assess
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: Match.absent(),
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL_SECONDS,
    });
    expect(JSON.stringify(template.findResources('AWS::ApiGateway::Authorizer'))).toContain(
      synthesized.logicalIdOf(synthesized.stack.api.authorizerFunction),
    );
  });

  it('puts the authorizer on every method but wallet login', () => {
    // Prepare
    const [authorizerId] = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'));

    const paths = resourcePaths(template);
    const publicRoutes = new Set(
      routesOfRows(operationList.filter((operation) => operation.authorization === 'none')),
    );

    // Act
    const methods = methodsOf(template);

    // Assess
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods) {
      if (publicRoutes.has(`${method.HttpMethod} ${paths.get(method.ResourceId.Ref)}`)) {
        expect(method.AuthorizationType).toBe('NONE');
        continue;
      }
      expect(method.AuthorizationType).toBe('CUSTOM');
      expect(method.AuthorizerId).toEqual({ Ref: authorizerId });
    }
  });

  it('has exactly one method per operation, on its path, with its HTTP method, and HEAD beside each GET', () => {
    // Prepare
    const paths = resourcePaths(template);

    // Act
    const routes = methodsOf(template).map(
      (method) => `${method.HttpMethod} ${paths.get(method.ResourceId.Ref)}`,
    );

    // Assess
    expect(routes.sort()).toEqual(routesOfRows(operationList).sort());
  });

  it('creates each path segment once', () => {
    // Act
    const paths = [...resourcePaths(template).values()];

    // Assess
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each(operationList)(
    'sends $method $path to the $id function by Lambda proxy',
    ({ id, method, path }) => {
      // Prepare
      const paths = resourcePaths(template);
      const functionLogicalId = synthesized.logicalIdOf(functionOf(id));

      // Act
      const route = methodsOf(template).find(
        (candidate) => candidate.HttpMethod === method && paths.get(candidate.ResourceId.Ref) === path,
      );

      // Assess
      expect(route?.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(route?.Integration.Uri)).toContain(`"${functionLogicalId}","Arn"`);
    },
  );

  it.each(Object.entries(GATEWAY_RESPONSES))('returns %s in the spec error format', (type, response) => {
    // Assess
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: type,
      StatusCode: String(response.statusCode),
      ResponseParameters: { 'gatewayresponse.header.Content-Type': "'application/json'" },
      ResponseTemplates: {
        'application/json': JSON.stringify({
          error:
            'errorFromAuthorizerContext' in response
              ? `$context.authorizer.${response.errorFromAuthorizerContext}`
              : response.error,
          code: response.code,
          timestamp: '$context.requestTime',
        }),
      },
    });
  });

  it('has no gateway responses beyond the shared settings (and the usage-plan ones, AWS only)', () => {
    // Assess
    template.resourceCountIs(
      'AWS::ApiGateway::GatewayResponse',
      Object.keys(GATEWAY_RESPONSES).length + Object.keys(USAGE_PLAN_GATEWAY_RESPONSES).length,
    );
  });
});

describe('data store', () => {
  it('keeps an on-demand table with PITR, AWS-managed encryption and every index', () => {
    // Prepare
    const keySchema = (partitionKey: string, sortKey: string) => [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ];

    // Assess
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        KeySchema: keySchema(TABLE_PARTITION_KEY, TABLE_SORT_KEY),
        GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
          IndexName: index.indexName,
          KeySchema: keySchema(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    });
  });

  it('declares every key attribute as a string', () => {
    // Prepare
    const keyAttributes = [
      TABLE_PARTITION_KEY,
      TABLE_SORT_KEY,
      ...TABLE_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];

    // Assess
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayEquals(
        keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      ),
    });
  });

  it('keeps a private, encrypted, versioned files bucket', () => {
    // Prepare
    const bucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.filesBucket);
    // Assess
    const accessLogsBucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.accessLogsBucket);
    template.resourceCountIs('AWS::S3::Bucket', 4); // files, ledger digests, web console, their server access logs
    expect(template.toJSON().Resources[bucketId]).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: { DestinationBucketName: { Ref: accessLogsBucketId }, LogFilePrefix: 'files/' },
      },
    });
  });

  it('expires staged uploads nobody completed, and parts of aborted multipart uploads', () => {
    // Prepare
    const bucketId = synthesized.logicalIdOf(synthesized.stack.dataStore.filesBucket);
    // Act
    const rules = template.toJSON().Resources[bucketId].Properties.LifecycleConfiguration.Rules;
    // Assess
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Prefix: UPLOAD_STAGING_PREFIX,
          ExpirationInDays: 1,
          NoncurrentVersionExpiration: { NoncurrentDays: 1 },
          Status: 'Enabled',
        }),
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
      ]),
    );
    // Only staging keys expire: recorded files never do.
    for (const rule of rules)
      if (rule.ExpirationInDays !== undefined) expect(rule.Prefix).toBe(UPLOAD_STAGING_PREFIX);
  });

  it('refuses plain-HTTP access to the bucket', () => {
    // Assess
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });
});

describe('outputs', () => {
  it.each(['ApiUrl', 'RestApiId', 'TableName', 'FilesBucketName'])('exports %s', (outputName) => {
    // Assess
    template.hasOutput(outputName, {});
  });

  it('has no outputs besides the documented ones', () => {
    // Assess
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(
      [
        'AccessLogsBucketName',
        'AlarmTopicArn',
        'ApiUrl',
        'ConsoleUrl',
        'DashboardName',
        'DigestBucketName',
        'EventBusArn',
        'EventBusName',
        'FilesBucketName',
        'LedgerSigningKeyArn',
        'RestApiId',
        'TableName',
        ...Object.keys(USAGE_PLANS).map((planName) => usagePlanOutputId(planName as UsagePlanName)),
      ].sort(),
    );
  });
});
