/**
 * The sequencer's state in DynamoDB: one item (`logStateKeys`) with the published tree size,
 * root and checkpoint, the lease that keeps to one sequencer at a time, and the batch being
 * integrated (`pending`, written before any tile so that a sequencer killed mid-batch is
 * followed by one that redoes exactly that batch). Every write after the lease is conditioned
 * on still holding it. Each integrated event also gets a position item (`logPositionKeys`:
 * its `logIndex`), read by the proof operation.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { batchGetItems } from './batch-get.js';
import {
  type Lease,
  LeaseLostError,
  type LogHead,
  type LogState,
  type OutboxEntry,
  type OutboxKey,
  type PendingBatch,
  type PublishedCheckpoint,
} from './ledger-store.js';
import { logPositionKeys, logStateKeys } from './table-keys.js';
import { writeInTransactions } from './transactions.js';

/** The partition of the sequencer's state item. */
export const SEQUENCER_STATE_PARTITION = logStateKeys.partition({});
const STATE_KEY = logStateKeys.key({});

/** A chain's log positions; `lib/ledger-log.ts` grants the sequencer `positionPartition('*')`. */
export const positionPartition = (chainId: string): string => logPositionKeys.partition({ chainId });

/**
 * The published head: `publishedCheckpoint` once one is. An item with a checkpoint but no
 * `publishedSize` at all was written before publication was split from integration (every
 * commit since sets it, to 0 while nothing is published): its signed head is published.
 */
function publishedOf(item: Record<string, unknown> | undefined): PublishedCheckpoint | undefined {
  if (item?.publishedCheckpoint) {
    return { treeSize: item.publishedSize as number, checkpoint: item.publishedCheckpoint as string };
  }
  if (item?.checkpoint && item.publishedSize === undefined) {
    return { treeSize: item.treeSize as number, checkpoint: item.checkpoint as string };
  }
  return undefined;
}

function toState(item: Record<string, unknown> | undefined): LogState {
  return {
    treeSize: (item?.treeSize as number | undefined) ?? 0,
    rootHash: item?.rootHash as string | undefined,
    checkpoint: item?.checkpoint as string | undefined,
    verifierKey: item?.verifierKey as string | undefined,
    published: publishedOf(item),
    witnessSizes: item?.witnessSizes
      ? (JSON.parse(item.witnessSizes as string) as Record<string, number>)
      : undefined,
    pending: item?.pending ? (JSON.parse(item.pending as string) as PendingBatch) : undefined,
    lastBatch: item?.lastBatch ? (JSON.parse(item.lastBatch as string) as OutboxKey[]) : undefined,
  };
}

/** The published state, as the API reads it. */
export async function readLogState(): Promise<LogState> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: STATE_KEY, ConsistentRead: true }),
  );
  return toState(Item);
}

/**
 * Takes or renews the lease for `owner` until now + `leaseMs`; returns the state, or undefined
 * when another sequencer holds an unexpired lease.
 */
export async function acquireLease(owner: string, leaseMs: number): Promise<LogState | undefined> {
  const now = Date.now();
  try {
    const { Attributes } = await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: STATE_KEY,
        UpdateExpression:
          'SET leaseOwner = :owner, leaseExpiresAt = :until, treeSize = if_not_exists(treeSize, :zero)',
        ConditionExpression:
          'attribute_not_exists(leaseExpiresAt) OR leaseExpiresAt < :now OR leaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner, ':until': now + leaseMs, ':now': now, ':zero': 0 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toState(Attributes);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** The lease as it stands (a consistent read). */
export async function readLease(): Promise<Lease> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: STATE_KEY,
      ConsistentRead: true,
      ProjectionExpression: 'leaseOwner, leaseExpiresAt',
    }),
  );
  return { owner: Item?.leaseOwner as string | undefined, expiresAt: (Item?.leaseExpiresAt as number) ?? 0 };
}

/**
 * Gives up `owner`'s lease, if it still holds it, so that another sequencer takes it at once.
 * Its expiry becomes 0, not "now": a sequencer whose clock runs a little behind must not still
 * see it held (see `lambdas/domain/ledger/sequencer-drain.ts`, which relies on it).
 */
export async function releaseLease(owner: string): Promise<void> {
  try {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: STATE_KEY,
        UpdateExpression: 'SET leaseExpiresAt = :released',
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner, ':released': 0 },
      }),
    );
  } catch (error) {
    // Another sequencer has taken it over meanwhile: nothing to give up.
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

async function updateHoldingLease(
  owner: string,
  update: string,
  values: Record<string, unknown>,
  extraCondition = '',
): Promise<void> {
  try {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: STATE_KEY,
        UpdateExpression: update,
        ConditionExpression: `leaseOwner = :owner${extraCondition}`,
        ExpressionAttributeValues: { ':owner': owner, ...values },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') {
      throw new LeaseLostError('The sequencer lease was taken over');
    }
    throw error;
  }
}

