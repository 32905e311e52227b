/**
 * Who is calling: the identity the authorizer resolved from the API key (or a wallet's session
 * token, or a person's token from the company's identity provider), as the handlers see it.
 * API Gateway hands the authorizer's `context` to the integration with every value as a string,
 * so the permissions travel as one space-separated string.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError } from './errors.js';
import { PERMISSIONS, type Permission } from './permissions.js';
import { isRole, type Role } from './roles.js';

export { PERMISSIONS, type Permission };

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

/** The longest label a key may carry, in characters (the admin CLI's `--label`, `POST /v2/keys`). */
export const MAX_KEY_LABEL_LENGTH = 100;

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
  /** Set when a person calls with a token of the company's identity provider (`Authorization: Bearer <JWT>`). */
  person?: PersonIdentity;
  /**
   * Why every operation refuses this caller with 403 although its credential is valid (a
   * person's token whose roles claim maps to no role); the permissions are then empty.
   */
  refusal?: string;
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

/** The person behind a person principal; its company is the principal's `tenantId`. */
interface PersonIdentity {
  /** `user:<sub>@<issuer host>`, as events name the person. */
  principal: string;
  role: Role;
  /** The token's `name` or `email` claim: the default `performedBy` of the person's changes. */
  displayName?: string;
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
    ...(principal.person
      ? {
          personPrincipal: principal.person.principal,
          personRole: principal.person.role,
          ...(principal.person.displayName ? { personName: principal.person.displayName } : {}),
        }
      : {}),
    ...(principal.refusal ? { refusal: principal.refusal } : {}),
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
  const { personPrincipal, personRole, personName, refusal } = context;
  if (personPrincipal && personRole && isRole(personRole)) {
    principal.person = { principal: personPrincipal, role: personRole };
    if (personName) principal.person.displayName = personName;
  }
  if (refusal) principal.refusal = refusal;
  return principal;
}

/** The forms {@link actorOf} gives, as the API's schemas describe an event's `principal`. */
export const ACTOR_FORMATS = '`apiKey:<keyId>`, `wallet:<username@appId>` or `user:<sub>@<issuer host>`';

/** How the ledger names the caller that caused an event: one of {@link ACTOR_FORMATS}. */
export function actorOf(principal: Principal): string {
  if (principal.person) return principal.person.principal;
  return principal.wallet ? `wallet:${principal.wallet.fullUsername}` : `apiKey:${principal.keyId}`;
}

/** Our bound for an event's `performedBy` (the spec leaves it open): a request's, or a person's name. */
export const PERFORMED_BY_MAX = 200;

/** An event's `performedBy`: the one the request gives, else a person's name or email, else null. */
export const performedByOf = (principal: Principal, given: string | null | undefined): string | null =>
  given ?? principal.person?.displayName ?? null;
