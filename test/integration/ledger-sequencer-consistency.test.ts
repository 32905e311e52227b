/**
 * The sequencer checks each new tree against the published checkpoint before publishing it: a
 * log whose stored right edge was rewritten (here a published partial hash tile in s3rver, as
 * someone hiding a change would) gives a root that no consistency proof links to the published
 * one, and the sequencer refuses to publish. The checkpoint stays as it was, and the events it
 * could not integrate stay in the outbox. A table and bucket of its own: this log stays broken.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { tilePath } from '../../lambdas/domain/ledger/log-tiles';
import { InconsistentLogError, runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { readLogState } from '../../lambdas/repositories/log-state-repository';
import { verifyCheckpoint } from '../../verifier/index';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { localS3 } from '../support/s3-client';
import { expectLogMatchesChains, scanAll, writeEvents } from '../support/sequencer-log';

jest.setTimeout(120_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger();
});
afterAll(() => ledger.restore());

const cycle = () => runSequencerCycle({ signer: ledger.signer, leaseMs: 100 });
const bucket = () => process.env.DIGEST_BUCKET_NAME;

async function readText(key: string): Promise<Buffer> {
  const response = await localS3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

async function logKeys(): Promise<string[]> {
  const page = await localS3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: 'log/' }));
  return (page.Contents ?? []).map((object) => object.Key!).sort();
}

describe('the consistency check before publishing', () => {
  it('refuses to publish a checkpoint for a log rewritten under the published one', async () => {
    // Prepare: a published checkpoint over a partial tile
    await writeEvents(2, 2);
    await cycle();
    await expectLogMatchesChains();
    const published = await readLogState();
    const size = published.treeSize;
    expect(size % 256).toBeGreaterThan(1);
    const publishedNote = (await readText('log/checkpoint')).toString('utf8');
    expect(await verifyCheckpoint(publishedNote, published.verifierKey!)).toMatchObject({
      ok: true,
      treeSize: size,
    });
    // Act: rewrite the hash of leaf 1 in the published level-0 tile, then commit more events
    const tileKey = `log/${tilePath(0, 0, size)}`;
    const tile = await readText(tileKey);
    createHash('sha256').update('a forged leaf').digest().copy(tile, 32);
    await localS3().send(new PutObjectCommand({ Bucket: bucket(), Key: tileKey, Body: tile }));
    await writeEvents(1, 1);
    const waiting = (await scanAll('LOG_OUTBOX#')).length;
    const keysBefore = await logKeys();
    const refused = cycle();
    // Assess: refused with a clear error, nothing published, no event lost
    await expect(refused).rejects.toBeInstanceOf(InconsistentLogError);
    await expect(refused).rejects.toThrow(
      new RegExp(
        `^The log at tree size ${size + waiting} is not consistent with the published checkpoint at ${size} ` +
          `\\(root ${published.rootHash}\\).*no checkpoint was published$`,
      ),
    );
    const after = await readLogState();
    expect(after).toMatchObject({
      treeSize: size,
      rootHash: published.rootHash,
      checkpoint: published.checkpoint,
    });
    expect((await readText('log/checkpoint')).toString('utf8')).toBe(publishedNote);
    const checkpointFiles = (await logKeys()).filter((key) => key.startsWith('log/checkpoints/'));
    expect(checkpointFiles).toEqual(keysBefore.filter((key) => key.startsWith('log/checkpoints/')));
    expect(checkpointFiles.map((key) => Number(key.split('/').pop()))).not.toContain(size + waiting);
    expect(await scanAll('LOG_OUTBOX#')).toHaveLength(waiting);
    // A later cycle refuses as well: the log stays stuck rather than publish a fork.
    await expect(cycle()).rejects.toBeInstanceOf(InconsistentLogError);
    expect((await readLogState()).checkpoint).toBe(published.checkpoint);
  });
});
