/** Wallet principals as the handlers and the ledger see them: context round trip and actor name. */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  actorOf,
  type Principal,
  principalFromEvent,
  toAuthorizerContext,
  WALLET_PERMISSIONS,
} from '../../lambdas/shared/principal';
import { proxyEvent } from '../support/api-events';

const APP_ID = 'a9d7b1f2-1111-4222-8333-944455566677';
const WALLET_ID = '0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b';

const walletPrincipal: Principal = {
  type: 'app',
  tenantId: APP_ID,
  keyId: WALLET_ID,
  permissions: new Set(WALLET_PERMISSIONS),
  wallet: { id: WALLET_ID, fullUsername: `scanner@${APP_ID}` },
};

function eventWith(authorizer: unknown): APIGatewayProxyEvent {
  const event = proxyEvent({ method: 'GET', path: '/v2/wallets' });
  (event.requestContext as { authorizer: unknown }).authorizer = authorizer;
  return event;
}

describe('wallet principals', () => {
  it('grant wallets:read only', () => {
    // Assess
    expect(WALLET_PERMISSIONS).toEqual(['wallets:read']);
  });

  it('travel through the authorizer context as strings and come back whole', () => {
    // Act
    const context = toAuthorizerContext(walletPrincipal);
    const readBack = principalFromEvent(eventWith({ principalId: WALLET_ID, ...context }));
    // Assess
    expect(context).toEqual({
      principalType: 'app',
      tenantId: APP_ID,
      keyId: WALLET_ID,
      permissions: 'wallets:read',
      walletId: WALLET_ID,
      walletFullUsername: `scanner@${APP_ID}`,
    });
    expect(readBack).toEqual(walletPrincipal);
  });

  it('are named wallet:<fullUsername> in the ledger', () => {
    // Act / Assess
    expect(actorOf(walletPrincipal)).toBe(`wallet:scanner@${APP_ID}`);
  });

  it('leave API key principals as they were: no wallet, named apiKey:<keyId>', () => {
    // Prepare
    const keyPrincipal: Principal = {
      type: 'app',
      tenantId: APP_ID,
      keyId: 'abcdefabcdefabcdefabcdef',
      permissions: new Set(['wallets:read', 'wallets:write']),
    };
    // Act
    const context = toAuthorizerContext(keyPrincipal);
    const readBack = principalFromEvent(eventWith(context));
    // Assess
    expect(Object.keys(context)).toEqual(['principalType', 'tenantId', 'keyId', 'permissions']);
    expect(readBack.wallet).toBeUndefined();
    expect(actorOf(readBack)).toBe('apiKey:abcdefabcdefabcdefabcdef');
  });

  it('need both wallet keys in the context: half a wallet is no wallet', () => {
    // Act
    const readBack = principalFromEvent(
      eventWith({ ...toAuthorizerContext(walletPrincipal), walletFullUsername: '' }),
    );
    // Assess
    expect(readBack.wallet).toBeUndefined();
  });
});
