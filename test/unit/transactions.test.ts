/**
 * writeTransaction, offline: a failed condition is thrown as the error its item carries (the
 * first failed item that carries one wins), else the caller's, and items go out without it.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { plainItem, type TransactionEntry, writeTransaction } from '../../lambdas/repositories/transactions';
import { dynamoDb } from '../../lambdas/shared/clients';

jest.mock('../../lambdas/shared/clients', () => ({ dynamoDb: { send: jest.fn() } }));
const send = dynamoDb.send as jest.Mock;

const put = (name: string) => ({ Put: { TableName: 't', Item: { pk: name }, ConditionExpression: 'x' } });
/** DynamoDB's refusal, with one reason per item: `failed` ones failed their condition. */
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code, Item: { pk: { S: Code } } })),
  });

class FirstError extends Error {}
class SecondError extends Error {}

describe('writeTransaction', () => {
  beforeEach(() => send.mockReset());

  it('throws the error of the first failed item that carries one, given its cancellation reason', async () => {
    // Prepare
    send.mockRejectedValue(cancelled(['None', 'ConditionalCheckFailed', 'ConditionalCheckFailed']));
    const received: unknown[] = [];
    const entries: TransactionEntry[] = [
      { item: put('a'), onConditionFailed: () => new FirstError() },
      put('b'),
      {
        item: put('c'),
        onConditionFailed: (reason) => {
          received.push(reason);
          return new SecondError();
        },
      },
    ];
    // Act
    const outcome = writeTransaction(entries, () => new Error('otherwise'));
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(SecondError);
    expect(received).toEqual([
      { Code: 'ConditionalCheckFailed', Item: { pk: { S: 'ConditionalCheckFailed' } } },
    ]);
    expect(send.mock.calls[0]?.[0].input.TransactItems).toEqual([put('a'), put('b'), put('c')]);
  });

  it("returns a failed item that carries no error with the caller's, given every reason", async () => {
    // Prepare
    send.mockRejectedValue(cancelled(['ConditionalCheckFailed', 'None']));
    let reasonCount = 0;
    // Act
    const outcome = writeTransaction(
      [put('a'), { item: put('b'), onConditionFailed: () => new FirstError() }],
      (reasons) => {
        reasonCount = reasons.length;
        return new SecondError();
      },
    );
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(SecondError);
    expect(reasonCount).toBe(2);
  });

  it('throws a plain Error for a failed condition nobody explains', async () => {
    // Prepare
    send.mockRejectedValue(cancelled(['ConditionalCheckFailed']));
    // Act / Assess
    await expect(writeTransaction([put('a')])).rejects.toThrow('no item or caller explains');
  });

  it('retries a transaction cancelled by a parallel one, then writes', async () => {
    // Prepare
    send.mockRejectedValueOnce(cancelled(['TransactionConflict'])).mockResolvedValueOnce({});
    // Act
    await writeTransaction([{ item: put('a'), onConditionFailed: () => new FirstError() }]);
    // Assess
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('gives the plain item of an entry', () => {
    // Assess
    expect([put('a'), { item: put('b'), onConditionFailed: () => new FirstError() }].map(plainItem)).toEqual([
      put('a'),
      put('b'),
    ]);
  });
});
