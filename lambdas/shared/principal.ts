/**
 * Who is calling: the identity the authorizer resolved from the API key, as the handlers see it.
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
];
/** Every permission an App key gets at creation. */
export const APP_PERMISSIONS: readonly Permission[] = ['wallets:read', 'wallets:write'];

export type PrincipalType = 'company' | 'app';

export interface Principal {
  type: PrincipalType;
  /** The company id or the App id: the tenant every read and write is scoped to. */
  tenantId: string;
  /** The API key's id (never the key itself), recorded as the actor of changes. */
  keyId: string;
  permissions: ReadonlySet<Permission>;
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
  return {
    type: context.principalType,
    tenantId: context.tenantId,
    keyId: context.keyId,
    permissions: new Set(PERMISSIONS.filter((permission) => granted.has(permission))),
  };
}

/** How the ledger names the caller that caused an event. */
export const actorOf = (principal: Principal): string => `apiKey:${principal.keyId}`;
