/**
 * The state item's two heads in DynamoDB Local (`log-state-repository.ts`): an item written
 * before publication was split from integration (a checkpoint, no `publishedSize`) still serves
 * its signed head; a commit under a policy keeps the head that was served; publication moves
 * the published head and never back; a policy's first commit publishes nothing.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { LeaseLostError } from '../../lambdas/repositories/ledger-store';
import {
  acquireLease,
  commitCheckpoint,
  readLogState,
  recordWitnessing,
  SEQUENCER_STATE_PARTITION,
} from '../../lambdas/repositories/log-state-repository';
import { logStateKeys } from '../../lambdas/repositories/table-keys';
import { dynamoDb, tableName } from '../../lambdas/shared/clients';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';

let ledger: IsolatedLedger;
beforeEach(async () => {
  ledger = await useIsolatedLedger();
});
afterEach(() => ledger.restore());

const head = (treeSize: number) => ({
  treeSize,
  rootHash: String(treeSize).padStart(64, '0'),
  checkpoint: `signed checkpoint ${treeSize}\n`,
  verifierKey: 'test.example/ledger+00000000+AQ==',
});

it('serves the signed head of an item from before the split, and keeps serving it under a policy', async () => {
  // Prepare: the item as the sequencer wrote it before.
  await dynamoDb.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...logStateKeys.key({}), ...head(5) },
    }),
  );
  expect(logStateKeys.key({}).pk).toBe(SEQUENCER_STATE_PARTITION);
  // Act
  const before = await readLogState();
  // Assess
  expect(before.published).toEqual({ treeSize: 5, checkpoint: 'signed checkpoint 5\n' });

  // A commit under a policy: the integrated head moves, the served one stays.
  const state = await acquireLease('owner', 10_000);
  await commitCheckpoint('owner', head(8), [], state?.published);
  const after = await readLogState();
  expect(after.treeSize).toBe(8);
  expect(after.published).toEqual({ treeSize: 5, checkpoint: 'signed checkpoint 5\n' });
  // Published once witnessed.
  await recordWitnessing('owner', { W1: 8 }, { treeSize: 8, checkpoint: 'cosigned 8\n' });
  expect(await readLogState()).toMatchObject({
    published: { treeSize: 8, checkpoint: 'cosigned 8\n' },
    witnessSizes: { W1: 8 },
  });
  // Never back.
  await expect(
    recordWitnessing('owner', { W1: 8 }, { treeSize: 6, checkpoint: 'cosigned 6\n' }),
  ).rejects.toThrow(LeaseLostError);
});

it('publishes nothing at a policy log first commit, and records witness sizes alone', async () => {
  await acquireLease('owner', 10_000);
  await commitCheckpoint('owner', head(3), [], undefined);
  expect((await readLogState()).published).toBeUndefined();
  await recordWitnessing('owner', { W1: 3, W2: 0 }, undefined);
  expect(await readLogState()).toMatchObject({ treeSize: 3, witnessSizes: { W1: 3, W2: 0 } });
  expect((await readLogState()).published).toBeUndefined();
  // Without a policy the commit publishes the head itself.
  await commitCheckpoint('owner', head(4), [], { treeSize: 4, checkpoint: head(4).checkpoint });
  expect((await readLogState()).published).toEqual({ treeSize: 4, checkpoint: 'signed checkpoint 4\n' });
});
