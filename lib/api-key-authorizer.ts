/**
 * The REQUEST authorizer in front of every method: its function maps `X-API-Key` (companies and
 * Apps) or `Authorization: Bearer` (wallet sessions) to a principal.
 *
 * API Gateway calls a REQUEST authorizer only when every identity source is present and caches
 * per identity-source value, so no identity source list can mean "either header". The
 * authorizer therefore has no identity sources and caching off (TTL 0): it runs on every
 * request, keeps resolved API keys in memory for a few seconds, and checks wallet sessions
 * against the wallet on every call (a wallet's sessions end at once).
 */
import { Duration } from 'aws-cdk-lib';
import { type CfnAuthorizer, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { API_KEY_HEADER, AUTHORIZER_CACHE_TTL_SECONDS, WALLET_TOKEN_HEADER } from './api-gateway-settings.js';
import { bundledFunction } from './bundled-function.js';
import { authorizerEntry } from './project-paths.js';

/** Partition keys of wallet items (`T#<appId>#WALLET#<walletId>`, see `wallet-repository.ts`). */
export const WALLET_ITEM_PARTITIONS = 'T#*#WALLET#*';

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
      description: `API Gateway authorizer: ${API_KEY_HEADER} or ${WALLET_TOKEN_HEADER} Bearer to principal`,
      // Keys and sessions live in the table; the authorizer never touches file bytes.
      environment: { TABLE_NAME: props.table.tableName },
    });
    props.table.grantReadData(this.function);
    // Counting a wallet's API calls is its only write, and only on wallet items: it can change
    // no key, session, object or ledger event.
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [WALLET_ITEM_PARTITIONS] } },
      }),
    );

    this.authorizer = new RequestAuthorizer(this, 'Authorizer', {
      handler: this.function,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });
    // No identity sources: the property is left out rather than sent as an empty string.
    (this.authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
  }
}
