/**
 * A single-item write (PutItem, UpdateItem, DeleteItem) that meets a `TransactWriteItems` in
 * progress on the same item is refused with `TransactionConflictException`, which the SDK's
 * standard retry strategy does not retry. It is transient by nature (the transaction ends within
 * milliseconds), so it is marked retryable here and the SDK retries it with its usual backoff;
 * otherwise such a write (a wallet's call counter, a login attempt) would respond 500.
 * DynamoDB Local does not produce it; `test/unit/transaction-conflict-retry.test.ts` plays it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const TRANSACTION_CONFLICT = 'TransactionConflictException';

/**
 * Installs the marking middleware on a client (inside the retry middleware, around the
 * deserializer that turns the response into the error).
 *
 * @example
 * retryTransactionConflicts(new DynamoDBClient({}));
 */
export function retryTransactionConflicts(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (error instanceof Error && error.name === TRANSACTION_CONFLICT) {
          Object.assign(error, { $retryable: {} });
        }
        throw error;
      }
    },
    { step: 'deserialize', priority: 'high', name: 'retryTransactionConflicts' },
  );
}
