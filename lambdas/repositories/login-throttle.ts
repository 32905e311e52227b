/**
 * Login throttling on the wallet item: each attempt is counted before its password is checked
 * (so that parallel guesses are counted one by one), the attempt that earns the lock sets it in
 * the same write, and a successful login clears both in one transaction with its session.
 * The wallet's other reads and writes are `wallet-repository.ts`.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import { type TransactItem, writeTransaction } from './transactions.js';
import { StaleWalletError, type WalletRecord, walletKey } from './wallet-repository.js';

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
  return conditionHeld(() =>
    dynamoDb.send(
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
    ),
  );
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
  await conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: walletKey(appId, walletId),
        UpdateExpression: 'DELETE loginChecksInFlight :marks',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':marks': new Set(checkMarks) },
      }),
    ),
  );
}
