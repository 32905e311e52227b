/**
 * The witness store in AWS: one DynamoDB item per origin, written with a conditional PutItem,
 * so that the check of the old checkpoint and the write of the new one are one atomic step
 * across every concurrent Lambda instance. A PutItem that returned is durable.
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { CosignedCheckpoint, WitnessStore } from './witness-store.js';

/** The table's partition key (a string): the log's origin. The stack declares the table with it. */
export const WITNESS_TABLE_PARTITION_KEY = 'origin';

function checkpointOf(item: Record<string, AttributeValue> | undefined): CosignedCheckpoint | undefined {
  if (!item?.treeSize?.N || !item.rootHash?.B || item.note?.S === undefined) return undefined;
  return { treeSize: Number(item.treeSize.N), rootHash: item.rootHash.B, note: item.note.S };
}

/**
 * A witness store on a DynamoDB table whose partition key is {@link WITNESS_TABLE_PARTITION_KEY}.
 *
 * @example
 * const store = dynamoDbWitnessStore(process.env.WITNESS_TABLE_NAME!);
 */
export function dynamoDbWitnessStore(tableName: string, client = new DynamoDBClient({})): WitnessStore {
  const key = (origin: string) => ({ [WITNESS_TABLE_PARTITION_KEY]: { S: origin } });
  const read = async (origin: string) => {
    const { Item } = await client.send(
      new GetItemCommand({ TableName: tableName, Key: key(origin), ConsistentRead: true }),
    );
    return checkpointOf(Item);
  };
  return {
    read,
    async compareAndSet(origin, expected, next) {
      const condition = expected
        ? {
            ConditionExpression: 'treeSize = :size AND rootHash = :root',
            ExpressionAttributeValues: {
              ':size': { N: String(expected.treeSize) },
              ':root': { B: expected.rootHash },
            },
          }
        : {
            ConditionExpression: 'attribute_not_exists(#origin)',
            ExpressionAttributeNames: { '#origin': WITNESS_TABLE_PARTITION_KEY },
          };
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: {
              ...key(origin),
              treeSize: { N: String(next.treeSize) },
              rootHash: { B: next.rootHash },
              note: { S: next.note },
            },
            ...condition,
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { stored: true };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        return { stored: false, current: error.Item ? checkpointOf(error.Item) : await read(origin) };
      }
    },
  };
}
