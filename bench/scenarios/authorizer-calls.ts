/**
 * The authorizer's DynamoDB calls, apart from the operations': one request through the local
 * gateway with the authorizer's memory cache cold (cleared just before), then the same request
 * warm, for an API key and for a wallet's session token. The authorizer alone is also invoked
 * in process, so its own calls are counted exactly; the gateway row adds the handler's.
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler as authorize, clearAuthorizerCache } from '../../lambdas/authorizer/api-key-authorizer';
import { operations } from '../../lambdas/operations';
import type { LocalGateway } from '../../local/local-gateway';
import { authorizerMinimums } from '../operation-minimums';
import { type DynamoDbMeter, describeCommands } from '../support/dynamodb-meter';
import {
  givenObject,
  givenPlace,
  givenWallet,
  newApp,
  newCompany,
  WALLET_PASSWORD,
} from '../support/fixtures';
import { invokeExpecting } from '../support/handler-calls';

export interface AuthorizerCallsRow {
  credential: string;
  authorizerCalls: number;
  authorizerCommands: string;
  minimum: number | null;
  gatewayRequest: string;
  gatewayStatus: number;
  gatewayCalls: number;
  gatewayCommands: string;
  /** The local gateway's own counters for this request (API Gateway's cache is off: TTL 0). */
  gatewayAuthorizerRuns: number;
  gatewayCacheHits: number;
  minimumReason: string;
}

function authorizerEvent(headers: Record<string, string>, path: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/local/GET${path}`,
    resource: path,
    path,
    httpMethod: 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {} as APIGatewayRequestAuthorizerEvent['requestContext'],
  };
}

export async function runAuthorizerCalls(meter: DynamoDbMeter, gateway: LocalGateway, baseUrl: string) {
  const company = await newCompany('Bench authorizer');
  const objectId = await givenObject(company, await givenPlace(company));
  const app = await newApp('Bench authorizer app');
  const username = 'authorizer-bench';
  const walletId = await givenWallet(app, username);
  const login = await invokeExpecting(operations.walletLogin, {
    body: { username: `${username}@${app.tenantId}`, password: WALLET_PASSWORD },
  });
  const credentials: Array<{ name: string; headers: Record<string, string>; path: string }> = [
    { name: 'API key', headers: { 'X-API-Key': company.apiKey }, path: `/v2/objects/${objectId}` },
    {
      name: 'wallet token',
      headers: { Authorization: `Bearer ${login.body.token as string}` },
      path: `/v2/wallets/${walletId}`,
    },
  ];

  const rows: AuthorizerCallsRow[] = [];
  for (const credential of credentials) {
    clearAuthorizerCache();
    for (const cache of ['cold', 'warm'] as const) {
      if (cache === 'cold') clearAuthorizerCache();
      meter.reset();
      await authorize(authorizerEvent(credential.headers, credential.path));
      const alone = meter.read();

      if (cache === 'cold') clearAuthorizerCache();
      const before = { ...gateway.authorizerStatistics };
      meter.reset();
      const response = await fetch(`${baseUrl}${credential.path}`, { headers: credential.headers });
      await response.arrayBuffer();
      const whole = meter.read();
      const label = `${credential.name}, ${cache} cache`;
      const stated = authorizerMinimums[label];
      rows.push({
        credential: label,
        authorizerCalls: alone.calls,
        authorizerCommands: describeCommands(alone.callsByCommand),
        minimum: stated?.calls ?? null,
        gatewayRequest: `GET ${credential.path.replace(/[0-9a-f-]{36}/g, '{id}')}`,
        gatewayStatus: response.status,
        gatewayCalls: whole.calls,
        gatewayCommands: describeCommands(whole.callsByCommand),
        gatewayAuthorizerRuns: gateway.authorizerStatistics.invocations - before.invocations,
        gatewayCacheHits: gateway.authorizerStatistics.cacheHits - before.cacheHits,
        minimumReason: stated?.reason ?? '',
      });
    }
  }
  return rows;
}