/** Records the batch about to be integrated at `fromSize` (only if the log is still at that size). */
export const writePendingBatch = (owner: string, batch: PendingBatch): Promise<void> =>
  updateHoldingLease(
    owner,
    'SET pending = :pending',
    { ':pending': JSON.stringify(batch), ':from': batch.fromSize },
    ' AND treeSize = :from AND attribute_not_exists(pending)',
  );

/**
 * Records the new integrated head and the published one after it (the head itself without a
 * witness policy; under one, the published head as read, which only publication moves). The
 * batch's outbox keys stay in `lastBatch` until deleted.
 */
export const commitCheckpoint = (
  owner: string,
  head: LogHead,
  lastBatch: OutboxKey[],
  published: PublishedCheckpoint | undefined,
): Promise<void> =>
  updateHoldingLease(
    owner,
    [
      'SET treeSize = :size, rootHash = :root, checkpoint = :checkpoint, verifierKey = :key',
      ', publishedSize = :publishedSize',
      published ? ', publishedCheckpoint = :published' : '',
      lastBatch.length > 0 ? ', lastBatch = :last' : '',
      published ? ' REMOVE pending' : ' REMOVE pending, publishedCheckpoint',
    ].join(''),
    {
      ':size': head.treeSize,
      ':root': head.rootHash,
      ':checkpoint': head.checkpoint,
      ':key': head.verifierKey,
      ':publishedSize': published?.treeSize ?? 0,
      ...(published ? { ':published': published.checkpoint } : {}),
      ...(lastBatch.length > 0 ? { ':last': JSON.stringify(lastBatch) } : {}),
    },
  );

/**
 * Records the size each witness holds after a round of requests, and publishes `published`
 * (a cosigned checkpoint) if given; a published size never goes back.
 */
export const recordWitnessing = (
  owner: string,
  witnessSizes: Record<string, number>,
  published: PublishedCheckpoint | undefined,
): Promise<void> =>
  updateHoldingLease(
    owner,
    published
      ? 'SET witnessSizes = :sizes, publishedSize = :size, publishedCheckpoint = :checkpoint'
      : 'SET witnessSizes = :sizes',
    {
      ':sizes': JSON.stringify(witnessSizes),
      ...(published ? { ':size': published.treeSize, ':checkpoint': published.checkpoint } : {}),
    },
    published ? ' AND (attribute_not_exists(publishedSize) OR publishedSize <= :size)' : '',
  );

/** Forgets the last batch once its outbox items are deleted. */
export const clearLastBatch = (owner: string): Promise<void> =>
  updateHoldingLease(owner, 'REMOVE lastBatch', {});

const positionKey = (chainId: string, sequence: number) =>
  logPositionKeys.key({ chainId, sequence: String(sequence).padStart(10, '0') });

/** Records where each event of a batch sits in the log (the same values when redone). */
export async function writePositions(entries: OutboxEntry[], fromSize: number): Promise<void> {
  await writeInTransactions(
    entries.map((entry, offset) => ({
      Put: {
        TableName: tableName(),
        Item: {
          ...positionKey(entry.chainId, entry.sequence),
          entity: logPositionKeys.entity,
          logIndex: fromSize + offset,
        },
      },
    })),
  );
}

/** The log index of an event, or undefined when it is not integrated yet. */
export async function findLogIndex(chainId: string, sequence: number): Promise<number | undefined> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: tableName(), Key: positionKey(chainId, sequence), ConsistentRead: true }),
  );
  return Item?.logIndex as number | undefined;
}

/** The log index of each event (undefined where not integrated yet), in BatchGetItem calls of 100. */
export async function findLogIndexes(
  events: readonly { chainId: string; sequence: number }[],
): Promise<(number | undefined)[]> {
  const items = await batchGetItems(events.map(({ chainId, sequence }) => positionKey(chainId, sequence)));
  return items.map((item) => item?.logIndex as number | undefined);
}

/** The log index of every integrated event of a chain, by sequence number. */
export async function chainLogIndexes(chainId: string): Promise<Map<number, number>> {
  const indexes = new Map<number, number>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': positionPartition(chainId) },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? [])
      indexes.set(
        Number((item.sk as string).slice(logPositionKeys.sortKeyPrefix().length)),
        item.logIndex as number,
      );
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return indexes;
}
