/**
 * `GET /v2/me` (extension): who the caller is, told from its principal alone, so that a client
 * (the console) learns its company and what it may do without probing operations it may not call.
 */
import { PERMISSIONS, type Permission, type Principal } from '#shared/principal.js';

/** What kind of caller: a company's key, an App's key, or a wallet's session. */
export type CallerKind = 'company' | 'app' | 'wallet';
export const CALLER_KINDS: readonly CallerKind[] = ['company', 'app', 'wallet'];

/** The label of one of the tenant's keys. */
export interface KeyLabel {
  keyId: string;
  label: string;
}

export interface Caller {
  kind: CallerKind;
  /** The company id, the App id, or the wallet id. */
  id: string;
  /** A wallet's App; null for a key. */
  appId: string | null;
  /** The key's id (as events name it, `apiKey:<keyId>`); null for a wallet. */
  keyId: string | null;
  /** The key's label (`create-key --label`); null when it has none, or for a wallet. */
  label: string | null;
  /** The caller's permissions, in the catalogue's order. */
  permissions: Permission[];
  /**
   * The labels of its tenant's keys (revoked ones too: their events still name them), so that a
   * client can name the key behind `apiKey:<keyId>`; empty for a wallet.
   */
  keyLabels: KeyLabel[];
}

/**
 * The caller of a request, with its tenant's key labels. A wallet's principal is its App's, with
 * the wallet beside it.
 *
 * @example
 * callerOf(principal, []); // { kind: 'company', id: companyId, appId: null, keyId, label: 'Auditor', permissions: ['objects:read'], keyLabels: [] }
 */
export function callerOf(principal: Principal, keyLabels: KeyLabel[]): Caller {
  const permissions = PERMISSIONS.filter((permission) => principal.permissions.has(permission));
  if (principal.wallet) {
    return {
      kind: 'wallet',
      id: principal.wallet.id,
      appId: principal.tenantId,
      keyId: null,
      label: null,
      permissions,
      keyLabels: [],
    };
  }
  return {
    kind: principal.type,
    id: principal.tenantId,
    appId: null,
    keyId: principal.keyId,
    label: principal.keyLabel ?? null,
    permissions,
    keyLabels,
  };
}
