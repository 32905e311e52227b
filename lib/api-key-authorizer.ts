/**
 * The REQUEST authorizer in front of every method: its function maps `X-API-Key` (companies and
 * Apps) or `Authorization: Bearer` (wallet sessions) to a principal.
 *
 * API Gateway calls a REQUEST authorizer only when every identity source is present and caches
 * per identity-source value, so no identity source list can mean "either header". The
 * authorizer therefore has no identity sources and caching off (TTL 0): it runs on every
 * request, keeps resolved API keys in memory for a few seconds, and checks wallet sessions
 * against the wallet on every call (a wallet's sessions end at once).
 *
 * Its response also names the caller's API Gateway API key (`usageIdentifierKey`), whose usage
 * plan throttles the caller (`usage-plans.ts`); callers without one fall back to the shared key
 * named in its environment. Its role may read key, session and identity provider items and
 * count wallet calls, nothing else. People's tokens are checked against their provider's keys,
 * fetched over the internet (the function is in no VPC).
 */
import { Duration } from 'aws-cdk-lib';
import { type CfnAuthorizer, RequestAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { IDENTITY_PROVIDER_PARTITION } from '../lambdas/repositories/identity-provider-repository.js';
import { apiKeyPartition } from '../lambdas/repositories/identity-repository.js';
import { walletKey } from '../lambdas/repositories/wallet-repository.js';
import { sessionPartition } from '../lambdas/repositories/wallet-session-repository.js';
import { TABLE_NAME_ENVIRONMENT } from '../lambdas/shared/clients.js';
import {
  API_KEY_HEADER,
  AUTHORIZER_CACHE_TTL_SECONDS,
  DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
  WALLET_TOKEN_HEADER,
} from './api-gateway-settings.js';
import { bundledFunction } from './bundled-function.js';
import { authorizerEntry } from './project-paths.js';

/** Partition keys of wallet items (`T#<appId>#WALLET#<walletId>`), from the repository's key. */
export const WALLET_ITEM_PARTITIONS = walletKey('*', '*').pk;
/** Partition keys of API key items (`APIKEY#<keyId>`). */
export const API_KEY_ITEM_PARTITIONS = apiKeyPartition('*');
/** Partition keys of wallet session items (`WALLET_SESSION#<tokenHash>`). */
export const WALLET_SESSION_ITEM_PARTITIONS = sessionPartition('*');

export interface ApiKeyAuthorizerProps {
  table: ITable;
  /**
   * The value of the API Gateway API key whose usage plan applies to callers that have no
   * usage identifier of their own (see `usage-plans.ts`); passed in the function's environment.
   */
  defaultUsageIdentifierKey: string;
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
      environment: {
        [TABLE_NAME_ENVIRONMENT]: props.table.tableName,
        [DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT]: props.defaultUsageIdentifierKey,
      },
    });
    // It reads one key item, session item or identity provider item per call, and nothing
    // else: no object, no ledger event, no other tenant's data, no Query or Scan.
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [
              API_KEY_ITEM_PARTITIONS,
              WALLET_SESSION_ITEM_PARTITIONS,
              IDENTITY_PROVIDER_PARTITION,
            ],
          },
        },
      }),
    );
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
