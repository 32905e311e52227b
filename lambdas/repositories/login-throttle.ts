/**
 * Login throttling per wallet and source address: one item per (App, username, hashed address)
 * that counts the attempts made from that address on that username since the last success, and
 * holds the time before which that address may not try again. An address's failures never touch
 * another address's item, so no one can hold a wallet's logins shut for anyone else.
 * The item expires (DynamoDB TTL) some minutes after its last attempt; until DynamoDB removes it,
 * a record past its expiry reads as absent.
 *
 * The wallet's own login writes (the session, `loginCount`) are {@link recordLogin}.
 */
import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { loginThrottleKeys } from './table-keys.js';
import { type TransactItem, writeTransaction } from './transactions.js';
import { StaleWalletError, usernameKeyOf, type WalletRecord, walletKey } from './wallet-repository.js';

/** SHA-256 of a source address, hex: the item names the address without storing it. */
export const hashAddress = (sourceAddress: string): string =>
  createHash('sha256').update(sourceAddress, 'utf8').digest('hex');

const throttleKey = (appId: string, username: string, sourceAddress: string) =>
  loginThrottleKeys.key({
    appId,
    usernameKey: usernameKeyOf(username),
    addressHash: hashAddress(sourceAddress),
  });

/** Who tries: the App, the username named, and the address the attempt came from. */
export interface LoginSource {
  appId: string;
  username: string;
  sourceAddress: string;
}

export interface LoginThrottleRecord {
  /** Attempts since the last success (an attempt counts before its password is checked). */
  attempts: number;
  /** Epoch milliseconds before which this address may not try this username again. */
  blockedUntil?: number;
  /** Epoch milliseconds after which the record no longer counts. */
  expiresAt: number;
}

/** The address's record for the username, undefined when there is none or it expired at `now`. */
export async function findLoginThrottle(
  source: LoginSource,
  now: number,
): Promise<(LoginThrottleRecord & { storedAttempts: number }) | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: throttleKey(source.appId, source.username, source.sourceAddress),
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  const record = {
    attempts: Item.attempts as number,
    storedAttempts: Item.attempts as number,
    blockedUntil: Item.blockedUntil as number | undefined,
    expiresAt: Item.expiresAt as number,
  };
  // DynamoDB removes expired items within days, not at once: an expired one counts nothing.
  return record.expiresAt <= now ? { ...record, attempts: 0, blockedUntil: undefined } : record;
}

/**
 * Counts one attempt: writes `attempts` (and `blockedUntil` when given) if the stored count is
 * still `expectedStored` (undefined: no item) and no block holds at `now`, so that parallel
 * attempts are counted one by one. False when another attempt was counted first or a block holds.
 */
export async function countLoginAttempt(
  source: LoginSource,
  attempt: {
    expectedStored: number | undefined;
    attempts: number;
    blockedUntil?: number;
    now: number;
    expiresAt: number;
  },
): Promise<boolean> {
  const sets = ['attempts = :attempts', 'expiresAt = :expiresAt', '#ttl = :ttl'];
  if (attempt.blockedUntil !== undefined) sets.push('blockedUntil = :blockedUntil');
  // A wait that ran out (or belongs to an expired count) goes with the attempt that needs none.
  const removes = attempt.blockedUntil === undefined ? ' REMOVE blockedUntil' : '';
  return conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: throttleKey(source.appId, source.username, source.sourceAddress),
        UpdateExpression: `SET ${sets.join(', ')}${removes}`,
        ConditionExpression: `${
          attempt.expectedStored === undefined ? 'attribute_not_exists(pk)' : 'attempts = :expected'
        } AND (attribute_not_exists(blockedUntil) OR blockedUntil <= :now)`,
        ExpressionAttributeNames: { '#ttl': TIME_TO_LIVE_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':attempts': attempt.attempts,
          ':expiresAt': attempt.expiresAt,
          ':ttl': Math.ceil(attempt.expiresAt / 1000),
          ':now': attempt.now,
          ...(attempt.expectedStored === undefined ? {} : { ':expected': attempt.expectedStored }),
          ...(attempt.blockedUntil === undefined ? {} : { ':blockedUntil': attempt.blockedUntil }),
        },
      }),
    ),
  );
}

/**
 * Restarts the wait of the `attempts`-th attempt from its failure, so that a slow password check
 * does not eat into it: sets `blockedUntil` if no later attempt was counted meanwhile.
 */
export async function restartLoginWait(
  source: LoginSource,
  attempts: number,
  blockedUntil: number,
): Promise<void> {
  await conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: throttleKey(source.appId, source.username, source.sourceAddress),
        UpdateExpression: 'SET blockedUntil = :blockedUntil',
        ConditionExpression: 'attempts = :attempts',
        ExpressionAttributeValues: { ':blockedUntil': blockedUntil, ':attempts': attempts },
      }),
    ),
  );
}

/**
 * Forgets the address's attempts on the username (after a successful login): the count goes to
 * zero and the record expires at once. An update, not a delete: the login function may not
 * delete items, and the item's TTL removes it anyway.
 */
export async function clearLoginThrottle(source: LoginSource, now: number): Promise<void> {
  await conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: throttleKey(source.appId, source.username, source.sourceAddress),
        UpdateExpression: 'SET attempts = :zero, expiresAt = :now, #ttl = :ttl REMOVE blockedUntil',
        // Never creates a record for an address that had none.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#ttl': TIME_TO_LIVE_ATTRIBUTE },
        ExpressionAttributeValues: { ':zero': 0, ':now': now, ':ttl': Math.ceil(now / 1000) },
      }),
    ),
  );
}

/**
 * Records a successful login in one transaction with the `session` item given: `lastLoginAt`
 * and one login more on the wallet. Refused (false) when the wallet stopped being active or its
 * sessions were ended since it was read.
 */
export async function recordLogin(
  wallet: WalletRecord,
  loggedInAt: string,
  session: TransactItem,
): Promise<boolean> {
  try {
    await writeTransaction(
      [
        {
          Update: {
            TableName: tableName(),
            Key: walletKey(wallet.appId, wallet.id),
            UpdateExpression: 'SET lastLoginAt = :now ADD loginCount :one',
            ConditionExpression: '#status = :active AND sessionVersion = :sessionVersion',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':now': loggedInAt,
              ':one': 1,
              ':active': 'active',
              ':sessionVersion': wallet.sessionVersion,
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
