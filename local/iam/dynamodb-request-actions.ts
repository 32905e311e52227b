/**
 * The authorizations DynamoDB makes of a request (AWS JSON 1.0, the operation in
 * `X-Amz-Target: DynamoDB_20120810.<Operation>`, DynamoDB Streams' in
 * `DynamoDBStreams_20120810.<Operation>`), as the Service Authorization Reference and the
 * DynamoDB developer guide describe them:
 * - an item operation is its own action on the table, with `dynamodb:LeadingKeys` the partition
 *   key values it touches;
 * - a Query or Scan with `IndexName` is authorized on `table/<t>/index/<i>`, and a Query's
 *   leading key is the value its key condition binds to that index's partition key;
 * - a batch needs the batch action on each table it names, with all its items' partition keys;
 * - a transaction needs each item's own action (Put → PutItem, Update → UpdateItem, Delete →
 *   DeleteItem, ConditionCheck → ConditionCheckItem, Get → GetItem);
 * - a stream read is authorized on the stream's ARN.
 */
import { TABLE_INDEXES, TABLE_PARTITION_KEY } from '../../lambdas/repositories/table-definition.js';
import {
  type AuthorizationRequest,
  type AwsAccount,
  type AwsHttpRequest,
  headerOf,
  jsonBodyOf,
} from './authorization-request.js';

/** The partition key attribute of a table and of each of its indexes. */
export interface TableKeySchema {
  partitionKey: string;
  indexPartitionKeys: Record<string, string>;
}

/** The project's single table (`lambdas/repositories/table-definition.ts`): `pk`, `gsi1pk`, …. */
export const PROJECT_TABLE_KEY_SCHEMA: TableKeySchema = {
  partitionKey: TABLE_PARTITION_KEY,
  indexPartitionKeys: Object.fromEntries(TABLE_INDEXES.map((index) => [index.indexName, index.partitionKey])),
};

export interface DynamoDbTranslation extends AwsAccount {
  /** The key schema of a table by name; the project's own for every table when not given. */
  keySchemaOf?: (tableName: string) => TableKeySchema;
  /**
   * The stream a `GetRecords` shard iterator reads (the iterator alone names it; the endpoint
   * remembers the iterators `GetShardIterator` and `GetRecords` returned).
   */
  streamArnOfIterator?: (shardIterator: string) => string | undefined;
}

type AttributeValue = { S?: string; N?: string; B?: string };
type Item = Record<string, AttributeValue>;

/** A key attribute's value as IAM compares it: the string, the number's text, the binary's base64. */
const keyText = (value: AttributeValue | undefined): string | undefined => value?.S ?? value?.N ?? value?.B;

const tableArnOf = (account: AwsAccount, table: string): string =>
  table.startsWith('arn:')
    ? table
    : `arn:${account.partition ?? 'aws'}:dynamodb:${account.region}:${account.accountId}:table/${table}`;

