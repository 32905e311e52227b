/**
 * Wallet items and everything keyed around them: the username marker that makes usernames
 * unique per App (ignoring case) and finds a wallet at login, the App's per-status wallet
 * counters, the four sorted index entries the list operation reads, and the login bookkeeping
 * (failed attempts, lock, statistics) kept on the wallet item itself.
 *
 * A deleted wallet keeps its item (status `deleted`) but loses its index entries and its
 * username marker: it is in no list, and its username may be taken again.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WalletListSort, WalletStatus } from '#domain/wallets/wallet-schemas.js';
import { dynamoDb, tableName } from '#shared/clients.js';
import { ConflictError } from '#shared/errors.js';
import type { ItemKey } from '#shared/page-cursor.js';
import type { Metadata } from '#shared/schema.js';
import { comparableName } from '#shared/text.js';
import { readStatusSortedList, statusSortedIndexAttributes } from './status-sorted-list.js';
import { adjustCountersItem } from './tenant-counters.js';
import { tenantPartition } from './tenant-keys.js';
import { type TransactItem, writeTransaction } from './transactions.js';
import { setAttributesItem } from './update-expression.js';

export type StoredWalletStatus = WalletStatus | 'deleted';

export interface WalletRecord {
  id: string;
  appId: string;
  /** As given at creation; compared ignoring case. */
  username: string;
  status: StoredWalletStatus;
  metadata: Metadata;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
  deletedAt?: string;
  /** `scrypt$N$r$p$salt$hash`; never leaves the domain layer. */
  passwordHash: string;
  /** Bumped by every change that ends the wallet's sessions; each session holds the value it began with. */
  sessionVersion: number;
  /** Bumped by every write of the wallet's own fields; the condition of the next write. */
  version: number;
  loginCount: number;
  apiCallCount: number;
  lastApiCallAt: string | null;
  /** Failed logins since the last successful one. */
  failedLoginCount: number;
  /** Logins are refused until then (ISO 8601), whatever the password. */
  lockedUntil?: string;
  /** Marks of the counted login attempts whose password is being checked now (see {@link reserveLoginAttempt}). */
  loginChecksInFlight?: string[];
}

/** The write lost a race with another write of the same wallet; read again and retry. */
export class StaleWalletError extends Error {}

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'];

/** The form usernames are compared in: NFC, lower case (as category names). */
export const usernameKeyOf = (username: string): string => comparableName(username);

/** The wallet item's key. Its partition reads `T#<appId>#WALLET#<walletId>` (the authorizer's IAM grant relies on it). */
export const walletKey = (appId: string, walletId: string) => ({
  pk: `${tenantPartition(appId)}#WALLET#${walletId}`,
  sk: 'WALLET',
});

const usernameMarkerKey = (appId: string, username: string) => ({
  pk: `${tenantPartition(appId)}#WALLET_USERNAME#${usernameKeyOf(username)}`,
  sk: 'MARKER',
});

const byStatusPartition = (appId: string, status: WalletStatus) =>
  `${tenantPartition(appId)}#WALLETS#${status}`;
const allPartition = (appId: string) => `${tenantPartition(appId)}#WALLETS`;

/** Counter attribute of the App's wallets in one status (deleted wallets are counted nowhere). */
const counterAttribute = (status: WalletStatus) => `walletCount_${status}`;

function indexAttributes(record: WalletRecord): Record<string, string> {
  if (record.status === 'deleted') return {};
  const createdKey = `${record.createdAt}#${record.id}`;
  // Usernames are unique per App among wallets in lists, so the key alone sorts without ties.
  const usernameKey = usernameKeyOf(record.username);
  return statusSortedIndexAttributes(
    { status: byStatusPartition(record.appId, record.status), all: allPartition(record.appId) },
    { createdKey, nameKey: usernameKey },
  );
}

