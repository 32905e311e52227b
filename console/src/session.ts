/**
 * The signed-in key and who it is (`GET /v2/me`). It lives in memory, and in `sessionStorage`
 * only when the user asks to stay signed in for this tab; never in `localStorage`, a URL or a
 * log line.
 */
import type { components } from '../../client/openapi-types';

/** Who the key is, as `GET /v2/me` answers: kind, company or App id, permissions, labels. */
type Caller = components['schemas']['Caller'];
type Permission = Caller['permissions'][number];

export interface Session {
  apiKey: string;
  /** The console serves a company's key or an App's (a wallet signs in with its password, not here). */
  kind: 'company' | 'app';
  me: Caller;
}

const STORAGE_KEY = 'asset-registry-console.session';

/** The session kept in this tab's `sessionStorage`, if any. */
export function restoreSession(): Session | undefined {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (!stored) return undefined;
  try {
    const session = JSON.parse(stored) as Session;
    // A session stored before sign-in asked `/v2/me` has no `me`: sign in again.
    return typeof session.apiKey === 'string' &&
      (session.kind === 'company' || session.kind === 'app') &&
      Array.isArray(session.me?.permissions)
      ? session
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the session for this tab (`remember`), or makes sure nothing of it is stored. */
export function storeSession(session: Session | undefined, remember: boolean): void {
  if (session && remember) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** Whether the signed-in key has the permission: the console shows only what it may call. */
export const can = (session: Session, permission: Permission): boolean =>
  session.me.permissions.includes(permission);

/**
 * How an event's principal reads: a key's label when its company labelled it (`apiKey:<id>`
 * stays beside it, as the ledger holds it), else the principal as it is.
 */
export function principalName(session: Session, principal: string): string {
  const keyId = /^apiKey:([0-9a-f]{24})$/.exec(principal)?.[1];
  const label = keyId && session.me.keyLabels.find((entry) => entry.keyId === keyId)?.label;
  return label ? `${label} (${principal})` : principal;
}
