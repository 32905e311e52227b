/**
 * The REST API: stage `prod`, binary media types, the API-key authorizer on every method,
 * the spec-shaped gateway responses, and one route and function per row of the operation table.
 */
import { Stack } from 'aws-cdk-lib';
import { AuthorizationType, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { OperationId } from '../lambdas/operations.js';
import { BINARY_MEDIA_TYPES } from './api-gateway-settings.js';
import { ApiKeyAuthorizer } from './api-key-authorizer.js';
import type { BackgroundJobFunctions } from './background-job-functions.js';
import { addGatewayResponses } from './gateway-responses.js';
import { OperationRoutes } from './operation-routes.js';

export const STAGE_NAME = 'prod';

export interface AssetRegistryApiProps {
  table: ITable;
  filesBucket: IBucket;
  backgroundJobs: BackgroundJobFunctions;
}

export class AssetRegistryApi extends Construct {
  readonly restApi: RestApi;
  readonly authorizerFunction: NodejsFunction;
  readonly operationFunctions: ReadonlyMap<OperationId, NodejsFunction>;

  constructor(scope: Construct, id: string, props: AssetRegistryApiProps) {
    super(scope, id);

    const apiKeyAuthorizer = new ApiKeyAuthorizer(this, 'ApiKeyAuthorizer', { table: props.table });
    this.authorizerFunction = apiKeyAuthorizer.function;

    this.restApi = new RestApi(this, 'RestApi', {
      // Named after the stack, so copies deployed with `-c stackName=...` are told apart in the console.
      restApiName: Stack.of(this).stackName,
      description: 'Asset Registry API',
      deployOptions: { stageName: STAGE_NAME },
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      // Account-wide setting that outlives the stack; cdk.json's flag says the same.
      cloudWatchRole: false,
      // Default options reach every method, including those a new table row adds.
      defaultMethodOptions: {
        authorizationType: AuthorizationType.CUSTOM,
        authorizer: apiKeyAuthorizer.authorizer,
      },
    });
    // RestApi always adds an `Endpoint` output; the stack's `ApiUrl` output replaces it.
    this.restApi.node.tryRemoveChild('Endpoint');

    addGatewayResponses(this.restApi);

    const routes = new OperationRoutes(this, 'Operations', {
      restApi: this.restApi,
      table: props.table,
      filesBucket: props.filesBucket,
      backgroundJobs: props.backgroundJobs,
    });
    this.operationFunctions = routes.functions;
  }
}
