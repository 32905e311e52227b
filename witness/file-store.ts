/**
 * The local witness store: one JSON file per origin (named by the origin's SHA-256), replaced
 * whole by write-to-temporary, fsync, rename and fsync of the folder. A crash at any point
 * leaves the old file or the new one, never a torn one, and a checkpoint is on disk before the
 * witness answers with its cosignature. The compare-and-set is atomic within this process (one
 * write at a time per origin); one witness process uses a data folder at a time.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type CosignedCheckpoint, sameCheckpoint, type WitnessStore } from './witness-store.js';

interface StoredFile {
  origin: string;
  treeSize: number;
  /** Base64. */
  rootHash: string;
  note: string;
}

const fileOf = (directory: string, origin: string) =>
  join(directory, `${createHash('sha256').update(origin).digest('hex')}.json`);

async function readStored(file: string): Promise<CosignedCheckpoint | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const stored = JSON.parse(text) as StoredFile;
  return { treeSize: stored.treeSize, rootHash: Buffer.from(stored.rootHash, 'base64'), note: stored.note };
}

/** Writes `text` to `file` so that a crash leaves either the old file or the new one, on disk. */
async function replaceDurably(directory: string, file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  // The rename itself is durable only once the folder is synced.
  const folder = await open(directory, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * A witness store in `directory` (made at the first write).
 *
 * @example
 * const store = fileWitnessStore(join(dataDir, 'checkpoints'));
 */
export function fileWitnessStore(directory: string): WitnessStore {
  // Per origin, the tail of the writes queued so far: each compare-and-set runs after the last.
  const queues = new Map<string, Promise<unknown>>();
  const serialized = <T>(origin: string, step: () => Promise<T>): Promise<T> => {
    const run = (queues.get(origin) ?? Promise.resolve()).then(step, step);
    queues.set(origin, run);
    return run;
  };
  return {
    read: (origin) => readStored(fileOf(directory, origin)),
    compareAndSet: (origin, expected, next) =>
      serialized(origin, async () => {
        const file = fileOf(directory, origin);
        const current = await readStored(file);
        if (!sameCheckpoint(current, expected)) return { stored: false, current };
        const stored: StoredFile = {
          origin,
          treeSize: next.treeSize,
          rootHash: Buffer.from(next.rootHash).toString('base64'),
          note: next.note,
        };
        await mkdir(directory, { recursive: true, mode: 0o700 });
        await replaceDurably(directory, file, `${JSON.stringify(stored, null, 2)}\n`);
        return { stored: true };
      }),
  };
}
