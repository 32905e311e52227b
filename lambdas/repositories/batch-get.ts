/**
 * Items of the table by key, in BatchGetItem calls of 100 (DynamoDB's most), consistent reads;
 * keys DynamoDB leaves unprocessed are asked again.
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';

const BATCH_GET_MAX_KEYS = 100;

interface TableKey {
  pk: string;
  sk: string;
}

const keyText = (key: Record<string, unknown>) => `${String(key.pk)}\n${String(key.sk)}`;

/**
 * The item of each key, in the keys' order (undefined where there is none).
 *
 * @example
 * const [first, second] = await batchGetItems([keyOfFirst, keyOfSecond]);
 */
export async function batchGetItems(
  keys: readonly TableKey[],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((key) => [keyText({ ...key }), key])).values()];
  for (let start = 0; start < unique.length; start += BATCH_GET_MAX_KEYS) {
    let batch: Record<string, unknown>[] | undefined = unique
      .slice(start, start + BATCH_GET_MAX_KEYS)
      .map((key) => ({ pk: key.pk, sk: key.sk }));
    while (batch && batch.length > 0) {
      const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await dynamoDb.send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: batch, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[tableName()] ?? []) found.set(keyText(item), item);
      batch = UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return keys.map((key) => found.get(keyText({ ...key })));
}
