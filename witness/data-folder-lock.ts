/**
 * One witness per data folder: the file store's compare-and-set is atomic within one process
 * only, so a second witness on the same folder could cosign a fork. The lock is a file holding
 * the owner's pid, made with an exclusive create; a lock whose process is gone (a crash, a
 * SIGKILL) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'witness.lock';

/** Another live process holds the data folder. */
export class DataFolderInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Locks `dataDir` for this process (making the folder, mode 0700, if missing); returns the
 * function that releases it. Throws {@link DataFolderInUseError} while a live process holds it,
 * this one included (two servers of one process would not share their writes' order either).
 *
 * @example
 * const release = lockDataFolder(dataDir);
 * // … serve …
 * release();
 */
export function lockDataFolder(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new DataFolderInUseError(
        `another witness (pid ${owner}) uses ${dataDir}; if none runs, delete ${file}`,
      );
    }
    // Its owner is gone: remove the stale lock and take it with an exclusive create again.
    rmSync(file, { force: true });
  }
  throw new DataFolderInUseError(`another witness took ${dataDir} at the same time`);
}
