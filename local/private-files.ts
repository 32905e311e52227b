/**
 * Local mode's data folder is its owner's alone: the folder and the folders local mode keeps in it
 * mode 700, their files 600 (the cursor key, the ledger's signing key, the KMS emulator's keys,
 * the webhook secrets' key, the state file that names the cursor key, the table's database, the
 * logs, the identity provider's keys and password).
 * `npm start` also sets its umask to 077, so that what it and its children (DynamoDB Local,
 * s3rver, the function workers) write later is made that way; this module tightens what an
 * earlier run, or another tool, left wider.
 */
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The umask that makes new files 600 and new folders 700. */
export const PRIVATE_UMASK = 0o077;

/**
 * What local mode keeps in the data folder, by name: only these are tightened, so that a
 * `DATA_DIR` pointed at a folder that holds other things (the project itself) leaves them be.
 * `true`: a folder whose files are walked; `false`: a folder made 700 whose files are not walked
 * (s3rver's may be many; the folder keeps them from everyone else); `'file'`: a file.
 */
const DATA_ENTRIES: Readonly<Record<string, boolean | 'file'>> = {
  'cursor-key': 'file',
  'local-stack.json': 'file',
  'ledger-signing-key.pem': 'file',
  dynamodb: true,
  events: true,
  'failed-work': true,
  // The local identity provider's keys and the demo people's password.
  'identity-provider': true,
  kms: true,
  logs: true,
  s3: false,
  // `npm start -- --witness`: the witness's key and what it cosigned, and the policy.
  witness: true,
  'witness-policy.txt': 'file',
};

/** A folder 700 and, walked, every folder in it 700 and every file 600. */
function tighten(directory: string, walk: boolean): void {
  chmodSync(directory, PRIVATE_DIRECTORY_MODE);
  if (!walk) return;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) tighten(path, true);
    else if (entry.isFile()) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/**
 * Makes the data folder (created if missing) and what is in it its owner's only.
 *
 * @example
 * keepDataDirectoryPrivate('.data'); // .data 700, .data/cursor-key 600, .data/s3 700, …
 */
export function keepDataDirectoryPrivate(dataDirectory: string): void {
  mkdirSync(dataDirectory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dataDirectory, PRIVATE_DIRECTORY_MODE);
  for (const entry of readdirSync(dataDirectory, { withFileTypes: true })) {
    const kind = DATA_ENTRIES[entry.name];
    const path = join(dataDirectory, entry.name);
    // Symbolic links are not followed: what they point to is not the data folder's.
    if (kind === 'file' && entry.isFile()) chmodSync(path, PRIVATE_FILE_MODE);
    else if (kind !== undefined && kind !== 'file' && entry.isDirectory()) tighten(path, kind);
  }
}

/** Writes a file readable by its owner only, whatever mode an earlier file of that name had. */
export function writePrivateFile(file: string, content: string): void {
  writeFileSync(file, content, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}
