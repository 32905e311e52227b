/**
 * Webhook subscriptions and their deliveries in the single table, keyed as `table-keys.ts`
 * declares (`webhookKeys`, `deliveryKeys`): a company's subscriptions are one partition, read
 * whole by the publisher for every event of the company; a delivery is listed newest first
 * through gsi1 and, while dead-lettered (status `failed`), through gsi2.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import { readIndexWindow } from './index-query.js';
import { queryAllPages } from './query-pages.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { deliveryKeys, webhookKeys } from './table-keys.js';
import { type DeliveryRecord, deliveryEntity, type WebhookRecord, webhookEntity } from './webhook-entity.js';

export type { DeliveryRecord, WebhookRecord } from './webhook-entity.js';

/** A subscription changed since it was read (optimistic concurrency). */
export class StaleWebhookError extends Error {
  override name = 'StaleWebhookError';
}

/** Delivery records (with their attempts) delete themselves this long after the event. */
const DELIVERY_RETENTION_DAYS = 30;

/** At most this many attempts are kept per delivery (the latest); 24 h of backoff makes about 40. */
const KEPT_ATTEMPTS = 100;

const subscriptionKey = (companyId: string, webhookId: string) =>
  webhookKeys.key({ companyId, id: webhookId });
const deliveryKey = (companyId: string, webhookId: string, deliveryId: string) =>
  deliveryKeys.key({ companyId, webhookId, id: deliveryId });

const toWebhookRecord = (item: Record<string, unknown>) => webhookEntity.fromItem(item);

const webhookItem = (record: WebhookRecord) => ({
  ...subscriptionKey(record.companyId, record.id),
  ...webhookEntity.toItem(record),
});

export async function insertWebhook(record: WebhookRecord): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: webhookItem(record),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findWebhook(companyId: string, webhookId: string): Promise<WebhookRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: subscriptionKey(companyId, webhookId),
      ConsistentRead: true,
    }),
  );
  return Item ? toWebhookRecord(Item) : undefined;
}

/** Every subscription of a company, newest first. */
export async function listCompanyWebhooks(companyId: string): Promise<WebhookRecord[]> {
  const items = await queryAllPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': webhookKeys.partition({ companyId }) },
  });
  return items
    .map(toWebhookRecord)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
}

/** Writes `after` if the subscription is still at `before`'s version; else {@link StaleWebhookError}. */
export async function replaceWebhook(before: WebhookRecord, after: WebhookRecord): Promise<void> {
  const written = await conditionHeld(() =>
    dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: webhookItem(after),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': before.version },
      }),
    ),
  );
  if (!written) throw new StaleWebhookError();
}

export async function deleteWebhook(record: WebhookRecord): Promise<void> {
  const deleted = await conditionHeld(() =>
    dynamoDb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: subscriptionKey(record.companyId, record.id),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': record.version },
      }),
    ),
  );
  if (!deleted) throw new StaleWebhookError();
}

/** Marks an active subscription failing (the delivery function, after 24 h of failures). */
export async function markWebhookFailing(companyId: string, webhookId: string, at: string): Promise<void> {
  // Refused when disabled, deleted or already failing: nothing to mark.
  await conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: subscriptionKey(companyId, webhookId),
        UpdateExpression: 'SET #status = :failing, failingSince = :at, version = version + :one',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failing': 'failing', ':active': 'active', ':at': at, ':one': 1 },
      }),
    ),
  );
}

function deliveryItem(record: DeliveryRecord): Record<string, unknown> {
  // The sequence breaks ties within a millisecond, so an object's deliveries list (and replay) in order.
  const parts = { ...record, sequence: String(record.sequence).padStart(10, '0') };
  return {
    ...deliveryKey(record.companyId, record.webhookId, record.id),
    ...deliveryEntity.toItem(record),
    attempts: record.attempts.slice(-KEPT_ATTEMPTS),
    [TIME_TO_LIVE_ATTRIBUTE]:
      Math.floor(Date.parse(record.createdAt) / 1000) + DELIVERY_RETENTION_DAYS * 86_400,
    ...deliveryKeys.indexKeys(parts, record.status === 'failed' ? ['gsi1', 'gsi2'] : ['gsi1']),
  };
}

const toDeliveryRecord = (item: Record<string, unknown>) => deliveryEntity.fromItem(item);

/** Records a new delivery; false when it exists already (the event was seen before). */
export async function insertDelivery(record: DeliveryRecord): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: deliveryItem(record),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Writes a delivery's new state (one writer at a time: its queue lane). */
export async function saveDelivery(record: DeliveryRecord): Promise<void> {
  await dynamoDb.send(new PutCommand({ TableName: tableName(), Item: deliveryItem(record) }));
}

export async function findDelivery(
  companyId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: deliveryKey(companyId, webhookId, deliveryId),
      ConsistentRead: true,
    }),
  );
  return Item ? toDeliveryRecord(Item) : undefined;
}

async function countIndexPartition(indexName: 'gsi1' | 'gsi2', partitionKeyValue: string): Promise<number> {
  let total = 0;
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': `${indexName}pk` },
        ExpressionAttributeValues: { ':pk': partitionKeyValue },
        Select: 'COUNT',
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    total += page.Count ?? 0;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return total;
}

/** A window of a subscription's deliveries (or only its dead letters), newest first, with the total. */
export async function listDeliveries(
  companyId: string,
  webhookId: string,
  window: { offset: number; limit: number; deadLettersOnly?: boolean; oldestFirst?: boolean },
): Promise<{ records: DeliveryRecord[]; total: number }> {
  const indexName = window.deadLettersOnly ? 'gsi2' : 'gsi1';
  const partitionKeyValue = deliveryKeys.indexPartition(indexName, { companyId, webhookId });
  const [{ items }, total] = await Promise.all([
    readIndexWindow({
      indexName,
      partitionKeyValue,
      ascending: window.oldestFirst ?? false,
      offset: window.offset,
      limit: window.limit,
    }),
    countIndexPartition(indexName, partitionKeyValue),
  ]);
  return { records: items.map(toDeliveryRecord), total };
}
