/**
 * Idempotency records: one item per tenant, operation and `Idempotency-Key`, in a partition of
 * the tenant (`idempotencyKeys`), removed by DynamoDB's TTL after they expire. A record
 * is claimed "in progress" by a conditional Put before the request runs, then holds the response
 * ("completed"), or is deleted when the request failed.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';

import { TIME_TO_LIVE_ATTRIBUTE } from './table-definition.js';
import { idempotencyKeys } from './table-keys.js';

/** The partition of a tenant's idempotency records; `lib/` grants `idempotencyPartition('*')`. */
export const idempotencyPartition = (tenantId: string): string => idempotencyKeys.partition({ tenantId });

/** Which record: the tenant, the operation and the client's key. */
export interface IdempotencyScope {
  tenantId: string;
  operationId: string;
  key: string;
}

/** A record another request holds. */
export type IdempotencyRecord =
  | { status: 'IN_PROGRESS'; fingerprint: string }
  | { status: 'COMPLETED'; fingerprint: string; response: string };

const recordKey = (scope: IdempotencyScope) => idempotencyKeys.key(scope);

/**
 * Claims the record for a request that is about to run: written when there is none, or the one
 * there has expired, or it was left in progress by a request past its deadline (a Lambda that
 * timed out). Otherwise the record that is there, read by the same call. The record is kept for
 * `keepSeconds`, and held "in progress" for `holdMs`.
 *
 * @example
 * const held = await claimIdempotencyRecord(scope, fingerprint, { keepSeconds: 86_400, holdMs: 29_000 });
 * if (held === undefined) { ... run the request ... }
 */
export async function claimIdempotencyRecord(
  scope: IdempotencyScope,
  fingerprint: string,
  periods: { keepSeconds: number; holdMs: number },
): Promise<IdempotencyRecord | undefined> {
  const now = Date.now();
  const nowSeconds = Math.floor(now / 1000);
  try {
    await dynamoDb.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...recordKey(scope),
          status: 'IN_PROGRESS',
          fingerprint,
          inProgressUntil: now + periods.holdMs,
          [TIME_TO_LIVE_ATTRIBUTE]: nowSeconds + periods.keepSeconds,
        },
        // DynamoDB removes expired items only within a day or two, so expiry is checked here too.
        ConditionExpression:
          'attribute_not_exists(pk) OR #expires < :nowSeconds OR (#status = :inProgress AND inProgressUntil < :nowMs)',
        ExpressionAttributeNames: { '#expires': TIME_TO_LIVE_ATTRIBUTE, '#status': 'status' },
        ExpressionAttributeValues: {
          ':nowSeconds': nowSeconds,
          ':nowMs': now,
          ':inProgress': 'IN_PROGRESS',
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    const held = unmarshall(error.Item);
    return held.status === 'COMPLETED'
      ? { status: 'COMPLETED', fingerprint: held.fingerprint, response: held.answer }
      : { status: 'IN_PROGRESS', fingerprint: held.fingerprint };
  }
}

/** Keeps the response of a request that ran, for the retries until the record expires. */
export async function completeIdempotencyRecord(scope: IdempotencyScope, response: string): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: recordKey(scope),
      // Stored as `answer`, the attribute's name in the items already written.
      UpdateExpression: 'SET #status = :completed, answer = :response REMOVE inProgressUntil',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':completed': 'COMPLETED', ':response': response },
    }),
  );
}

/** Forgets the claim of a request that failed, so that a retry runs again. */
export async function releaseIdempotencyRecord(scope: IdempotencyScope): Promise<void> {
  await dynamoDb.send(new DeleteCommand({ TableName: tableName(), Key: recordKey(scope) }));
}
