/**
 * The local stack's page-cursor key (in AWS a Secrets Manager secret; see
 * `lambdas/shared/cursor-key.ts`): made at the first start under the data folder and kept, so
 * that cursors survive a restart; a fresh one per run when the stack keeps nothing on disk.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;

/** The key as hex, read from (or first written to) `<dataDirectory>/cursor-key`. */
export function localCursorKey(dataDirectory: string | undefined): string {
  if (!dataDirectory) return randomBytes(KEY_BYTES).toString('hex');
  const file = join(dataDirectory, 'cursor-key');
  if (!existsSync(file)) {
    mkdirSync(dataDirectory, { recursive: true });
    // flag 'wx': two first starts at once cannot overwrite each other's key.
    try {
      writeFileSync(file, randomBytes(KEY_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}
