/**
 * The roles a person signed in through a company's identity provider may hold
 * (docs/people-sign-in.md), each mapped to the API-key permissions it grants: the one table
 * that says what a role may do. The permission matrix test and the console read it from here.
 */
import type { Permission } from './permissions.js';

export const ROLE_NAMES = ['viewer', 'auditor', 'editor', 'admin'] as const;
export type Role = (typeof ROLE_NAMES)[number];

interface RoleGrant {
  /** What the role is for, as the docs and `--help` say it. */
  description: string;
  permissions: readonly Permission[];
  /**
   * May read the audit trail: ledger proofs, bundles, exports and imports' reports (the rows
   * marked `auditTrail`). API keys always may, as the spec's permissions say.
   */
  auditTrail: boolean;
  /**
   * May manage the company's access: its API keys and identity providers (the rows marked
   * `accessManagement`). No API key may, whatever its permissions: a key does not mint keys.
   */
  managesAccess: boolean;
}

const READS: readonly Permission[] = ['objects:read', 'categories:read', 'files:read', 'webhooks:read'];
const WRITES: readonly Permission[] = ['objects:write', 'categories:write', 'files:write'];

/** Each role, in increasing order of what it may do (a person with several gets the last). */
export const ROLES: Readonly<Record<Role, RoleGrant>> = {
  viewer: {
    description: 'reads everything of the company',
    permissions: READS,
    auditTrail: false,
    managesAccess: false,
  },
  auditor: {
    description: "a viewer who also reads ledger proofs, bundles, exports and imports' reports; no writes",
    permissions: READS,
    auditTrail: true,
    managesAccess: false,
  },
  editor: {
    description: 'an auditor who also writes objects, categories, subcategories and files, and imports',
    permissions: [...READS, ...WRITES],
    auditTrail: true,
    managesAccess: false,
  },
  admin: {
    description: "an editor who also manages the company's webhooks, API keys and identity providers",
    permissions: [...READS, ...WRITES, 'webhooks:write'],
    auditTrail: true,
    managesAccess: true,
  },
};

export const isRole = (value: string): value is Role => (ROLE_NAMES as readonly string[]).includes(value);

/** The role that grants the most of those given; undefined for none. */
export function highestRole(roles: Iterable<Role>): Role | undefined {
  let highest: Role | undefined;
  for (const role of roles) {
    if (highest === undefined || ROLE_NAMES.indexOf(role) > ROLE_NAMES.indexOf(highest)) highest = role;
  }
  return highest;
}
