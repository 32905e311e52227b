/**
 * The REQUEST authorizer in front of every method: its function maps `X-API-Key` to a
 * principal; API Gateway caches the answer per key for the shared TTL.
 */
import { Duration } from 'aws-cdk-lib';
import { IdentitySource, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { API_KEY_HEADER, AUTHORIZER_CACHE_TTL_SECONDS } from './api-gateway-settings.js';
import { bundledFunction } from './bundled-function.js';
import { authorizerEntry } from './project-paths.js';

export interface ApiKeyAuthorizerProps {
  table: ITable;
}

export class ApiKeyAuthorizer extends Construct {
  readonly authorizer: RequestAuthorizer;
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiKeyAuthorizerProps) {
    super(scope, id);

    this.function = bundledFunction(this, 'Function', {
      entry: authorizerEntry,
      description: `API Gateway authorizer: ${API_KEY_HEADER} to principal`,
      // Keys live in the table; the authorizer never touches file bytes.
      environment: { TABLE_NAME: props.table.tableName },
    });
    props.table.grantReadData(this.function);

    this.authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: this.function,
      identitySources: [IdentitySource.header(API_KEY_HEADER)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });
  }
}