function toItem(record: WalletRecord): Record<string, unknown> {
  // Login checks in flight are only ever added and deleted one by one, by the logins themselves.
  const { metadata, lockedUntil, deletedAt, loginChecksInFlight: _inFlight, ...plain } = record;
  return {
    ...walletKey(record.appId, record.id),
    entity: 'wallet',
    ...plain,
    ...(lockedUntil ? { lockedUntil } : {}),
    ...(deletedAt ? { deletedAt } : {}),
    usernameKey: usernameKeyOf(record.username),
    // Stored as JSON text: it round-trips any JSON exactly (numbers, empty keys, nesting).
    metadataJson: JSON.stringify(metadata),
    ...indexAttributes(record),
  };
}

function fromItem(item: Record<string, unknown>): WalletRecord {
  return {
    id: item.id as string,
    appId: item.appId as string,
    username: item.username as string,
    status: item.status as StoredWalletStatus,
    metadata: JSON.parse(item.metadataJson as string) as Metadata,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    lastLoginAt: (item.lastLoginAt as string | null | undefined) ?? null,
    deletedAt: item.deletedAt as string | undefined,
    passwordHash: item.passwordHash as string,
    sessionVersion: (item.sessionVersion as number | undefined) ?? 1,
    version: item.version as number,
    loginCount: (item.loginCount as number | undefined) ?? 0,
    apiCallCount: (item.apiCallCount as number | undefined) ?? 0,
    lastApiCallAt: (item.lastApiCallAt as string | null | undefined) ?? null,
    failedLoginCount: (item.failedLoginCount as number | undefined) ?? 0,
    lockedUntil: item.lockedUntil as string | undefined,
    loginChecksInFlight: item.loginChecksInFlight
      ? [...(item.loginChecksInFlight as Set<string>)]
      : undefined,
  };
}

const usernameExists = (username: string) =>
  new ConflictError('USERNAME_EXISTS', `A wallet named "${username}" already exists in this App`);

/** Writes a new wallet, its username marker and its counter in one transaction. */
export async function insertWallet(record: WalletRecord): Promise<void> {
  const table = tableName();
  await writeTransaction(
    [
      { Put: { TableName: table, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: table,
          Item: {
            ...usernameMarkerKey(record.appId, record.username),
            entity: 'walletUsernameMarker',
            walletId: record.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      adjustCountersItem(record.appId, { [counterAttribute(record.status as WalletStatus)]: 1 }),
    ],
    (failedIndex) => (failedIndex === 1 ? usernameExists(record.username) : new Error('Wallet id collision')),
  );
}

/** One wallet of the App, deleted ones included (the caller decides what they mean). */
export async function findWallet(appId: string, walletId: string): Promise<WalletRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: walletKey(appId, walletId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

/** The id of the App's wallet that holds this username now (deleted wallets hold none). */
export async function findWalletIdByUsername(appId: string, username: string): Promise<string | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: usernameMarkerKey(appId, username), ConsistentRead: true }),
  );
  return Item?.walletId as string | undefined;
}

/**
 * Replaces a wallet read earlier as `before` with `after` (status, password, metadata, session
 * version; a new password also resets the login throttle), moving the status counters and index entries with it. Only the
 * attributes named here are written: `loginCount`, `apiCallCount`, `lastLoginAt` and
 * `lastApiCallAt` are moved concurrently by logins and the authorizer, never from a read.
 * Throws {@link StaleWalletError} when another change came in between.
 */
