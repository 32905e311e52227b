/**
 * Offline verification of an exported ledger bundle: an object, its events, each event's
 * tlog-proof and a checkpoint. Needs nothing from the service: only the verifier key the
 * auditor trusts, and optionally the witness policy (c2sp.org/tlog-policy) whose quorum must
 * have cosigned the checkpoint.
 */
import { equalBytes, fromHex, fromUtf8 } from './bytes.js';
import { type CheckpointVerdict, verifyCheckpoint } from './checkpoint.js';
import { canonicalEventText, eventHash } from './event-hash.js';
import { leafHash, rootFromInclusionProof } from './merkle.js';
import { splitNote } from './signed-note.js';
import { parseTlogProof } from './tlog-proof.js';
import { type PolicyVerdict, verifyWitnessedCheckpoint, type WitnessPolicy } from './witness-policy.js';

export const BUNDLE_FORMAT = 'asset-registry-ledger-bundle@v1';
/** The `prevHash` of a chain's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What `npm run ledger -- export --object <id>` writes (JSON), and what the console assembles from the API. */
export interface LedgerBundle {
  format: typeof BUNDLE_FORMAT;
  /** The object as GET /v2/objects/{objectId} returns it (its `blockchain.lastTxId` is checked). */
  object: Record<string, unknown>;
  /** The events as GET /v2/objects/{objectId}/events returns them, oldest first. */
  events: Array<Record<string, unknown>>;
  /** proofs[i]: the C2SP tlog-proof text of events[i]. */
  proofs: string[];
  /** The signed checkpoint (note text) the proofs are checked against, with any cosignatures. */
  checkpoint: string;
  /** The verifier key the server published (informational; trust is the caller's argument). */
  verifierKey: string;
}

export interface EventVerdict {
  sequence: number;
  hash: string;
  ok: boolean;
  reason?: string;
}

export interface BundleVerdict {
  /** Every check passed. */
  ok: boolean;
  /** The key actually used. */
  verifierKey: string;
  checkpoint: CheckpointVerdict;
  /** The checkpoint's cosignatures against the witness policy, when one was given. */
  witnesses?: PolicyVerdict;
  /** One per event, in order. */
  events: EventVerdict[];
}

/** What the auditor trusts: a log key, a witness policy, or both (the policy's log keys count too). */
export interface BundleTrust {
  /** A signed-note verifier key line `<name>+<8 hex>+<base64>` of the log. */
  verifierKey?: string;
  policy?: WitnessPolicy;
}

/** The note's signed text; a checkpoint is the same tree head whatever cosignatures it carries. */
function signedText(note: string): string | undefined {
  try {
    return splitNote(note).text;
  } catch {
    return undefined;
  }
}

/** Why one event fails, or undefined when it passes every check. */
async function eventProblem(
  event: Record<string, unknown>,
  position: number,
  previousHash: string,
  proofText: string | undefined,
  checkpoint: CheckpointVerdict,
  bundleCheckpoint: string,
): Promise<string | undefined> {
  let computed: string;
  try {
    computed = await eventHash(event);
  } catch (error) {
    return `the event cannot be hashed: ${(error as Error).message}`;
  }
  if (computed !== event.hash) return `hash mismatch: the event's fields hash to ${computed}`;
  if (event.sequence !== position + 1)
    return `broken link: sequence ${String(event.sequence)} at position ${position + 1}`;
  if (event.prevHash !== previousHash) return "broken link: prevHash is not the previous event's hash";
  if (proofText === undefined) return 'no proof for this event';
  let proof: ReturnType<typeof parseTlogProof>;
  try {
    proof = parseTlogProof(proofText);
  } catch (error) {
    return `the proof is malformed: ${(error as Error).message}`;
  }
  if (signedText(proof.checkpoint) !== signedText(bundleCheckpoint))
    return "the proof is not against the bundle's checkpoint";
  if (proof.extra && fromUtf8(proof.extra) !== canonicalEventText(event)) {
    return "the proof's event bytes are not this event";
  }
  if (!checkpoint.ok || checkpoint.treeSize === undefined || !checkpoint.rootHash) {
    return 'the checkpoint does not verify';
  }
  const root = await rootFromInclusionProof(
    proof.index,
    checkpoint.treeSize,
    await leafHash(fromHex(computed)),
    proof.inclusionProof,
  );
  if (!root) return `the proof does not fit index ${proof.index} in a tree of ${checkpoint.treeSize}`;
  if (!equalBytes(root, fromHex(checkpoint.rootHash)))
    return "the proof does not reach the checkpoint's root";
  return undefined;
}

