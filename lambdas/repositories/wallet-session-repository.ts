/**
 * Wallet session items. A session is found by the SHA-256 of its token, before any tenant is
 * known (the token decides the App), as API key items are; it stores only that hash, never the
 * token. Sessions are never changed: a session ends when it expires or when its wallet's
 * session version moves on (see `wallet-repository.ts`). The `ttl` attribute (epoch seconds)
 * lets DynamoDB's time to live remove expired ones.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { walletSessionKeys } from './table-keys.js';
import type { TransactItem } from './transactions.js';

export interface WalletSessionRecord {
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  appId: string;
  walletId: string;
  /** `username@appId`, recorded as the actor of what the session does. */
  fullUsername: string;
  /** The wallet's session version when the session began; any later value ends the session. */
  sessionVersion: number;
  createdAt: string;
  expiresAt: string;
  /**
   * The App's own API Gateway usage key when the session began (AWS: see
   * `app-usage-repository.ts`); absent, the session counts on the stack's shared key.
   */
  usageIdentifierKey?: string;
}

/** The name of the table's time-to-live attribute (epoch seconds). */

/** A session item's partition; the authorizer's IAM grant covers `sessionPartition('*')`. */
export const sessionPartition = (tokenHash: string): string => walletSessionKeys.partition({ tokenHash });
const sessionKey = (tokenHash: string) => walletSessionKeys.key({ tokenHash });

/** Transaction item that writes a new session (its login's transaction writes the wallet too). */
export function insertSessionItem(session: WalletSessionRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...sessionKey(session.tokenHash),
        entity: walletSessionKeys.entity,
        ...session,
        [TIME_TO_LIVE_ATTRIBUTE]: Math.ceil(Date.parse(session.expiresAt) / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function findSession(tokenHash: string): Promise<WalletSessionRecord | undefined> {
  // Strongly consistent: a wallet may call the API the moment its login returned.
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: sessionKey(tokenHash), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    tokenHash: Item.tokenHash,
    appId: Item.appId,
    walletId: Item.walletId,
    fullUsername: Item.fullUsername,
    sessionVersion: Item.sessionVersion,
    createdAt: Item.createdAt,
    expiresAt: Item.expiresAt,
    usageIdentifierKey: Item.usageIdentifierKey,
  };
}
