/**
 * `TransactionConflictException` on a single-item write is retried by the SDK once marked; the
 * real SDK stack runs, with a request handler that plays DynamoDB's responses. Offline.
 */
import { Readable } from 'node:stream';
import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { retryTransactionConflicts } from '../../lambdas/shared/transaction-conflict-retry';

/** An HTTP response of DynamoDB's JSON protocol. */
const response = (statusCode: number, body: object) => ({
  response: {
    statusCode,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'test' },
    body: Readable.from([Buffer.from(JSON.stringify(body))]),
  },
});

const conflict = () =>
  response(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
    message: 'Transaction is ongoing for the item',
  });
const conditionFailed = () =>
  response(400, {
    __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
    message: 'The conditional request failed',
  });
const success = () => response(200, { Attributes: { pk: { S: 'a' } } });

/** A client whose requests get `responses` in turn; `calls()` counts the requests sent. */
function clientResponding(responses: Array<() => ReturnType<typeof response>>, marked: boolean) {
  let calls = 0;
  const client = new DynamoDBClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 3,
    requestHandler: {
      handle: async () => {
        const next = responses[Math.min(calls, responses.length - 1)] as () => ReturnType<typeof response>;
        calls++;
        return next();
      },
    },
  });
  if (marked) retryTransactionConflicts(client);
  return { client, calls: () => calls };
}

const update = () =>
  new UpdateItemCommand({
    TableName: 't',
    Key: { pk: { S: 'a' } },
    UpdateExpression: 'SET n = :n',
    ExpressionAttributeValues: { ':n': { N: '1' } },
  });

describe('retryTransactionConflicts', () => {
  it('retries a write refused by a transaction in progress until it goes through', async () => {
    // Prepare
    const { client, calls } = clientResponding([conflict, conflict, success], true);
    // Act
    const output = await client.send(update());
    // Assess
    expect(output.Attributes).toEqual({ pk: { S: 'a' } });
    expect(calls()).toBe(3);
    expect(output.$metadata.attempts).toBe(3);
  });

  it('without it, the SDK gives up at once (why it exists)', async () => {
    // Prepare
    const { client, calls } = clientResponding([conflict, success], false);
    // Act
    const outcome = client.send(update());
    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'TransactionConflictException' });
    expect(calls()).toBe(1);
  });

  it('leaves other refusals alone: a failed condition is not retried', async () => {
    // Prepare
    const { client, calls } = clientResponding([conditionFailed, success], true);
    // Act
    const outcome = client.send(update());
    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(calls()).toBe(1);
  });

  it('gives up after the client’s attempts when the conflict lasts', async () => {
    // Prepare
    const { client, calls } = clientResponding([conflict], true);
    // Act
    const outcome = client.send(update());
    // Assess
    await expect(outcome).rejects.toMatchObject({ name: 'TransactionConflictException' });
    expect(calls()).toBe(3);
  });
});
