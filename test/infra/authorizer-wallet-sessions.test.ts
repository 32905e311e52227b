/**
 * The authorizer as wallet sessions need it: no API Gateway cache (it would key on one header
 * and refuse the other), no identity sources, and one narrow write (counting a wallet's calls)
 * on wallet items only. Also the wallet routes the operation table adds.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { operationList, operations } from '../../lambdas/operations.js';
import { walletKey } from '../../lambdas/repositories/wallet-repository.js';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
} from '../../lib/api-gateway-settings.js';
import { WALLET_ITEM_PARTITIONS } from '../../lib/api-key-authorizer.js';
import { resourcePaths, routesOfRows, type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string[]>>;
}

let synthesized: SynthesizedStack;
let template: Template;

beforeAll(() => {
  // Act: one synth for the whole file.
  synthesized = synthesizeStack();
  template = synthesized.template;
});

/** Every statement of the policies attached to the authorizer's role. */
function authorizerStatements(): PolicyStatement[] {
  const roleId = synthesized.logicalIdOf(synthesized.stack.api.authorizerFunction.role!);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as PolicyStatement[]);
}

describe('authorizer for API keys and wallet sessions', () => {
  it('has API Gateway caching off and no identity sources, so either header reaches it', () => {
    // Prepare
    const [authorizer] = Object.values(template.findResources('AWS::ApiGateway::Authorizer'));
    // Assess
    expect(AUTHORIZER_CACHE_TTL_SECONDS).toBe(0);
    expect(authorizer?.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    expect(authorizer?.Properties).not.toHaveProperty('IdentitySource');
  });

  it('may update items only under wallet partitions, and put, delete or batch-write nothing', () => {
    // Act
    // Only table actions count here: its log group and X-Ray grants write no item.
    const allowed = authorizerStatements().filter(
      (statement) =>
        statement.Effect === 'Allow' &&
        [statement.Action].flat().every((action) => action.startsWith('dynamodb:')),
    );
    const writes = allowed.filter((statement) =>
      [statement.Action]
        .flat()
        .some((action) => !/^dynamodb:(Get|Query|Scan|BatchGet|Describe|ConditionCheck)/.test(action)),
    );
    const allowedActions = new Set(allowed.flatMap((statement) => [statement.Action].flat()));
    // Assess
    expect(writes).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: expect.anything(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [WALLET_ITEM_PARTITIONS] } },
      },
    ]);
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
      expect(allowedActions.has(action)).toBe(false);
    }
  });

  it("matches wallet items' partition keys with that condition, and no other key the table holds", () => {
    // Prepare
    const likePattern = new RegExp(
      `^${WALLET_ITEM_PARTITIONS.split('*')
        .map((part) => part.replace(/[#$]/g, '\\$&'))
        .join('.*')}$`,
    );
    // Act / Assess
    expect(
      likePattern.test(
        walletKey('7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f', '0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b').pk,
      ),
    ).toBe(true);
    for (const other of [
      'T#7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f',
      'T#7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f#WALLET_USERNAME#scanner',
      'T#7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f#CATEGORY#0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b',
      'APIKEY#0123456789abcdef01234567',
      'WALLET_SESSION#ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      'LEDGER_HEADS#0',
      'T#7f1c1e88-2f0e-4c55-9d0e-0a3b1c2d3e4f#LEDGER#OBJECT#0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b',
    ]) {
      expect(likePattern.test(other)).toBe(false);
    }
  });

  it('gets the table name and its usage-plan fallback, but no bucket, in its environment', () => {
    // Prepare
    const authorizerFunction = synthesized.stack.api.authorizerFunction;
    // Act
    const variables =
      template.toJSON().Resources[synthesized.logicalIdOf(authorizerFunction)].Properties.Environment
        .Variables;
    // Assess
    // Besides the table: the shared usage key (usage plans) and the Powertools names.
    expect(Object.keys(variables).sort()).toEqual([
      DEFAULT_USAGE_IDENTIFIER_KEY_ENVIRONMENT,
      'NODE_OPTIONS',
      'POWERTOOLS_METRICS_NAMESPACE',
      'POWERTOOLS_SERVICE_NAME',
      'TABLE_NAME',
    ]);
  });
});

describe('wallet routes', () => {
  const walletRows = operationList.filter((operation) => operation.path.startsWith('/v2/wallets'));

  it('come from the operation table: list, create, login, get, update, delete', () => {
    // Assess
    expect(walletRows.map((operation) => `${operation.method} ${operation.path}`)).toEqual([
      'GET /v2/wallets',
      'POST /v2/wallets',
      'POST /v2/wallets/login',
      'GET /v2/wallets/{walletId}',
      'PUT /v2/wallets/{walletId}',
      'DELETE /v2/wallets/{walletId}',
    ]);
  });

  it('exist in the REST API with their function each', () => {
    // Prepare
    const paths = resourcePaths(template);
    // Act
    const routes = Object.values(template.findResources('AWS::ApiGateway::Method'))
      .map((method) => `${method.Properties.HttpMethod} ${paths.get(method.Properties.ResourceId.Ref)}`)
      // The CORS preflights (OPTIONS, served by API Gateway itself) are no operation's route.
      .filter((route) => route.includes('/v2/wallets') && !route.startsWith('OPTIONS '));
    // Assess
    expect(routes.sort()).toEqual(routesOfRows(walletRows).sort());
    for (const operation of walletRows)
      expect(synthesized.stack.api.operationFunctions.has(operation.id)).toBe(true);
  });

  it('mark only the login (and the OpenAPI document) as public in the table', () => {
    // Assess
    expect(
      operationList
        .filter((operation) => operation.authorization === 'none')
        .map((operation) => operation.id),
    ).toEqual(['walletLogin', 'openapi']);
  });

  it('puts no authorizer on POST /v2/wallets/login', () => {
    // Prepare
    const paths = resourcePaths(template);
    // Act
    const login = Object.values(template.findResources('AWS::ApiGateway::Method')).find(
      (method) =>
        method.Properties.HttpMethod === 'POST' &&
        paths.get(method.Properties.ResourceId.Ref) === operations.walletLogin.path,
    );
    // Assess
    expect(login?.Properties.AuthorizationType).toBe('NONE');
    expect(login?.Properties).not.toHaveProperty('AuthorizerId');
  });
});
