/**
 * Request shapes of the wallet operations (spec 4.11-4.15, 2.5, limits in section 8) and of the
 * wallet login (not shown in the spec; documented in docs/api-decisions.md).
 */
import { USERNAME_MAX_LENGTH, WALLET_STATUSES, walletEntity } from '#repositories/wallet-entity.js';
import { pageQueryFields } from '#shared/pagination.js';
import {
  defaulted,
  metadata,
  object,
  oneOf,
  optional,
  required,
  type Schema,
  string,
} from '#shared/schema.js';

const WALLET_LIST_SORTS = ['createdAt:desc', 'createdAt:asc', 'username:asc', 'username:desc'] as const;
export type WalletListSort = (typeof WALLET_LIST_SORTS)[number];

const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work a single request can ask of the password hash. */
const PASSWORD_MAX_LENGTH = 1024;

/**
 * A username, as the wallet entity declares it: 3-50 characters (`LENGTH_INVALID`), then the
 * allowed characters (`FORMAT_INVALID`). Login reads the name part of `username@appId` with it too.
 */
export const walletUsername = (): Schema<string> => walletEntity.attributes.username.schema;

const password = string({ min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });

export const walletIdPath = object({
  // Spec 2.5 types a wallet id as a string (not a UUID, unlike the other ids in paths): an id
  // that is not one of ours is simply not found (404 RESOURCE_NOT_FOUND), never a 400.
  walletId: required(string(), 'the wallet id (a UUID; any other text is 404 RESOURCE_NOT_FOUND)'),
});

export const listWalletsQuery = object({
  ...pageQueryFields(),
  status: defaulted(oneOf([...WALLET_STATUSES, 'all'] as const), 'active', 'status filter'),
  username: optional(string({ max: USERNAME_MAX_LENGTH }), 'case-insensitive partial match on the username'),
  sort: defaulted(oneOf(WALLET_LIST_SORTS), 'createdAt:desc'),
});

export const createWalletBody = object({
  username: required(walletUsername(), 'unique within the App, ignoring case; without the App id'),
  password: required(password, 'write-only; stored only as a scrypt hash'),
  metadata: optional(metadata()),
});

export const updateWalletBody = object({
  password: optional(password, 'effective at once; ends every session of the wallet'),
  status: optional(
    oneOf(WALLET_STATUSES),
    'inactive and suspended end every session of the wallet and refuse its logins',
  ),
  metadata: optional(metadata(), 'replaces the stored metadata'),
});

export const walletLoginBody = object({
  // Only bounded (and Unicode text) here: any other mistake is a failed login (401), never a hint.
  username: required(string({ max: 200 }), 'the full username, `username@appId`'),
  password: required(string({ max: PASSWORD_MAX_LENGTH })),
});