export async function replaceWallet(before: WalletRecord, after: WalletRecord): Promise<void> {
  if (before.status === 'deleted' || after.status === 'deleted') throw new Error('Use markWalletDeleted');
  const table = tableName();
  // A new password resets the login throttle, whatever parallel logins counted meanwhile.
  const resetsThrottle = after.passwordHash !== before.passwordHash;
  const attributes = {
    status: after.status,
    metadataJson: JSON.stringify(after.metadata),
    updatedAt: after.updatedAt,
    passwordHash: after.passwordHash,
    sessionVersion: after.sessionVersion,
    version: after.version,
    // Logins count it concurrently: written only to reset it.
    ...(resetsThrottle ? { failedLoginCount: 0 } : {}),
    ...indexAttributes(after),
  };
  const update = setAttributesItem(table, walletKey(after.appId, after.id), attributes, {
    expression: '#version = :expectedVersion',
    names: { '#version': 'version' },
    values: { ':expectedVersion': before.version },
  });
  if (update.Update && resetsThrottle) {
    update.Update.UpdateExpression = `${update.Update.UpdateExpression} REMOVE lockedUntil`;
  }
  const items: TransactItem[] = [update];
  if (before.status !== after.status) {
    items.push(
      adjustCountersItem(after.appId, {
        [counterAttribute(before.status)]: -1,
        [counterAttribute(after.status)]: 1,
      }),
    );
  }
  await writeTransaction(items, () => new StaleWalletError());
}

/**
 * Marks a wallet deleted: status `deleted`, a new session version (its sessions end), no index
 * entries, no username marker, one wallet less in its status counter. Throws
 * {@link StaleWalletError} when another change came in between.
 */
export async function markWalletDeleted(before: WalletRecord, deletedAt: string): Promise<void> {
  if (before.status === 'deleted') throw new StaleWalletError();
  const table = tableName();
  await writeTransaction(
    [
      {
        Update: {
          TableName: table,
          Key: walletKey(before.appId, before.id),
          UpdateExpression: `SET #status = :deleted, deletedAt = :deletedAt, updatedAt = :deletedAt, #version = :nextVersion, sessionVersion = :nextSessionVersion REMOVE ${INDEX_ATTRIBUTES.join(', ')}`,
          ConditionExpression: '#version = :expectedVersion',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: {
            ':deleted': 'deleted',
            ':deletedAt': deletedAt,
            ':expectedVersion': before.version,
            ':nextVersion': before.version + 1,
            ':nextSessionVersion': before.sessionVersion + 1,
          },
        },
      },
      {
        Delete: {
          TableName: table,
          Key: usernameMarkerKey(before.appId, before.username),
          ConditionExpression: 'walletId = :walletId',
          ExpressionAttributeValues: { ':walletId': before.id },
        },
      },
      adjustCountersItem(before.appId, { [counterAttribute(before.status)]: -1 }),
    ],
    (failedIndex) =>
      failedIndex === 0 ? new StaleWalletError() : new Error('Username marker of another wallet'),
  );
}

export interface WalletListQuery {
  status: WalletStatus | 'all';
  usernameContains?: string;
  sort: WalletListSort;
  limit: number;
  offset: number;
  /** A cursor's position: read on after this item instead of skipping `offset` items. */
  startAfter?: ItemKey;
}

/** One page of an App's wallets (never deleted ones) and the exact number that match. */
export async function listWallets(
  appId: string,
  query: WalletListQuery,
): Promise<{ records: WalletRecord[]; total: number; lastKey?: ItemKey }> {
  const statuses: readonly WalletStatus[] =
    query.status === 'all' ? ['active', 'inactive', 'suspended'] : [query.status];
  const { items, total, lastKey } = await readStatusSortedList({
    tenantId: appId,
    partitionKeyValue: query.status === 'all' ? allPartition(appId) : byStatusPartition(appId, query.status),
    allStatuses: query.status === 'all',
    sortByName: query.sort.startsWith('username:'),
    ascending: query.sort.endsWith(':asc'),
    offset: query.offset,
    limit: query.limit,
    startAfter: query.startAfter,
    contains:
      query.usernameContains === undefined
        ? undefined
        : { attribute: 'usernameKey', needle: usernameKeyOf(query.usernameContains) },
    counterNames: statuses.map(counterAttribute),
  });
  return { records: items.map(fromItem), total, lastKey };
}

