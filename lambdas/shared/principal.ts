/**
 * Who is calling: the identity the authorizer resolved from the API key (or a wallet's session
 * token), as the handlers see it.
 * API Gateway hands the authorizer's `context` to the integration with every value as a string,
 * so the permissions travel as one space-separated string.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from './errors.js';

export const PERMISSIONS = [
  'objects:read',
  'objects:write',
  'categories:read',
  'categories:write',
  'files:read',
  'files:write',
  'wallets:read',
  'wallets:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Every permission a company key gets at creation. */
export const COMPANY_PERMISSIONS: readonly Permission[] = [
  'objects:read',
  'objects:write',
  'categories:read',
  'categories:write',
  'files:read',
  'files:write',
  'webhooks:read',
  'webhooks:write',
];
/** Every permission an App key gets at creation. */
export const APP_PERMISSIONS: readonly Permission[] = ['wallets:read', 'wallets:write'];
/**
 * What a wallet may do when it calls with its session token: read wallets, and the wallet
 * operations show it only its own record (see `lambdas/domain/wallets/wallet-service.ts`).
 */
export const WALLET_PERMISSIONS: readonly Permission[] = ['wallets:read'];

export type PrincipalType = 'company' | 'app';

export interface Principal {
  type: PrincipalType;
  /** The company id or the App id: the tenant every read and write is scoped to. */
  tenantId: string;
  /** The API key's id (never the key itself), recorded as the actor of changes; a wallet's id for a wallet. */
  keyId: string;
  permissions: ReadonlySet<Permission>;
  /** The API key's label (`create-key --label`), when it has one: who holds the key. */
  keyLabel?: string;
  /** Set when a wallet calls with its session token (`Authorization: Bearer ...`) instead of a key. */
  wallet?: WalletIdentity;
  /**
   * The API Gateway API key whose usage plan throttles this caller (AWS only; never passed on
   * to handlers). Absent: the stack's shared usage key.
   */
  usageIdentifierKey?: string;
}

/** The wallet behind a wallet principal; its App is the principal's `tenantId`. */
interface WalletIdentity {
  id: string;
  /** `username@appId`. */
  fullUsername: string;
}

/** The authorizer's `context`, as API Gateway passes it on (all values are strings). */
export interface AuthorizerContext {
  principalType: PrincipalType;
  tenantId: string;
  keyId: string;
  permissions: string;
  [key: string]: string;
}

export function toAuthorizerContext(principal: Principal): AuthorizerContext {
  return {
    principalType: principal.type,
    tenantId: principal.tenantId,
    keyId: principal.keyId,
    permissions: [...principal.permissions].join(' '),
    ...(principal.keyLabel ? { keyLabel: principal.keyLabel } : {}),
    // Only wallet principals carry these two keys.
    ...(principal.wallet
      ? { walletId: principal.wallet.id, walletFullUsername: principal.wallet.fullUsername }
      : {}),
  };
}

/** Reads the principal the authorizer put on the event; 401 when there is none. */
export function principalFromEvent(event: APIGatewayProxyEvent): Principal {
  const context = event.requestContext?.authorizer as Partial<AuthorizerContext> | null | undefined;
  if (
    !context?.tenantId ||
    !context.keyId ||
    (context.principalType !== 'company' && context.principalType !== 'app')
  ) {
    throw new UnauthorizedError();
  }
  const granted = new Set((context.permissions ?? '').split(' '));
  const principal: Principal = {
    type: context.principalType,
    tenantId: context.tenantId,
    keyId: context.keyId,
    permissions: new Set(PERMISSIONS.filter((permission) => granted.has(permission))),
  };
  if (context.keyLabel) principal.keyLabel = context.keyLabel;
  const { walletId, walletFullUsername } = context;
  if (walletId && walletFullUsername) principal.wallet = { id: walletId, fullUsername: walletFullUsername };
  return principal;
}

/** How the ledger names the caller that caused an event: `apiKey:<keyId>` or `wallet:<fullUsername>`. */
export const actorOf = (principal: Principal): string =>
  principal.wallet ? `wallet:${principal.wallet.fullUsername}` : `apiKey:${principal.keyId}`;
