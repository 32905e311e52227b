/**
 * The usage key of an App's wallets: the API Gateway API key (AWS) whose usage plan counts the
 * calls of every session of the App's wallets, kept on the App's item. Wallet sessions have no
 * API key of their own; without this, every App's wallets would count on the stack's shared key.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { conditionHeld } from './conditional-write.js';
import { tenantKeys } from './table-keys.js';

const appKey = (appId: string) => tenantKeys.key({ tenantId: appId, kind: 'APP' });

export interface AppWalletUsage {
  /** The usage plan the App's wallets are on (`lib/api-gateway-settings.ts` USAGE_PLANS). */
  walletUsagePlan: string;
  /** In AWS: the value and id of the API Gateway API key that carries that plan. */
  walletUsageIdentifierKey?: string;
  walletUsageKeyId?: string;
}

/** The App's wallet usage, undefined when the App has none recorded (or does not exist). */
export async function findAppWalletUsage(appId: string): Promise<AppWalletUsage | undefined> {
  const { Item } = await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: appKey(appId) }));
  if (!Item?.walletUsagePlan) return undefined;
  return {
    walletUsagePlan: Item.walletUsagePlan,
    walletUsageIdentifierKey: Item.walletUsageIdentifierKey,
    walletUsageKeyId: Item.walletUsageKeyId,
  };
}

/** Records the App's wallet usage plan (and, in AWS, its API Gateway key). False: no such App. */
export async function setAppWalletUsage(appId: string, usage: AppWalletUsage): Promise<boolean> {
  const names = Object.keys(usage).filter((name) => usage[name as keyof AppWalletUsage] !== undefined);
  return conditionHeld(() =>
    dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: appKey(appId),
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(
          names.map((name) => [`:${name}`, usage[name as keyof AppWalletUsage]]),
        ),
      }),
    ),
  );
}
