/**
 * The sequencer against DynamoDB Local and s3rver: the log it builds holds every committed
 * event once, at the index its position item names, and a sequencer that dies after any of
 * its steps is followed by one that finishes the batch without losing or doubling an event.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { decodeEntryBundle, tileHashes } from '../../lambdas/domain/ledger/log-tiles';
import { leafHashOf, treeRoot } from '../../lambdas/domain/ledger/log-tree';
import { runSequencerCycle, type SequencerStep } from '../../lambdas/domain/ledger/sequencer';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { readLogState } from '../../lambdas/repositories/log-state-repository';
import { readTile, storedHashes } from '../../lambdas/repositories/log-tile-store';
import { dynamoDb } from '../../lambdas/shared/clients';
import { verifyCheckpoint } from '../../verifier/index';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

async function writeEvents(objects: number, updatesEach: number) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  for (let i = 0; i < objects; i++) {
    const object = await givenObject(principal, place, { owner: 'Alice' });
    for (let u = 0; u < updatesEach; u++) {
      await invoke(updateObject, {
        method: 'PUT',
        path: `/v2/objects/${object.id}`,
        principal,
        pathParameters: { objectId: object.id },
        body: { action: 'transfer', owner: `Owner ${u}` },
      });
    }
  }
}

async function scanAll(prefix: string) {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb.send(
      new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []).filter((item) => String(item.pk).startsWith(prefix)));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Every event of every chain is in the log exactly once, at its position, and the checkpoint commits to it. */
async function expectLogMatchesChains() {
  const events = await scanAll('T#');
  const ledgerEvents = events.filter((item) => item.entity === 'ledgerEvent');
  const positions = await scanAll('LOG_POSITION#');
  const outbox = await scanAll('LOG_OUTBOX#');
  const state = await readLogState();
  expect(outbox).toEqual([]);
  expect(state.pending).toBeUndefined();
  expect(positions).toHaveLength(ledgerEvents.length);
  expect(state.treeSize).toBe(ledgerEvents.length);
  const indexes = new Set(positions.map((item) => item.logIndex));
  expect(indexes.size).toBe(ledgerEvents.length);
  const entries: Buffer[] = [];
  const leaves: Buffer[] = [];
  for (let tile = 0; tile * 256 < state.treeSize; tile++) {
    const width = Math.min(256, state.treeSize - tile * 256);
    entries.push(...decodeEntryBundle((await readTile({ level: 'entries', index: tile, width }))!));
    leaves.push(...tileHashes((await readTile({ level: 0, index: tile, width }))!));
  }
  expect(entries).toHaveLength(state.treeSize);
  const indexOf = new Map(positions.map((item) => [`${item.pk}/${item.sk}`, item.logIndex as number]));
  for (const event of ledgerEvents) {
    const logIndex = indexOf.get(`LOG_POSITION#${event.chainId}/${event.sk}`)!;
    expect(entries[logIndex]!.toString('hex')).toBe(event.hash);
    expect(leaves[logIndex]).toEqual(leafHashOf(Buffer.from(event.hash as string, 'hex')));
  }
  const root = await treeRoot(storedHashes(state.treeSize), state.treeSize);
  expect(root.toString('hex')).toBe(state.rootHash);
  expect(await verifyCheckpoint(state.checkpoint!, state.verifierKey!)).toMatchObject({
    ok: true,
    treeSize: state.treeSize,
    rootHash: state.rootHash,
  });
}

class Crash extends Error {}

const LEASE_MS = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One cycle with a short lease, so that the next test's sequencer can take over soon. */
const cycle = (options: Partial<Parameters<typeof runSequencerCycle>[0]> = {}) =>
  runSequencerCycle({ signer: ledger.signer, leaseMs: LEASE_MS, ...options });

describe('the sequencer', () => {
  it('publishes a checkpoint of the empty log, then integrates every committed event', async () => {
    await cycle();
    expect((await readLogState()).treeSize).toBe(0);
    await writeEvents(3, 2);
    const result = await cycle();
    expect(result.integrated).toBeGreaterThanOrEqual(9);
    await expectLogMatchesChains();
  });

  it('spreads a batch over full and partial tiles and still matches the chains', async () => {
    await writeEvents(30, 9);
    await cycle({ batchSize: 100 });
    await cycle({ batchSize: 1000 });
    await expectLogMatchesChains();
  });

  const steps: SequencerStep[] = [
    'lease',
    'pending',
    'tiles',
    'positions',
    'checkpoint-files',
    'commit',
    'outbox-deleted',
  ];
  it.each(steps)('loses and doubles nothing when the sequencer dies after %s', async (crashAfter) => {
    await writeEvents(2, 3);
    await pause(LEASE_MS + 50);
    const crashed = cycle({
      owner: `crashing-${randomUUID()}`,
      afterStep: (step) => {
        if (step === crashAfter) throw new Crash(step);
      },
    });
    await expect(crashed).rejects.toBeInstanceOf(Crash);
    // The next sequencer waits for the dead one's lease to run out, then finishes its batch.
    await pause(LEASE_MS + 50);
    while ((await cycle()).integrated > 0);
    await expectLogMatchesChains();
  });
});
