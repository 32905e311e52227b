/**
 * The ledger verifier: one module for the offline auditor (`npm run ledger -- verify-bundle`)
 * and the web console. No imports but its own files: it uses only Web Crypto (SHA-256,
 * Ed25519), TextEncoder and TextDecoder, so that Node runs it as is and a bundler ships it to
 * a browser. Where a browser's Web Crypto lacks Ed25519, the console sets a fallback
 * (`setEd25519Fallback`, `@noble/ed25519`); the offline verifier never loads it.
 *
 * Shapes as agreed between #13 and #14, unchanged; additions: the formats' parsers and
 * formatters (checkpoint, signed note, tlog-proof) and the Merkle checks on bytes.
 */
import { fromHex } from './bytes.js';
import { verifyConsistencyProof } from './merkle.js';

export {
  BUNDLE_FORMAT,
  type BundleVerdict,
  type EventVerdict,
  GENESIS_HASH,
  type LedgerBundle,
  verifyBundle,
} from './bundle.js';
export { fromBase64, fromHex, sha256, toBase64, toHex, utf8 } from './bytes.js';
export {
  type CheckpointBody,
  type CheckpointVerdict,
  formatCheckpointBody,
  parseCheckpointBody,
  verifyCheckpoint,
} from './checkpoint.js';
export {
  COSIGNATURE_TYPE,
  type CosignatureVerdict,
  cosignedMessage,
  formatCosignatureLine,
  formatCosignerKey,
  parseCosignerKey,
  verifyCosignature,
} from './cosignature.js';
export { canonicalEventText, canonicalJson, eventHash, HASHED_EVENT_FIELDS } from './event-hash.js';
export {
  INVENTORY_FORMAT,
  type InventoryRowVerdict,
  type InventoryVerdict,
  verifyInventory,
} from './inventory.js';
export {
  leafHash,
  nodeHash,
  rootFromInclusionProof,
  verifyConsistencyProof,
  verifyInclusion,
} from './merkle.js';
export {
  ED25519_SIGNATURE_TYPE,
  type Ed25519Verify,
  formatNoteSignature,
  formatSignatureLine,
  formatVerifierKey,
  isValidKeyName,
  noteKeyId,
  openNote,
  parseVerifierKey,
  setEd25519Fallback,
  splitNote,
  type VerifierKey,
  verifyEd25519,
} from './signed-note.js';
export { formatTlogProof, parseTlogProof, TLOG_PROOF_HEADER, type TlogProof } from './tlog-proof.js';
export {
  type PolicyVerdict,
  type PolicyWitness,
  parseWitnessPolicy,
  quorumMet,
  verifyWitnessedCheckpoint,
  type WitnessPolicy,
} from './witness-policy.js';

/** RFC 6962 consistency check between two tree heads (hex roots, hex proof hashes). */
export async function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRootHex: string,
  newRootHex: string,
  proofHex: string[],
): Promise<boolean> {
  try {
    return await verifyConsistencyProof(
      oldSize,
      newSize,
      fromHex(oldRootHex),
      fromHex(newRootHex),
      proofHex.map(fromHex),
    );
  } catch {
    return false;
  }
}
