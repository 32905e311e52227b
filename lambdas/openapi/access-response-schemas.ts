/**
 * Response schemas of the operations that manage a company's access (an admin person's): the
 * key issued once, and the company's identity providers.
 */
import { API_KEY_PATTERN, KEY_ID_PATTERN } from '#domain/identity/api-key-format.js';
import { COMPANY_PERMISSIONS, MAX_KEY_LABEL_LENGTH } from '#shared/principal.js';
import { ROLE_NAMES } from '#shared/roles.js';
import type { JsonSchema } from '#shared/schema.js';
import { closed } from './schema-shapes.js';

const identityProvider = closed(
  {
    issuer: { type: 'string', description: "the `iss` of the provider's tokens" },
    audience: { type: 'string', description: 'the `aud` its tokens must carry' },
    rolesClaim: { type: 'string', description: 'the claim read for roles or groups' },
    roleMappings: {
      type: 'object',
      additionalProperties: { enum: [...ROLE_NAMES] },
      description: 'claim value → role; empty: the claim holds role names',
    },
    createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, milliseconds' },
  },
  "Extension: one of the company's OpenID Connect providers",
);

export const accessResponseSchemas = {
  ApiKeyCreated: closed(
    {
      keyId: { type: 'string', pattern: KEY_ID_PATTERN.source, description: 'names the key (not secret)' },
      apiKey: {
        type: 'string',
        pattern: API_KEY_PATTERN.source,
        description: 'the key, for `X-API-Key`: shown in this response only, never again',
      },
      label: {
        type: ['string', 'null'],
        maxLength: MAX_KEY_LABEL_LENGTH,
        description: 'who holds the key; null when it has none',
      },
      permissions: { type: 'array', items: { enum: [...COMPANY_PERMISSIONS] }, uniqueItems: true },
    },
    'Extension: the API key issued, shown once',
  ),
  IdentityProvider: identityProvider,
  IdentityProviderList: closed(
    {
      data: { type: 'array', items: { $ref: '#/components/schemas/IdentityProvider' } },
    },
    "Extension: the company's OpenID Connect providers, in issuer order (a company has few)",
  ),
} satisfies Record<string, JsonSchema>;

export type AccessResponseSchemaName = keyof typeof accessResponseSchemas;
