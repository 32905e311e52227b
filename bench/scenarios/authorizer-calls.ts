/**
 * The authorizer's DynamoDB calls, apart from the operations': one request through the local
 * gateway with the authorizer's memory cache cold (cleared just before), then the same request
 * warm, for an API key, a wallet's session token and a person's token (an ID token of a test
 * OpenID provider on loopback, registered for the company as `add-identity-provider` does; its
 * discovery document and key set fetches are counted too). The authorizer alone is also invoked
 * in process, so its own calls are counted exactly; the gateway row adds the handler's. Then
 * the authorizer's own time per warm call (`authorizer-time.ts`).
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler as authorize, clearAuthorizerCache } from '../../lambdas/authorizer/api-key-authorizer';
import { addIdentityProvider } from '../../lambdas/domain/identity/identity-providers';
import { operations } from '../../lambdas/operations';
import { CONSOLE_CLIENT_ID } from '../../local/identity-provider/provider-configuration';
import type { LocalGateway } from '../../local/local-gateway';
import {
  startTestIdentityProvider,
  TEST_PROVIDER_ALGORITHMS,
  type TestIdentityProvider,
} from '../../test/support/test-identity-provider';
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
import { AUTHORIZER_TIMING_ROUNDS, type AuthorizerTimeRow, timeAuthorizerCalls } from './authorizer-time';

export interface AuthorizerCallsRow {
  credential: string;
  authorizerCalls: number;
  authorizerCommands: string;
  minimum: number | null;
  gatewayRequest: string;
  gatewayStatus: number;
  gatewayCalls: number;
  gatewayCommands: string;
  /** The identity provider's discovery document and JWKS fetches, by the authorizer alone. */
  authorizerFetches: string;
  /** The same, during the request through the gateway. */
  gatewayFetches: string;
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

export interface AuthorizerResults {
  calls: AuthorizerCallsRow[];
  times: AuthorizerTimeRow[];
  /** How many turns the credentials took while timed. */
  timingRounds: number;
  /** The provider's fetches during the timed calls: 0 when its discovery and keys stayed cached. */
  fetchesWhileTimed: number;
}

/** What the provider has served so far, as `discovery×1, JWKS×1`. */
const fetchesSince = (provider: TestIdentityProvider, before: TestIdentityProvider['requests']) =>
  describeCommands(
    Object.fromEntries(
      [
        ['discovery', provider.requests.discovery - before.discovery],
        ['JWKS', provider.requests.jwks - before.jwks],
      ].filter(([, count]) => count !== 0),
    ),
  );

const fetchCount = (provider: TestIdentityProvider) => provider.requests.discovery + provider.requests.jwks;

export async function runAuthorizerCalls(
  meter: DynamoDbMeter,
  gateway: LocalGateway,
  baseUrl: string,
  options: { timedCalls: number },
): Promise<AuthorizerResults> {
  const provider = await startTestIdentityProvider();
  try {
    return await measureWithProvider(meter, gateway, baseUrl, provider, options.timedCalls);
  } finally {
    await provider.close();
  }
}

async function measureWithProvider(
  meter: DynamoDbMeter,
  gateway: LocalGateway,
  baseUrl: string,
  provider: TestIdentityProvider,
  timedCalls: number,
): Promise<AuthorizerResults> {
  const company = await newCompany('Bench authorizer');
  const objectId = await givenObject(company, await givenPlace(company));
  const objectPath = `/v2/objects/${objectId}`;
  // As the admin CLI's add-identity-provider (loopback http allowed by the embedded stack's environment).
  await addIdentityProvider({
    companyId: company.tenantId,
    issuer: provider.issuer,
    audience: CONSOLE_CLIENT_ID,
  });
  const personToken = (algorithm: (typeof TEST_PROVIDER_ALGORITHMS)[number]) =>
    provider.mintTestToken({
      algorithm,
      claims: { aud: CONSOLE_CLIENT_ID, sub: 'bench-person', name: 'Bench Person', roles: ['viewer'] },
    });
  const app = await newApp('Bench authorizer app');
  const username = 'authorizer-bench';
  const walletId = await givenWallet(app, username);
  const login = await invokeExpecting(operations.walletLogin, {
    body: { username: `${username}@${app.tenantId}`, password: WALLET_PASSWORD },
  });
  const credentials: Array<{ name: string; headers: Record<string, string>; path: string }> = [
    { name: 'API key', headers: { 'X-API-Key': company.apiKey }, path: objectPath },
    {
      name: 'wallet token',
      headers: { Authorization: `Bearer ${login.body.token as string}` },
      path: `/v2/wallets/${walletId}`,
    },
    {
      name: 'person token',
      headers: { Authorization: `Bearer ${await personToken('RS256')}` },
      path: objectPath,
    },
  ];

  const rows: AuthorizerCallsRow[] = [];
  for (const credential of credentials) {
    clearAuthorizerCache();
    for (const cache of ['cold', 'warm'] as const) {
      if (cache === 'cold') clearAuthorizerCache();
      meter.reset();
      const fetchesBeforeAlone = { ...provider.requests };
      await authorize(authorizerEvent(credential.headers, credential.path));
      const alone = meter.read();
      const authorizerFetches = fetchesSince(provider, fetchesBeforeAlone);

      if (cache === 'cold') clearAuthorizerCache();
      const before = { ...gateway.authorizerStatistics };
      meter.reset();
      const fetchesBeforeRequest = { ...provider.requests };
      const response = await fetch(`${baseUrl}${credential.path}`, { headers: credential.headers });
      await response.arrayBuffer();
      const whole = meter.read();
      const gatewayFetches = fetchesSince(provider, fetchesBeforeRequest);
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
        authorizerFetches,
        gatewayFetches,
        gatewayAuthorizerRuns: gateway.authorizerStatistics.invocations - before.invocations,
        gatewayCacheHits: gateway.authorizerStatistics.cacheHits - before.cacheHits,
        minimumReason: stated?.reason ?? '',
      });
    }
  }

  const fetchesBeforeTiming = fetchCount(provider);
  const timed = [{ name: 'API key', event: authorizerEvent({ 'X-API-Key': company.apiKey }, objectPath) }];
  for (const algorithm of TEST_PROVIDER_ALGORITHMS) {
    timed.push({
      name: `person token, ${algorithm}`,
      event: authorizerEvent({ Authorization: `Bearer ${await personToken(algorithm)}` }, objectPath),
    });
  }
  const times = await timeAuthorizerCalls(meter, timed, timedCalls);
  return {
    calls: rows,
    times,
    timingRounds: AUTHORIZER_TIMING_ROUNDS,
    fetchesWhileTimed: fetchCount(provider) - fetchesBeforeTiming,
  };
}
