/**
 * One `TransactWriteItems` with the two failure modes we must tell apart: a condition of ours
 * failed (a conflict the caller should hear about), or DynamoDB cancelled the transaction
 * because another one touched the same items at the same moment (retried here, a bounded
 * number of times, then answered as a 409).
 */
import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients.js';
import { concurrentModification, LOST_RACE_ATTEMPTS, pauseBeforeRetry } from '#shared/lost-race-retry.js';

/** One item of a `TransactWriteItems` call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Runs the transaction. `onConditionFailed` receives the index of the first item whose
 * condition failed, and every item's cancellation reason (with the item as it was, for items
 * written with `ReturnValuesOnConditionCheckFailure: ALL_OLD`), and returns the error to throw.
 */
export async function writeTransaction(
  items: TransactItem[],
  onConditionFailed: (itemIndex: number, reasons: CancellationReason[]) => Error | Promise<Error>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamoDb.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) throw await onConditionFailed(failedIndex, reasons);
      if (attempt >= LOST_RACE_ATTEMPTS) throw concurrentModification('resource');
      await pauseBeforeRetry(attempt);
    }
  }
}
