/**
 * Who is signed in: an API key, or a person's ID token from the company's identity provider,
 * and who that is (`GET /v2/me`). A key lives in memory, and in `sessionStorage` only when the
 * user asks to stay signed in for this tab; a person's token lives in memory only (a reload signs
 * the person in again). Neither ever goes in `localStorage`, a URL or a log line.
 */
import type { components } from '../../client/openapi-types';
import { ROLES } from '../../lambdas/shared/roles';

/** Who the caller is, as `GET /v2/me` answers: kind, company or App id, permissions, labels, the person. */
type Caller = components['schemas']['Caller'];
type Permission = Caller['permissions'][number];

/** What the console sends the API: a key, or a person's ID token and when it expires. */
export type Credential =
  | { kind: 'apiKey'; apiKey: string }
  | { kind: 'idToken'; idToken: string /** epoch milliseconds (the token's `exp`) */; expiresAt: number };

export interface Session {
  credential: Credential;
  /** The console serves a company (a company's key or a person) or an App's key (a wallet signs in with its password, not here). */
  kind: 'company' | 'app';
  me: Caller;
}

const STORAGE_KEY = 'asset-registry-console.session';

/** The key's session kept in this tab's `sessionStorage`, if any. */
export function restoreSession(): Session | undefined {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (!stored) return undefined;
  try {
    const session = JSON.parse(stored) as Session;
    // A session stored by an older console (no `credential`, or no `me`): sign in again.
    return session.credential?.kind === 'apiKey' &&
      typeof session.credential.apiKey === 'string' &&
      (session.kind === 'company' || session.kind === 'app') &&
      Array.isArray(session.me?.permissions)
      ? session
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a key's session for this tab (`remember`), or makes sure nothing of it is stored. A
 * person's token is never stored, whatever `remember` says.
 */
export function storeSession(session: Session | undefined, remember: boolean): void {
  if (session && remember && session.credential.kind === 'apiKey')
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** The header that carries the credential: the one place that puts it on a request. */
export function credentialHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'apiKey'
    ? { 'X-API-Key': credential.apiKey }
    : { Authorization: `Bearer ${credential.idToken}` };
}

/** The credential itself, to key what is cached per signed-in caller (never shown or stored). */
export const credentialSecret = (credential: Credential): string =>
  credential.kind === 'apiKey' ? credential.apiKey : credential.idToken;

/** Whether the signed-in caller has the permission: the console shows only what it may call. */
export const can = (session: Session, permission: Permission): boolean =>
  session.me.permissions.includes(permission);

/**
 * Whether the caller may read the audit trail (Verify, proofs, bundles, exports, imports'
 * reports: the operations marked `auditTrail`): a key always may; a person as their role says
 * (`ROLES` in lambdas/shared/roles.ts; a viewer may not).
 */
export const canReadAuditTrail = (session: Session): boolean =>
  session.me.person ? ROLES[session.me.person.role].auditTrail : true;

/**
 * How an event's principal reads: a key's label when its company labelled it, the signed-in
 * person's name for their own `user:<sub>@<host>` (the principal stays beside it, as the ledger
 * holds it), else the principal as it is.
 */
export function principalName(session: Session, principal: string): string {
  const person = session.me.person;
  if (person?.name && person.principal === principal) return `${person.name} (${principal})`;
  const keyId = /^apiKey:([0-9a-f]{24})$/.exec(principal)?.[1];
  const label = keyId && session.me.keyLabels.find((entry) => entry.keyId === keyId)?.label;
  return label ? `${label} (${principal})` : principal;
}
