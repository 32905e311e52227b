/**
 * The wallet entity (spec 2.5): its attributes, written once, and their item codec. Its keys and
 * indexes: `walletKeys` in `table-keys.ts`.
 */
import { attribute, defineEntity, type RecordOf } from '#shared/entity.js';
import type { FieldIssue } from '#shared/errors.js';
import { NAME_FORBIDDEN_CHARACTERS, nameText } from '#shared/name-text.js';
import { dateTime, integer, metadata, nullable, oneOf, type Schema, string } from '#shared/schema.js';

/** The statuses a caller sets and sees; a deleted wallet keeps its item with status `deleted`. */
export const WALLET_STATUSES = ['active', 'inactive', 'suspended'] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];
export type StoredWalletStatus = WalletStatus | 'deleted';

const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 50;
/**
 * Any name (`#shared/name-text.js`) without `@`, which separates the username from the App id
 * in `username@appId`. The spec bounds usernames by length only (3-50 characters, counted as
 * code points); uniqueness compares the NFC, lower-cased form.
 */
const USERNAME_PATTERN = /^[^@]+$/;

/**
 * A username: 3-50 characters (`LENGTH_INVALID`), then the allowed characters (`FORMAT_INVALID`).
 * Login reads the name part of `username@appId` with it too, so every wallet made can log in.
 */
function walletUsername(): Schema<string> {
  const name = nameText(string({ min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH }));
  return {
    read(input: unknown, field: string, issues: FieldIssue[]) {
      const value = name.read(input, field, issues);
      if (value === undefined) return undefined;
      if (!USERNAME_PATTERN.test(value)) {
        issues.push({ field, code: 'FORMAT_INVALID', message: `${field} may not contain "@"` });
        return undefined;
      }
      return value;
    },
    jsonSchema: { ...name.jsonSchema, pattern: `^[^@${NAME_FORBIDDEN_CHARACTERS}]+$` },
  };
}

const uuid = () => string({ format: 'uuid' });

export const walletEntity = defineEntity('wallet', {
  id: attribute(uuid()),
  /** As given at creation; compared ignoring case. */
  username: attribute(walletUsername(), { description: '3-50 characters, without the App id' }),
  appId: attribute(uuid()),
  status: attribute(oneOf<StoredWalletStatus>([...WALLET_STATUSES, 'deleted'])),
  metadata: attribute(metadata(), { storedAs: 'json', description: 'free key-value pairs, as stored' }),
  createdAt: attribute(dateTime()),
  updatedAt: attribute(dateTime()),
  lastLoginAt: attribute(nullable(dateTime()), { missing: null, description: 'null until the first login' }),
  // The call statistics: logins and the authorizer move them on the item itself (older items lack them).
  loginCount: attribute(integer({ min: 0 }), { missing: 0 }),
  apiCallCount: attribute(integer({ min: 0 }), {
    missing: 0,
    description: 'calls made with the wallet session token',
  }),
  lastApiCallAt: attribute(nullable(dateTime()), { missing: null }),
  deletedAt: attribute(dateTime(), { hidden: true, optional: true }),
  /** `scrypt$N$r$p$salt$hash`; never leaves the domain layer. */
  passwordHash: attribute(string(), { hidden: true }),
  /** Bumped by every change that ends the wallet's sessions; each session holds the value it began with. */
  sessionVersion: attribute(integer({ min: 1 }), { hidden: true, missing: 1 }),
  /** Bumped by every write of the wallet's own fields; the condition of the next write. */
  version: attribute(integer({ min: 1 }), { hidden: true }),
});

export type WalletRecord = RecordOf<typeof walletEntity>;
