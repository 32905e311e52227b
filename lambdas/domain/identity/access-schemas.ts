/**
 * Request shapes of the operations that manage a company's access (extension, documented in
 * docs/people-sign-in.md, "Managing keys and providers through the API"): its API keys and its
 * identity providers.
 */
import type { FieldIssue } from '#shared/errors.js';
import { COMPANY_PERMISSIONS, MAX_KEY_LABEL_LENGTH } from '#shared/principal.js';
import { ROLE_NAMES, type Role } from '#shared/roles.js';
import { arrayOf, object, oneOf, optional, required, type Schema, string } from '#shared/schema.js';
import { KEY_ID_PATTERN } from './api-key-format.js';

/** A role mapping: each claim value (a group's name) → the role it grants. */
function roleMappings(): Schema<Record<string, Role>> {
  return {
    read(input: unknown, field: string, issues: FieldIssue[]) {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        issues.push({ field, code: 'TYPE_INVALID', message: `${field} must be a JSON object` });
        return undefined;
      }
      const unknown = Object.entries(input).filter(
        ([, role]) => !(ROLE_NAMES as readonly unknown[]).includes(role),
      );
      if (unknown.length > 0) {
        issues.push({
          field,
          code: 'ENUM_INVALID',
          message: `${field} maps each claim value to one of: ${ROLE_NAMES.join(', ')}`,
        });
        return undefined;
      }
      return input as Record<string, Role>;
    },
    jsonSchema: { type: 'object', additionalProperties: { type: 'string', enum: [...ROLE_NAMES] } },
  };
}

export const createApiKeyBody = object({
  permissions: required(
    arrayOf(oneOf(COMPANY_PERMISSIONS)),
    "the key's permissions, among a company's (an empty list: a key without permissions)",
  ),
  label: optional(
    string({ max: MAX_KEY_LABEL_LENGTH }),
    'who holds the key (not secret): GET /v2/me answers it; blank: no label',
  ),
});

export const apiKeyIdPath = object({ keyId: required(string({ pattern: KEY_ID_PATTERN })) });

export const addIdentityProviderBody = object({
  // Its length in bytes is the domain's to check, with its trust (`registerIdentityProvider`).
  issuer: required(
    string({ min: 1 }),
    "the `iss` of the provider's tokens, as its discovery document states it: https (locally, also http on loopback)",
  ),
  audience: required(
    string({ min: 1 }),
    "the `aud` its tokens carry (the console's client id at the provider)",
  ),
  rolesClaim: optional(string({ min: 1 }), 'the claim that holds the roles or groups; default `roles`'),
  roleMappings: optional(roleMappings(), 'claim value → role; none: the claim holds role names'),
});

export const identityProviderQuery = object({
  issuer: required(string({ min: 1 }), 'the issuer of the provider to remove'),
});
