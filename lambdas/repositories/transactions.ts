/**
 * One `TransactWriteItems` with the two failure modes we must tell apart: a condition of ours
 * failed (a conflict the caller should hear about), or DynamoDB cancelled the transaction
 * because another one touched the same items at the same moment (retried here, a bounded
 * number of times, then refused with a 409).
 *
 * An item whose failed condition means something carries the error it means
 * ({@link ConditionedItem}), so that no caller counts item positions.
 */
import { type CancellationReason, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients.js';
import { concurrentModification, LOST_RACE_ATTEMPTS, pauseBeforeRetry } from '#shared/lost-race-retry.js';

/** One item of a `TransactWriteItems` call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The error a failed condition means. It receives the item's cancellation reason, which holds
 * the item as it was for items written with `ReturnValuesOnConditionCheckFailure: ALL_OLD`.
 */
export type ConditionError = (reason: CancellationReason) => Error | Promise<Error>;

/** A transaction item with the error its condition means when it fails. */
export interface ConditionedItem {
  item: TransactItem;
  onConditionFailed: ConditionError;
}

/** An item of {@link writeTransaction}: plain, or carrying its condition's error. */
export type TransactionEntry = TransactItem | ConditionedItem;

const isConditioned = (entry: TransactionEntry): entry is ConditionedItem => 'onConditionFailed' in entry;

/**
 * The item to send, without the error it carries: for a caller that responds to every failed
 * condition alike, or that writes the items some other way.
 */
export const plainItem = (entry: TransactionEntry): TransactItem =>
  isConditioned(entry) ? entry.item : entry;

/**
 * Runs the transaction. When conditions fail, throws the error carried by the first failed item
 * that carries one (so the order of the items is the order of precedence), else the one
 * `otherwise` gives (it receives every item's cancellation reason), else a plain `Error`: a
 * condition nobody explained is a bug.
 *
 * @example
 * await writeTransaction([
 *   { item: categoryPut, onConditionFailed: () => new StaleCategoryError() },
 *   { item: nameMarkerPut, onConditionFailed: () => nameExists(name) },
 *   counterUpdate,
 * ]);
 */
export async function writeTransaction(
  entries: readonly TransactionEntry[],
  otherwise?: (reasons: CancellationReason[]) => Error | Promise<Error>,
): Promise<void> {
  const items = entries.map(plainItem);
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamoDb.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
      if (reasons.some((_reason, index) => failed(index))) {
        const explained = entries.findIndex((entry, index) => failed(index) && isConditioned(entry));
        const carrier = entries[explained];
        if (carrier && isConditioned(carrier))
          throw await carrier.onConditionFailed(reasons[explained] ?? {});
        if (otherwise) throw await otherwise(reasons);
        throw new Error('A transaction condition failed that no item or caller explains');
      }
      if (attempt >= LOST_RACE_ATTEMPTS) throw concurrentModification('resource');
      await pauseBeforeRetry(attempt);
    }
  }
}

/** DynamoDB's most items in one `TransactWriteItems`. */
const MOST_TRANSACTION_ITEMS = 100;

/**
 * Writes items that carry no condition in transactions of 100, one after another: for writes
 * that are the same when redone, so that a part written before a failure does no harm. One call
 * for 100 items where `BatchWriteItem` takes four, and one turn in DynamoDB Local's line
 * (docs/ledger-sequencer.md#fair-across-companies says what that measured); each item costs
 * twice the write units of a batch write.
 */
export async function writeInTransactions(items: readonly TransactItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += MOST_TRANSACTION_ITEMS) {
    await writeTransaction(items.slice(start, start + MOST_TRANSACTION_ITEMS));
  }
}
