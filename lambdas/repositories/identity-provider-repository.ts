/**
 * Companies' OpenID Connect providers (`add-identity-provider`): one item per issuer, all in one
 * partition (`identityProviderKeys`). The conditional write is what makes an issuer belong to
 * exactly one company.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import type { Role } from '#shared/roles.js';
import { conditionHeld } from './conditional-write.js';
import { identityProviderKeys } from './table-keys.js';

export interface IdentityProviderRecord {
  /** The `iss` of its tokens, exactly as its discovery document states it. */
  issuer: string;
  companyId: string;
  /** The `aud` its tokens must carry (the client id of the console's app at the provider). */
  audience: string;
  /** The claim that holds the person's role names or groups (a string or an array of strings). */
  rolesClaim: string;
  /** A claim value → the role it grants; empty: the claim holds role names themselves. */
  roleMappings: Record<string, Role>;
  createdAt: string;
}

/** The partition of every provider item (the authorizer's IAM grant names it). */
export const IDENTITY_PROVIDER_PARTITION = identityProviderKeys.partition({});
/** DynamoDB's limit on a sort key, which holds the issuer: a longer one cannot be looked up. */
export const MAX_ISSUER_BYTES = 1024;
const providerKey = (issuer: string) => identityProviderKeys.key({ issuer });

const recordOf = (item: Record<string, unknown>): IdentityProviderRecord => ({
  issuer: item.issuer as string,
  companyId: item.companyId as string,
  audience: item.audience as string,
  rolesClaim: item.rolesClaim as string,
  roleMappings: (item.roleMappings as Record<string, Role> | undefined) ?? {},
  createdAt: item.createdAt as string,
});

/** Writes a provider; false when its issuer is registered already (for any company). */
export async function insertIdentityProvider(record: IdentityProviderRecord): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...providerKey(record.issuer), entity: identityProviderKeys.entity, ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

export async function findIdentityProvider(issuer: string): Promise<IdentityProviderRecord | undefined> {
  const { Item } = await dynamoDb.send(new GetCommand({ TableName: tableName(), Key: providerKey(issuer) }));
  return Item ? recordOf(Item) : undefined;
}

/** Every provider (of one company when given), in issuer order; providers are few. */
export async function listIdentityProviders(companyId?: string): Promise<IdentityProviderRecord[]> {
  const records: IdentityProviderRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': IDENTITY_PROVIDER_PARTITION },
        ExclusiveStartKey: startKey,
      }),
    );
    records.push(...(page.Items ?? []).map(recordOf));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return companyId === undefined ? records : records.filter((record) => record.companyId === companyId);
}

/** Removes a company's provider; false when that company has no provider of that issuer. */
export async function deleteIdentityProvider(issuer: string, companyId: string): Promise<boolean> {
  return conditionHeld(() =>
    dynamoDb.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: providerKey(issuer),
        ConditionExpression: 'companyId = :companyId',
        ExpressionAttributeValues: { ':companyId': companyId },
      }),
    ),
  );
}
