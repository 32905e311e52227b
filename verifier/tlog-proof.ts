/**
 * C2SP tlog-proof (c2sp.org/tlog-proof@v1): a self-contained inclusion proof. Lines: the
 * header, an optional `extra <base64>` (here: the event's canonical bytes), `index <N>`, the
 * inclusion proof hashes in base64 one a line, an empty line, then the signed checkpoint.
 */
import { fromBase64, toBase64 } from './bytes.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  extra?: Uint8Array;
  index: number;
  inclusionProof: Uint8Array[];
  /** The signed checkpoint note, as published. */
  checkpoint: string;
}

export function formatTlogProof(proof: TlogProof): string {
  const lines = [TLOG_PROOF_HEADER];
  if (proof.extra) lines.push(`extra ${toBase64(proof.extra)}`);
  lines.push(`index ${proof.index}`, ...proof.inclusionProof.map(toBase64));
  return `${lines.join('\n')}\n\n${proof.checkpoint}`;
}

/** Parses a tlog-proof; throws with the reason when it is malformed. */
export function parseTlogProof(text: string): TlogProof {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error('a tlog-proof has an empty line before its checkpoint');
  const lines = text.slice(0, split).split('\n');
  if (lines.shift() !== TLOG_PROOF_HEADER) throw new Error(`a tlog-proof starts with ${TLOG_PROOF_HEADER}`);
  let extra: Uint8Array | undefined;
  if (lines[0]?.startsWith('extra ')) extra = fromBase64(lines.shift()!.slice('extra '.length));
  const indexLine = lines.shift() ?? '';
  if (!/^index (0|[1-9][0-9]*)$/.test(indexLine)) throw new Error('a tlog-proof has an "index <N>" line');
  const index = Number(indexLine.slice('index '.length));
  if (!Number.isSafeInteger(index)) throw new Error('the tlog-proof index is too large');
  const inclusionProof = lines.map((line) => {
    const hash = fromBase64(line);
    if (hash.length !== 32) throw new Error('a tlog-proof hash is not 32 bytes');
    return hash;
  });
  return { extra, index, inclusionProof, checkpoint: text.slice(split + 2) };
}
