/**
 * The signed-in key. It lives in memory, and in `sessionStorage` only when the user asks to
 * stay signed in for this tab; never in `localStorage`, a URL or a log line.
 */
type KeyKind = 'company' | 'app';

export interface Session {
  apiKey: string;
  kind: KeyKind;
  /** The company id, when the user gave it: the file routes name the company in their path. */
  companyId?: string;
}

const STORAGE_KEY = 'asset-registry-console.session';

/** The session kept in this tab's `sessionStorage`, if any. */
export function restoreSession(): Session | undefined {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (!stored) return undefined;
  try {
    const session = JSON.parse(stored) as Session;
    return typeof session.apiKey === 'string' && (session.kind === 'company' || session.kind === 'app')
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
