/**
 * The log's public files in the Object Lock bucket (in AWS; s3rver locally), under `log/`:
 * C2SP tiles and entry bundles (`log/tile/...`), the latest signed checkpoint
 * (`log/checkpoint`) and every published one by tree size (`log/checkpoints/<size>`). A full
 * tile is written once (checked first, and `If-None-Match: *` in AWS) and never again.
 */
import { hashesFromTiles, type TileRef, type TileWrite, tilePath } from '#domain/ledger/log-tiles.js';
import { type StoredHashes, TILE_WIDTH } from '#domain/ledger/log-tree.js';
import { AwsRequestError } from '#shared/aws-requests.js';
import { digestBucketName } from '#shared/clients.js';
import { getObjectBytes, headObject, putObject } from '#shared/s3-objects.js';
import { isMissingObject } from '#shared/s3-requests.js';

/** Prefix of every log file in the bucket; the API's read grants cover it as `log/*`. */
export const LOG_PREFIX = 'log/';
const checkpointKey = (treeSize: number) => `${LOG_PREFIX}checkpoints/${String(treeSize).padStart(20, '0')}`;
const LATEST_CHECKPOINT_KEY = `${LOG_PREFIX}checkpoint`;

async function readObject(key: string): Promise<Buffer | undefined> {
  try {
    return await getObjectBytes({ bucket: digestBucketName(), key });
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}

const exists = async (key: string): Promise<boolean> =>
  (await headObject({ bucket: digestBucketName(), key })) !== undefined;

async function writeObject(
  key: string,
  body: Buffer | string,
  contentType: string,
  once: boolean,
): Promise<void> {
  try {
    await putObject({ bucket: digestBucketName(), key }, body, contentType, { onlyIfAbsent: once });
  } catch (error) {
    // Already written by an earlier, interrupted run: the same bytes, since tiles follow from the entries.
    if (once && error instanceof AwsRequestError && error.status === 412) return;
    throw error;
  }
}

/** A tile's (or entry bundle's) bytes, or undefined when it is not stored. */
export const readTile = (ref: TileRef): Promise<Buffer | undefined> =>
  readObject(`${LOG_PREFIX}${tilePath(ref.level, ref.index, ref.width)}`);

/** Stores tiles; a full tile that is already stored is left as it is. */
export async function writeTiles(writes: TileWrite[]): Promise<void> {
  await Promise.all(
    writes.map(async (write) => {
      const key = `${LOG_PREFIX}${tilePath(write.level, write.index, write.width)}`;
      const full = write.width === TILE_WIDTH;
      if (full && (await exists(key))) return;
      await writeObject(key, write.data, 'application/octet-stream', full);
    }),
  );
}

/** Stores a signed checkpoint: by its size (once) and as the latest. */
export async function writeCheckpoint(treeSize: number, note: string): Promise<void> {
  await writeObject(checkpointKey(treeSize), note, 'text/plain; charset=utf-8', true);
  await writeObject(LATEST_CHECKPOINT_KEY, note, 'text/plain; charset=utf-8', false);
}

/** The checkpoint published at this tree size, if any. */
export async function readCheckpoint(treeSize: number): Promise<string | undefined> {
  return (await readObject(checkpointKey(treeSize)))?.toString('utf8');
}

/** The stored hashes of the tree of `treeSize` leaves; `overlay` holds tiles written in this run. */
export const storedHashes = (treeSize: number, overlay?: Map<string, Buffer>): StoredHashes =>
  hashesFromTiles(readTile, treeSize, overlay);
