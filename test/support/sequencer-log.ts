/**
 * What the sequencer tests share: committed events written through the API handlers, and the
 * check that the log holds every event of every chain exactly once, at its position, under a
 * checkpoint that verifies.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { decodeEntryBundle, tileHashes } from '../../lambdas/domain/ledger/log-tiles';
import { leafHashOf, treeRoot } from '../../lambdas/domain/ledger/log-tree';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { readLogState } from '../../lambdas/repositories/log-state-repository';
import { readTile, storedHashes } from '../../lambdas/repositories/log-tile-store';
import { dynamoDb } from '../../lambdas/shared/clients';
import { verifyCheckpoint } from '../../verifier/index';
import { invoke } from './api-events';
import { givenObject, givenSubcategoryPath } from './fixtures';
import { companyPrincipal } from './principals';

/** Writes `objects` objects, each with `updatesEach` transfers after its creation. */
export async function writeEvents(objects: number, updatesEach: number) {
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

/** Every item of the table whose partition key starts with `prefix`. */
export async function scanAll(prefix: string) {
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
export async function expectLogMatchesChains() {
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
