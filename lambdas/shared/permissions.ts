/**
 * The permissions an API key may hold (spec, "API keys"): each names a kind of data and whether
 * the key reads or writes it. Roles (`roles.ts`) grant these too.
 */
export const PERMISSIONS = [
  'objects:read',
  'objects:write',
  'categories:read',
  'categories:write',
  'files:read',
  'files:write',
  'wallets:read',
  'wallets:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
