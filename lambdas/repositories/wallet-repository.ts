/**
 * Wallet items and everything keyed around them: the username marker that makes usernames
 * unique per App (ignoring case) and finds a wallet at login, the App's per-status wallet
 * counters, the four sorted index entries the list operation reads, and the call statistics
 * kept on the wallet item itself. Login throttling is `login-throttle.ts`: an item per username
 * and source address, never the wallet item.
 *
 * A deleted wallet keeps its item (status `deleted`) but loses its index entries and its
 * username marker: it is in no list, and its username may be taken again.
 */

import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WalletListSort } from '#domain/wallets/wallet-schemas.js';
import { dynamoDb, tableName } from '#shared/clients.js';
import { ConflictError } from '#shared/errors.js';
import type { ItemKey } from '#shared/page-cursor.js';
import { comparableName } from '#shared/text.js';
import { conditionHeld } from './conditional-write.js';
import { readStatusSortedList } from './status-sorted-list.js';
import { walletKeys, walletUsernameMarkerKeys } from './table-keys.js';
import { adjustCountersItem } from './tenant-counters.js';
import { type TransactItem, writeTransaction } from './transactions.js';
import { setAttributesItem } from './update-expression.js';
import { type WalletRecord, type WalletStatus, walletEntity } from './wallet-entity.js';

export type { WalletRecord } from './wallet-entity.js';

/** The write lost a race with another write of the same wallet; read again and retry. */
export class StaleWalletError extends Error {}

const INDEX_ATTRIBUTES = walletKeys.indexNames.flatMap((index) => [`${index}pk`, `${index}sk`]);

/** The form usernames are compared in: NFC, lower case (as category names). */
export const usernameKeyOf = (username: string): string => comparableName(username);

/** The wallet item's key. Its partition reads `T#<appId>#WALLET#<walletId>` (the authorizer's IAM grant relies on it). */
export const walletKey = (appId: string, walletId: string) => walletKeys.key({ appId, id: walletId });

const usernameMarkerKey = (appId: string, username: string) =>
  walletUsernameMarkerKeys.key({ appId, usernameKey: usernameKeyOf(username) });

/** Counter attribute of the App's wallets in one status (deleted wallets are counted nowhere). */
const counterAttribute = (status: WalletStatus) => `walletCount_${status}`;

function indexAttributes(record: WalletRecord): Record<string, string> {
  if (record.status === 'deleted') return {};
  return walletKeys.indexKeys({ ...record, usernameKey: usernameKeyOf(record.username) });
}

function toItem(record: WalletRecord): Record<string, unknown> {
  return {
    ...walletKey(record.appId, record.id),
    ...walletEntity.toItem(record),
    usernameKey: usernameKeyOf(record.username),
    ...indexAttributes(record),
  };
}

const fromItem = (item: Record<string, unknown>) => walletEntity.fromItem(item);

const usernameExists = (username: string) =>
  new ConflictError('USERNAME_EXISTS', `A wallet named "${username}" already exists in this App`);

/** Writes a new wallet, its username marker and its counter in one transaction. */
export async function insertWallet(record: WalletRecord): Promise<void> {
  const table = tableName();
  await writeTransaction([
    {
      item: {
        Put: { TableName: table, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' },
      },
      onConditionFailed: () => new Error('Wallet id collision'),
    },
    {
      item: {
        Put: {
          TableName: table,
          Item: {
            ...usernameMarkerKey(record.appId, record.username),
            entity: walletUsernameMarkerKeys.entity,
            walletId: record.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => usernameExists(record.username),
    },
    adjustCountersItem(record.appId, { [counterAttribute(record.status as WalletStatus)]: 1 }),
  ]);
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
 * version), moving the status counters and index entries with it. Only the attributes named
 * here are written: `loginCount`, `apiCallCount`, `lastLoginAt` and `lastApiCallAt` are moved
 * concurrently by logins and the authorizer, never from a read.
 * Throws {@link StaleWalletError} when another change came in between.
 */
export async function replaceWallet(before: WalletRecord, after: WalletRecord): Promise<void> {
  if (before.status === 'deleted' || after.status === 'deleted') throw new Error('Use markWalletDeleted');
  const table = tableName();
  const attributes = {
    status: after.status,
    metadataJson: JSON.stringify(after.metadata),
    updatedAt: after.updatedAt,
    passwordHash: after.passwordHash,
    sessionVersion: after.sessionVersion,
    version: after.version,
    ...indexAttributes(after),
  };
  const update = setAttributesItem(table, walletKey(after.appId, after.id), attributes, {
    expression: '#version = :expectedVersion',
    names: { '#version': 'version' },
    values: { ':expectedVersion': before.version },
  });
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
  await writeTransaction([
    {
      item: {
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
      onConditionFailed: () => new StaleWalletError(),
    },
    {
      item: {
        Delete: {
          TableName: table,
          Key: usernameMarkerKey(before.appId, before.username),
          ConditionExpression: 'walletId = :walletId',
          ExpressionAttributeValues: { ':walletId': before.id },
        },
      },
      onConditionFailed: () => new Error('Username marker of another wallet'),
    },
    adjustCountersItem(before.appId, { [counterAttribute(before.status)]: -1 }),
  ]);
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
    partitionKeyValue:
      query.status === 'all'
        ? walletKeys.indexPartition('gsi3', { appId })
        : walletKeys.indexPartition('gsi1', { appId, status: query.status }),
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
  return conditionHeld(() =>
    dynamoDb.send(
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
    ),
  );
}