/**
 * Counts one login attempt of an active, unlocked wallet whose failed-attempt count is still
 * `expectedFailedCount` (so that parallel attempts are counted one by one), and sets the lock
 * in the same write when this attempt is the one that earns it. The attempt counts as failed
 * until {@link recordLogin} resets the count; `checkMark` stays in `loginChecksInFlight` until
 * {@link recordLogin} or {@link releaseLoginCheck} takes it out. False when the wallet does not
 * exist, is not active, is locked at `nowIso`, or another attempt was counted since it was read.
 */
export async function reserveLoginAttempt(
  appId: string,
  walletId: string,
  attempt: { expectedFailedCount: number; nowIso: string; lockedUntil?: string; checkMark: string },
): Promise<boolean> {
  try {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKey(appId, walletId),
        UpdateExpression: `SET failedLoginCount = :next${attempt.lockedUntil ? ', lockedUntil = :lockedUntil' : ''} ADD loginChecksInFlight :mark`,
        ConditionExpression:
          'attribute_exists(pk) AND #status = :active AND failedLoginCount = :expected AND ' +
          '(attribute_not_exists(lockedUntil) OR lockedUntil <= :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': attempt.expectedFailedCount + 1,
          ':expected': attempt.expectedFailedCount,
          ':active': 'active',
          ':now': attempt.nowIso,
          ':mark': new Set([attempt.checkMark]),
          ...(attempt.lockedUntil ? { ':lockedUntil': attempt.lockedUntil } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Records a successful login in one transaction with the `session` item given: `lastLoginAt`,
 * one login more, failed attempts and lock cleared, the attempt's `checkMark` out of
 * `loginChecksInFlight`. Refused (false) when the wallet stopped being active or its sessions
 * were ended since it was read.
 */
export async function recordLogin(
  wallet: WalletRecord,
  loggedInAt: string,
  session: TransactItem,
  checkMark: string,
): Promise<boolean> {
  try {
    await writeTransaction(
      [
        {
          Update: {
            TableName: tableName(),
            Key: walletKey(wallet.appId, wallet.id),
            UpdateExpression:
              'SET lastLoginAt = :now, failedLoginCount = :zero ADD loginCount :one REMOVE lockedUntil ' +
              'DELETE loginChecksInFlight :mark',
            ConditionExpression: '#status = :active AND sessionVersion = :sessionVersion',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':now': loggedInAt,
              ':zero': 0,
              ':one': 1,
              ':active': 'active',
              ':sessionVersion': wallet.sessionVersion,
              ':mark': new Set([checkMark]),
            },
          },
        },
        session,
      ],
      () => new StaleWalletError(),
    );
    return true;
  } catch (error) {
    if (error instanceof StaleWalletError) return false;
    throw error;
  }
}

/**
 * Takes the marks given out of the wallet's `loginChecksInFlight`: the attempt's own once its
 * password check failed, and any left behind by attempts that died. Does nothing when there is
 * no such wallet (it never creates one), so a refused attempt can make the same call.
 */
export async function releaseLoginCheck(
  appId: string,
  walletId: string,
  checkMarks: string[],
): Promise<void> {
  try {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKey(appId, walletId),
        UpdateExpression: 'DELETE loginChecksInFlight :marks',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':marks': new Set(checkMarks) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Counts one API call of a wallet session, if the session may still act: the wallet is active
 * and its session version is still `sessionVersion`. One conditional write both checks the
 * session and keeps `apiCallCount` exact.
 */
export async function recordApiCall(
  appId: string,
  walletId: string,
  sessionVersion: number,
  calledAt: string,
): Promise<boolean> {
  try {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKey(appId, walletId),
        UpdateExpression: 'SET lastApiCallAt = :now ADD apiCallCount :one',
        ConditionExpression:
          'attribute_exists(pk) AND #status = :active AND sessionVersion = :sessionVersion',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':now': calledAt,
          ':one': 1,
          ':active': 'active',
          ':sessionVersion': sessionVersion,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
