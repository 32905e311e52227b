/**
 * C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): the note text `<origin>\n<tree size>\n<base64
 * root hash>\n`, optionally followed by extension lines, signed as a signed note.
 */
import { fromBase64, toBase64, toHex } from './bytes.js';
import { openNote, parseVerifierKey } from './signed-note.js';

export interface CheckpointBody {
  origin: string;
  treeSize: number;
  rootHash: Uint8Array;
  extensions: string[];
}

/** The checkpoint's note text. */
export const formatCheckpointBody = (origin: string, treeSize: number, rootHash: Uint8Array): string =>
  `${origin}\n${treeSize}\n${toBase64(rootHash)}\n`;

/** Parses checkpoint text (the note's text, signatures removed); throws with the reason. */
export function parseCheckpointBody(text: string): CheckpointBody {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '')
    throw new Error('a checkpoint has an origin, a size and a root');
  const [origin, size, root, ...rest] = lines as [string, string, string, ...string[]];
  if (!origin) throw new Error('the checkpoint has an empty origin');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new Error('the checkpoint tree size is not a decimal number');
  }
  const rootHash = fromBase64(root);
  if (rootHash.length !== 32) throw new Error('the checkpoint root hash is not 32 bytes');
  return { origin, treeSize: Number(size), rootHash, extensions: rest.slice(0, -1) };
}

export interface CheckpointVerdict {
  ok: boolean;
  origin?: string;
  treeSize?: number;
  /** Lowercase hex. */
  rootHash?: string;
  keyId?: string;
  reason?: string;
}

/**
 * Verifies a signed checkpoint against a trusted verifier key: the signature, and that the
 * origin is the key's name (this log's checkpoints are signed by the key named like the log).
 */
export async function verifyCheckpoint(
  checkpointNote: string,
  trustedVerifierKey: string,
): Promise<CheckpointVerdict> {
  try {
    const key = await parseVerifierKey(trustedVerifierKey);
    const body = parseCheckpointBody(await openNote(checkpointNote, key));
    if (body.origin !== key.name) {
      return {
        ok: false,
        origin: body.origin,
        reason: `the checkpoint origin is not the key name ${key.name}`,
      };
    }
    return {
      ok: true,
      origin: body.origin,
      treeSize: body.treeSize,
      rootHash: toHex(body.rootHash),
      keyId: key.keyId,
    };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
