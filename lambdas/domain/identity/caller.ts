/**
 * `GET /v2/me` (extension): who the caller is, told from its principal alone, so that a client
 * (the console) learns its company and what it may do without probing operations it may not call.
 */
import { PERMISSIONS, type Permission, type Principal } from '#shared/principal.js';
import type { Role } from '#shared/roles.js';

/**
 * What kind of caller: a company's key, an App's key, a wallet's session, or a person signed in
 * through the company's identity provider.
 */
export type CallerKind = 'company' | 'app' | 'wallet' | 'person';
export const CALLER_KINDS: readonly CallerKind[] = ['company', 'app', 'wallet', 'person'];

/** The person behind a `person` caller. */
interface CallerPerson {
  /** `user:<sub>@<issuer host>`, as events name the person. */
  principal: string;
  role: Role;
  /** The token's name or email; null when it has neither. */
  name: string | null;
}

/** The label of one of the tenant's keys. */
export interface KeyLabel {
  keyId: string;
  label: string;
}

export interface Caller {
  kind: CallerKind;
  /** The company id (a key's or a person's), the App id, or the wallet id. */
  id: string;
  /** A wallet's App; null for a key. */
  appId: string | null;
  /** The key's id (as events name it, `apiKey:<keyId>`); null for a wallet or a person. */
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
  /** Who signed in, with which role; null for a key or a wallet. */
  person: CallerPerson | null;
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
      person: null,
    };
  }
  if (principal.person) {
    const { principal: personPrincipal, role, displayName } = principal.person;
    return {
      kind: 'person',
      id: principal.tenantId,
      appId: null,
      keyId: null,
      label: null,
      permissions,
      keyLabels,
      person: { principal: personPrincipal, role, name: displayName ?? null },
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
    person: null,
  };
}
