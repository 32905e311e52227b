/**
 * The local stack's page-cursor key (in AWS a Secrets Manager secret; see
 * `lambdas/shared/cursor-key.ts`): made at the first start under the data folder and kept, so
 * that cursors survive a restart; a fresh one per run when the stack keeps nothing on disk.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from './private-files.js';

const KEY_BYTES = 32;

/** The key as hex, read from (or first written to) `<dataDirectory>/cursor-key`. */
export function localCursorKey(dataDirectory: string | undefined): string {
  if (!dataDirectory) return randomBytes(KEY_BYTES).toString('hex');
  const file = join(dataDirectory, 'cursor-key');
  if (!existsSync(file)) {
    mkdirSync(dataDirectory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    // flag 'wx': two first starts at once cannot overwrite each other's key.
    try {
      writeFileSync(file, randomBytes(KEY_BYTES).toString('hex'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // A key file left readable by others (an earlier version, a copy) is made the owner's only.
  chmodSync(file, PRIVATE_FILE_MODE);
  return readFileSync(file, 'utf8').trim();
}
