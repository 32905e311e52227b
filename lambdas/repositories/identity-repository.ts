/**
 * Companies, Apps and API key items. A key item is found by the key id embedded in the key
 * itself; it stores only the SHA-256 of the whole key, never the key.
 */

import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { Permission, PrincipalType } from '#shared/principal.js';
import { conditionHeld } from './conditional-write.js';
import { apiKeyKeys, keyLabelKeys, tenantKeys } from './table-keys.js';

export interface TenantRecord {
  id: string;
  type: PrincipalType;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  /** SHA-256 of the whole key, hex. */
  secretHash: string;
  principalType: PrincipalType;
  tenantId: string;
  permissions: Permission[];
  createdAt: string;
  /** Who holds the key (`create-key --label`); not secret. */
  label?: string;
  revokedAt?: string;
  /** The usage plan the key is on (`lib/api-gateway-settings.ts` USAGE_PLANS). */
  usagePlan?: string;
  /** In AWS: the value and id of the API Gateway API key that carries the key's usage plan. */
  usageIdentifierKey?: string;
  usageKeyId?: string;
}

const tenantKey = (type: PrincipalType, tenantId: string) =>
  tenantKeys.key({ tenantId, kind: type === 'company' ? 'COMPANY' : 'APP' });

/**
 * An API key item's partition. Key items are looked up before any tenant is known (the key
 * decides the tenant); the authorizer's IAM grant covers `apiKeyPartition('*')`.
 */
export const apiKeyPartition = (keyId: string): string => apiKeyKeys.partition({ keyId });
const apiKeyKey = (keyId: string) => apiKeyKeys.key({ keyId });

export async function insertTenant(tenant: TenantRecord): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...tenantKey(tenant.type, tenant.id), entity: tenant.type, ...tenant },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findTenant(type: PrincipalType, tenantId: string): Promise<TenantRecord | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: tenantKey(type, tenantId) }),
  );
  return Item ? { id: Item.id, type: Item.type, name: Item.name, createdAt: Item.createdAt } : undefined;
}

/** Writes a key item, and with a label the tenant's label item in the same transaction. */
export async function insertApiKey(record: ApiKeyRecord): Promise<void> {
  const keyItem = {
    TableName: tableName(),
    Item: { ...apiKeyKey(record.keyId), entity: apiKeyKeys.entity, ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  if (!record.label) {
    await dynamoDb.send(new PutCommand(keyItem));
    return;
  }
  const { keyId, tenantId, label } = record;
  await dynamoDb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: keyItem },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keyLabelKeys.key({ tenantId, keyId }), entity: keyLabelKeys.entity, keyId, label },
          },
        },
      ],
    }),
  );
}

/** A key's label, as the tenant's label list holds it. */
export interface KeyLabel {
  keyId: string;
  label: string;
}

/**
 * The labels of a tenant's keys, in key id order: one Query page (1 MB, some thousands of
 * labels); a tenant with more sees the first page only.
 */
export async function listKeyLabels(tenantId: string): Promise<KeyLabel[]> {
  const { Items = [] } = await dynamoDb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keyLabelKeys.partition({ tenantId }) },
      ProjectionExpression: '#keyId, #label',
      ExpressionAttributeNames: { '#keyId': 'keyId', '#label': 'label' },
    }),
  );
  return Items.map((item) => ({ keyId: item.keyId, label: item.label }));
}

export async function findApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(keyId) }));
  if (!Item) return undefined;
  return {
    keyId: Item.keyId,
    secretHash: Item.secretHash,
    principalType: Item.principalType,
    tenantId: Item.tenantId,
    permissions: Item.permissions,
    createdAt: Item.createdAt,
    label: Item.label,
    revokedAt: Item.revokedAt,
    usagePlan: Item.usagePlan,
    usageIdentifierKey: Item.usageIdentifierKey,
    usageKeyId: Item.usageKeyId,
  };
}

/** Marks a key revoked (the item stays, for audit). Returns false when there is no such key. */
export async function markApiKeyRevoked(keyId: string, revokedAt: string): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :revokedAt)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':revokedAt': revokedAt },
      }),
    ),
  );
}

/** Records the usage plan of a key (and, in AWS, the API Gateway key that carries it). */
export async function setApiKeyUsage(
  keyId: string,
  usage: { usagePlan: string; usageIdentifierKey?: string; usageKeyId?: string },
): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyKey(keyId),
        UpdateExpression: `SET ${Object.keys(usage)
          .map((name) => `#${name} = :${name}`)
          .join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(Object.keys(usage).map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(
          Object.entries(usage).map(([name, value]) => [`:${name}`, value]),
        ),
      }),
    ),
  );
}
