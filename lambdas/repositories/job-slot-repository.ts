/**
 * The per-company cap on running background jobs: one item per company (`jobSlotsKeys`) holds,
 * per kind of job, the string set of the ids of its running jobs. A job takes its slot in the
 * transaction that makes it `running` (the condition `size(set) < cap` refuses it past the cap,
 * however many requests race), and gives it back in the write that makes it `completed` or
 * `failed`. A set rather than a number: giving a slot back twice is harmless, and a reader can
 * tell which jobs hold the slots (`heldJobSlots`), so a slot whose job ended without giving it
 * back can be found and freed.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb, tableName } from '#shared/clients.js';
import { jobSlotsKeys } from './table-keys.js';
import type { ConditionError, ConditionedItem, TransactItem } from './transactions.js';

/** The kinds of job that the cap counts apart (each has its own slots). */
const JOB_KINDS = ['imports', 'exports'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Running jobs of one kind a company may have at once (`docs/tenant-fairness.md`). */
export const JOB_SLOTS_PER_KIND = 3;

const slotsKey = (companyId: string) => jobSlotsKeys.key({ tenantId: companyId });

/**
 * Transaction item that takes a slot of `kind` for the job, refused (`onFull`) when the company
 * holds {@link JOB_SLOTS_PER_KIND} already. Taking a slot the job holds already is a no-op.
 */
export function takeJobSlotItem(
  companyId: string,
  kind: JobKind,
  jobId: string,
  onFull: ConditionError,
): ConditionedItem {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: slotsKey(companyId),
        UpdateExpression: 'ADD #running :job SET entity = :entity',
        ConditionExpression:
          'attribute_not_exists(#running) OR size(#running) < :cap OR contains(#running, :jobId)',
        ExpressionAttributeNames: { '#running': kind },
        ExpressionAttributeValues: {
          ':job': new Set([jobId]),
          ':jobId': jobId,
          ':cap': JOB_SLOTS_PER_KIND,
          ':entity': jobSlotsKeys.entity,
        },
      },
    },
    onConditionFailed: onFull,
  };
}

/** Transaction item that gives the job's slot back (nothing when it holds none). */
function giveBackJobSlotItem(companyId: string, kind: JobKind, jobId: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: slotsKey(companyId),
      UpdateExpression: 'DELETE #running :job',
      ExpressionAttributeNames: { '#running': kind },
      ExpressionAttributeValues: { ':job': new Set([jobId]) },
    },
  };
}

/** Gives the job's slot back: idempotent, so every path that ends a job may call it. */
export async function giveBackJobSlot(companyId: string, kind: JobKind, jobId: string): Promise<void> {
  await dynamoDb.send(new UpdateCommand(giveBackJobSlotItem(companyId, kind, jobId).Update!));
}

/** The ids of the jobs of `kind` that hold a slot of the company (strongly consistent). */
export async function heldJobSlots(companyId: string, kind: JobKind): Promise<string[]> {
  const { Item } = await dynamoDb.send(
    new GetCommand({
      TableName: tableName(),
      Key: slotsKey(companyId),
      ConsistentRead: true,
      ProjectionExpression: '#running',
      ExpressionAttributeNames: { '#running': kind },
    }),
  );
  return [...((Item?.[kind] as Set<string> | undefined) ?? [])];
}