/** A table's name from its name or ARN (DynamoDB takes either). */
const tableNameOf = (table: string): string =>
  table.startsWith('arn:') ? table.replace(/^.*:table\//, '') : table;

/** The partition key values of items or keys, each once, in order. */
function leadingKeysOf(items: Array<Item | undefined>, partitionKey: string): string[] {
  const values = items.map((item) => keyText(item?.[partitionKey])).filter((value) => value !== undefined);
  return [...new Set(values)];
}

/**
 * The value a Query's key condition binds to the partition key: `#pk = :pk` (names and values
 * through the expression's maps), either way round, or the legacy `KeyConditions`.
 */
function queryLeadingKeys(body: Record<string, unknown>, partitionKey: string): string[] {
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, AttributeValue>;
  const expression = body.KeyConditionExpression as string | undefined;
  if (expression) {
    const nameOf = (token: string) => (token.startsWith('#') ? names[token] : token);
    const equality = /([#:]?[\w.]+)\s*=\s*([#:]?[\w.]+)/g;
    for (const [, left, right] of expression.matchAll(equality)) {
      const [attribute, placeholder] = left?.startsWith(':') ? [right, left] : [left, right];
      if (attribute && placeholder?.startsWith(':') && nameOf(attribute) === partitionKey) {
        const value = keyText(values[placeholder]);
        return value === undefined ? [] : [value];
      }
    }
    return [];
  }
  const conditions = (body.KeyConditions ?? {}) as Record<
    string,
    { ComparisonOperator?: string; AttributeValueList?: AttributeValue[] }
  >;
  const condition = conditions[partitionKey];
  const value =
    condition?.ComparisonOperator === 'EQ' ? keyText(condition.AttributeValueList?.[0]) : undefined;
  return value === undefined ? [] : [value];
}

/** The optional condition keys a request sets (`dynamodb:ReturnValues`, `dynamodb:Select`, …). */
function optionKeys(body: Record<string, unknown>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [member, key] of [
    ['ReturnValues', 'dynamodb:ReturnValues'],
    ['ReturnConsumedCapacity', 'dynamodb:ReturnConsumedCapacity'],
    ['Select', 'dynamodb:Select'],
  ] as const) {
    if (typeof body[member] === 'string') keys[key] = body[member];
  }
  return keys;
}

/** The operations on one item, with where its key is in the request. */
const ITEM_OPERATIONS: Record<string, 'Item' | 'Key'> = {
  GetItem: 'Key',
  PutItem: 'Item',
  UpdateItem: 'Key',
  DeleteItem: 'Key',
};

/** Each transaction item's action, by its member name. */
const TRANSACTION_ACTIONS: Record<string, { action: string; key: 'Item' | 'Key' }> = {
  Put: { action: 'PutItem', key: 'Item' },
  Update: { action: 'UpdateItem', key: 'Key' },
  Delete: { action: 'DeleteItem', key: 'Key' },
  ConditionCheck: { action: 'ConditionCheckItem', key: 'Key' },
  Get: { action: 'GetItem', key: 'Key' },
};

/**
 * The authorizations of one DynamoDB or DynamoDB Streams request.
 *
 * @example
 * dynamoDbAuthorizations(request, { region: 'eu-west-1', accountId: '123456789012' });
 * // [{ action: 'dynamodb:Query', resource: '…:table/t/index/gsi1', context: { 'dynamodb:LeadingKeys': ['T#1#OBJECTS'] } }]
 */
export function dynamoDbAuthorizations(
  request: AwsHttpRequest,
  translation: DynamoDbTranslation,
): AuthorizationRequest[] {
  const target = headerOf(request.headers, 'x-amz-target') ?? '';
  const [prefix, operation = ''] = target.split('.');
  const body = jsonBodyOf(request);
  if (prefix?.startsWith('DynamoDBStreams')) return streamAuthorizations(operation, body, translation);
  const schemaOf = translation.keySchemaOf ?? (() => PROJECT_TABLE_KEY_SCHEMA);
  const tableArn = (table: string) => tableArnOf(translation, table);
  const partitionKeyOf = (table: string) => schemaOf(tableNameOf(table)).partitionKey;
  const options = optionKeys(body);

  const itemKey = ITEM_OPERATIONS[operation];
  if (itemKey) {
    const table = String(body.TableName);
    const leadingKeys = leadingKeysOf([body[itemKey] as Item], partitionKeyOf(table));
    return [
      {
        action: `dynamodb:${operation}`,
        resource: tableArn(table),
        context: { 'dynamodb:LeadingKeys': leadingKeys, ...options },
      },
    ];
  }
  switch (operation) {
    case 'Query':
    case 'Scan': {
      const table = String(body.TableName);
      const indexName = body.IndexName as string | undefined;
      const schema = schemaOf(tableNameOf(table));
      const resource = indexName ? `${tableArn(table)}/index/${indexName}` : tableArn(table);
      if (operation === 'Scan') return [{ action: 'dynamodb:Scan', resource, context: options }];
      const partitionKey = indexName ? schema.indexPartitionKeys[indexName] : schema.partitionKey;
      if (indexName && !partitionKey)
        throw new Error(`Table ${table} has no index ${indexName} in its key schema`);
      return [
        {
          action: 'dynamodb:Query',
          resource,
          context: { 'dynamodb:LeadingKeys': queryLeadingKeys(body, partitionKey ?? ''), ...options },
        },
      ];
    }
    case 'BatchGetItem': {
      const requestItems = (body.RequestItems ?? {}) as Record<string, { Keys?: Item[] }>;
      return Object.entries(requestItems).map(([table, { Keys = [] }]) => ({
        action: 'dynamodb:BatchGetItem',
        resource: tableArn(table),
        context: { 'dynamodb:LeadingKeys': leadingKeysOf(Keys, partitionKeyOf(table)), ...options },
      }));
    }
    case 'BatchWriteItem': {
      const requestItems = (body.RequestItems ?? {}) as Record<
        string,
        Array<{ PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }>
      >;
      return Object.entries(requestItems).map(([table, writes]) => ({
        action: 'dynamodb:BatchWriteItem',
        resource: tableArn(table),
        context: {
          'dynamodb:LeadingKeys': leadingKeysOf(
            writes.map((write) => write.PutRequest?.Item ?? write.DeleteRequest?.Key),
            partitionKeyOf(table),
          ),
          ...options,
        },
      }));
    }
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const items = (body.TransactItems ?? []) as Array<Record<string, Record<string, unknown>>>;
      return items.flatMap((transactionItem) =>
        Object.entries(transactionItem).map(([member, item]) => {
          const known = TRANSACTION_ACTIONS[member];
          if (!known) throw new Error(`Unknown transaction item ${member}`);
          const table = String(item.TableName);
          return {
            action: `dynamodb:${known.action}`,
            resource: tableArn(table),
            context: {
              'dynamodb:LeadingKeys': leadingKeysOf([item[known.key] as Item], partitionKeyOf(table)),
              // As DynamoDB sets it for each item of a transaction (lib/ledger-protection.ts uses it).
              'dynamodb:EnclosingOperation': operation,
            },
          };
        }),
      );
    }
    case 'ListTables':
      return [{ action: 'dynamodb:ListTables', resource: '*', context: {} }];
    default: {
      // DescribeTable, DescribeTimeToLive, UpdateTimeToLive, CreateTable, …: the action on the table.
      const table = body.TableName as string | undefined;
      return [{ action: `dynamodb:${operation}`, resource: table ? tableArn(table) : '*', context: {} }];
    }
  }
}

/** DynamoDB Streams: DescribeStream, GetShardIterator, GetRecords on the stream; ListStreams on `*`. */
function streamAuthorizations(
  operation: string,
  body: Record<string, unknown>,
  translation: DynamoDbTranslation,
): AuthorizationRequest[] {
  if (operation === 'ListStreams') return [{ action: 'dynamodb:ListStreams', resource: '*', context: {} }];
  const streamArn =
    operation === 'GetRecords'
      ? translation.streamArnOfIterator?.(String(body.ShardIterator))
      : (body.StreamArn as string | undefined);
  if (!streamArn) throw new Error(`DynamoDB Streams ${operation}: cannot tell which stream it reads`);
  // DynamoDB Local names its streams in its own region and account (`ddblocal`, `000000000000`).
  const resource = streamArn.replace(
    /^arn:[^:]+:dynamodb:[^:]*:[^:]*:/,
    `arn:${translation.partition ?? 'aws'}:dynamodb:${translation.region}:${translation.accountId}:`,
  );
  return [{ action: `dynamodb:${operation}`, resource, context: {} }];
}
