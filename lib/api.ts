/**
 * The REST API: stage `prod`, binary media types, the API-key authorizer on every method,
 * the spec-shaped gateway responses, one route and function per row of the operation table,
 * per-key usage plans (API keys come from the authorizer), stage throttling, JSON access logs,
 * execution logs of errors, X-Ray tracing, and a WAF web ACL on the stage (`waf.ts`).
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  ApiKeySourceType,
  AuthorizationType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  type MethodOptions,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from '../lambdas/http/cors.js';
import { methodsOfRow } from '../lambdas/operation-row.js';
import { type OperationId, operationList } from '../lambdas/operations.js';
import { accessLogFormat } from './api-access-log.js';
import { BINARY_MEDIA_TYPES, PUBLIC_ROUTE_THROTTLE, STAGE_THROTTLE } from './api-gateway-settings.js';
import { ApiKeyAuthorizer } from './api-key-authorizer.js';
import type { BackgroundJobFunctions } from './background-job-functions.js';
import { addGatewayResponses } from './gateway-responses.js';
import { retainedLogGroup } from './log-retention.js';
import { OperationRoutes } from './operation-routes.js';
import { sharedUsageKeyValue, UsagePlans } from './usage-plans.js';
import { ApiWebAcl } from './waf.js';

export const STAGE_NAME = 'prod';

export interface AssetRegistryApiProps {
  table: ITable;
  filesBucket: IBucket;
  /** The Object Lock bucket with the log's files. */
  logBucket?: IBucket;
  backgroundJobs: BackgroundJobFunctions;
  /**
   * Let the stack set the account's API Gateway CloudWatch Logs role (region-wide, kept when
   * the stack is deleted). Logging needs one; accounts that have one already leave this off.
   */
  createCloudWatchRole?: boolean;
  /**
   * Origins whose pages may call the API from a browser (CORS), e.g. the web console's
   * `https://<distribution>.cloudfront.net`; none: no CORS at all. API Gateway responds to the
   * preflights; the functions and the gateway responses add the headers of actual responses.
   */
  corsAllowedOrigins?: readonly string[];
}

/** `'/v2/wallets/login'` + `'POST'` → the stage's method-settings key `/v2/wallets/login/POST`. */
const methodSettingsKey = (path: string, method: string): string => `${path}/${method}`;

export class AssetRegistryApi extends Construct {
  readonly restApi: RestApi;
  readonly authorizerFunction: NodejsFunction;
  readonly operationFunctions: ReadonlyMap<OperationId, NodejsFunction>;
  readonly usagePlans: UsagePlans;
  /** JSON access log of the stage. */
  readonly accessLogGroup: LogGroup;
  /** The stage's execution log (errors only), under the name API Gateway writes to. */
  readonly executionLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AssetRegistryApiProps) {
    super(scope, id);

    const corsOrigins = [...(props.corsAllowedOrigins ?? [])];
    const apiKeyAuthorizer = new ApiKeyAuthorizer(this, 'ApiKeyAuthorizer', {
      table: props.table,
      defaultUsageIdentifierKey: sharedUsageKeyValue(),
    });
    this.authorizerFunction = apiKeyAuthorizer.function;
    this.accessLogGroup = retainedLogGroup(this, 'AccessLogs');

    // Public routes (no key, hence no usage plan) get a tighter stage throttle of their own.
    const publicRouteThrottles = Object.fromEntries(
      operationList
        .filter((operation) => operation.authorization === 'none')
        .flatMap((operation) =>
          methodsOfRow(operation).map((method) => methodSettingsKey(operation.path, method)),
        )
        .map((key) => [
          key,
          {
            throttlingRateLimit: PUBLIC_ROUTE_THROTTLE.rateLimit,
            throttlingBurstLimit: PUBLIC_ROUTE_THROTTLE.burstLimit,
          },
        ]),
    );

    const defaultMethodOptions: MethodOptions = {
      authorizationType: AuthorizationType.CUSTOM,
      authorizer: apiKeyAuthorizer.authorizer,
      // Usage plans apply only to methods that require an API key; the authorizer supplies it.
      apiKeyRequired: true,
    };
    this.restApi = new RestApi(this, 'RestApi', {
      // Named after the stack, so copies deployed with `-c stackName=...` are told apart in the console.
      restApiName: Stack.of(this).stackName,
      description: 'Asset Registry API',
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: accessLogFormat(),
        // Errors only, and never request or response bodies (they hold passwords and keys).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
        methodOptions: publicRouteThrottles,
      },
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // Account-wide setting that outlives the stack: only on request (see docs/deploying.md).
      ...(props.createCloudWatchRole
        ? { cloudWatchRole: true, cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN }
        : { cloudWatchRole: false }),
      // Default options reach every method, including those a new table row adds.
      defaultMethodOptions,
      // An OPTIONS method (a mock, no authorizer, no key) on every resource.
      ...(corsOrigins.length > 0
        ? {
            defaultCorsPreflightOptions: {
              allowOrigins: corsOrigins,
              allowMethods: [...CORS_ALLOWED_METHODS],
              allowHeaders: [...CORS_ALLOWED_HEADERS],
              maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
            },
          }
        : {}),
    });
    // RestApi always adds an `Endpoint` output; the stack's `ApiUrl` output replaces it.
    this.restApi.node.tryRemoveChild('Endpoint');

    // API Gateway writes execution logs to this name; made here first, so it has a retention.
    this.executionLogGroup = retainedLogGroup(
      this,
      'ExecutionLogs',
      `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${STAGE_NAME}`,
    );
    this.restApi.deploymentStage.node.addDependency(this.executionLogGroup);

    addGatewayResponses(this.restApi, corsOrigins);

    const routes = new OperationRoutes(this, 'Operations', {
      corsAllowedOrigins: corsOrigins,
      restApi: this.restApi,
      table: props.table,
      filesBucket: props.filesBucket,
      logBucket: props.logBucket,
      backgroundJobs: props.backgroundJobs,
    });
    this.operationFunctions = routes.functions;
    for (const preflight of this.restApi.methods.filter((method) => method.httpMethod === 'OPTIONS')) {
      Validations.of(preflight).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'CORS preflight (OPTIONS): browsers send it without credentials, so it cannot need any; ' +
          'API Gateway responds to it from a mock integration with the allowed origins, and no function runs.',
      });
    }
    this.usagePlans = new UsagePlans(this, 'UsagePlans', { restApi: this.restApi });
    // Per-IP rate rules and the AWS common rule set in front of the stage (`lib/waf.ts`).
    new ApiWebAcl(this, 'WebAcl', { stage: this.restApi.deploymentStage });

    this.acknowledgeNagFindings(props.createCloudWatchRole ?? false);
  }

  /** The AwsSolutions findings this API keeps on purpose, each with its reason. */
  private acknowledgeNagFindings(createsCloudWatchRole: boolean): void {
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in each handler against the schemas the OpenAPI document is generated ' +
        "from, so that every refusal carries the spec's body (validationErrors codes, details); API " +
        "Gateway's validator would respond in its own format and cannot express these rules.",
    });
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Callers authenticate with the API keys (and wallet session tokens) of the spec, verified by the ' +
        "Lambda REQUEST authorizer against hashed keys; Cognito user pools do not issue such keys. People's " +
        "ID tokens (a Cognito pool's among them, lib/people-sign-in.ts) are verified by the same authorizer.",
    });
    if (createsCloudWatchRole) {
      Validations.of(this.restApi).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The account's API Gateway logging role (created on request) needs the AWS managed policy " +
          'that API Gateway documents for it: log groups are created by API Gateway under names it picks.',
      });
    }
  }
}