/** The checkpoint checked with each trusted log key in turn: the first that verifies, or the first verdict. */
export async function checkpointByAnyKey(
  note: string,
  keys: string[],
): Promise<{ checkpoint: CheckpointVerdict; key: string }> {
  let first: { checkpoint: CheckpointVerdict; key: string } | undefined;
  for (const key of keys) {
    const checkpoint = await verifyCheckpoint(note, key);
    if (checkpoint.ok) return { checkpoint, key };
    first ??= { checkpoint, key };
  }
  return first ?? { checkpoint: { ok: false, reason: 'no log key to trust was given' }, key: '' };
}

/**
 * Checks every event hash, every chain link, every inclusion proof against the checkpoint's
 * root, and the checkpoint's signature against the trusted log key: `trust` is a signed-note
 * verifier key line `<name>+<8 hex>+<base64>`, or a key and/or a witness policy (whose `log`
 * lines are trusted keys too). With a policy, the checkpoint's cosignatures must also meet
 * its quorum; `witnesses` then names who cosigned and who did not. Also checks that the
 * object's `blockchain.lastTxId`, when present, is its last event's hash.
 *
 * `onEvent`, when given, is told after each event how many are checked (a page's progress).
 *
 * @example
 * const verdict = await verifyBundle(bundle, { policy: await parseWitnessPolicy(policyText) });
 * if (!verdict.ok) console.log(verdict.witnesses?.reason ?? verdict.checkpoint.reason);
 */
export async function verifyBundle(
  bundle: LedgerBundle,
  trust: string | BundleTrust,
  onEvent?: (checked: number, total: number) => void,
): Promise<BundleVerdict> {
  const { verifierKey, policy } = typeof trust === 'string' ? { verifierKey: trust } : trust;
  const keys = [...(verifierKey ? [verifierKey] : []), ...(policy?.logs.map((log) => log.vkey) ?? [])];
  const { checkpoint, key } = await checkpointByAnyKey(bundle.checkpoint, keys);
  const witnesses =
    policy && checkpoint.ok ? await verifyWitnessedCheckpoint(bundle.checkpoint, policy, key) : undefined;
  const events: EventVerdict[] = [];
  let previousHash = GENESIS_HASH;
  for (const [position, event] of bundle.events.entries()) {
    const reason = await eventProblem(
      event,
      position,
      previousHash,
      bundle.proofs[position],
      checkpoint,
      bundle.checkpoint,
    );
    events.push({
      sequence: Number(event.sequence),
      hash: String(event.hash),
      ok: reason === undefined,
      ...(reason ? { reason } : {}),
    });
    previousHash = String(event.hash);
    onEvent?.(position + 1, bundle.events.length);
  }
  const last = events.at(-1);
  const blockchain = bundle.object.blockchain as Record<string, unknown> | undefined;
  const lastTxId = blockchain?.lastTxId ?? bundle.object.lastTxId;
  if (last && lastTxId !== undefined && lastTxId !== last.hash) {
    last.ok = false;
    last.reason ??= "the object's lastTxId is not its last event's hash";
  }
  return {
    ok:
      checkpoint.ok &&
      (!policy || witnesses?.ok === true) &&
      events.length > 0 &&
      events.every((event) => event.ok),
    verifierKey: key,
    checkpoint,
    ...(witnesses ? { witnesses } : {}),
    events,
  };
}
