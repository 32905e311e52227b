/**
 * Offline verification of an inventory: the JSON Lines file of
 * `GET /v2/objects/export?asOf=…&format=jsonl&proofs=true` (docs/ledger.md, "An inventory that
 * verifies offline"). Its first line names the instant and holds the one checkpoint every proof
 * is checked against; each further line is an object as it stood then, with the event that set
 * that state and, when the object changed later, the first event after the instant, each with
 * its inclusion proof. Like `bundle.ts`, it needs nothing but Web Crypto and the key the
 * auditor trusts.
 */

import { type BundleTrust, checkpointByAnyKey } from './bundle.js';
import { equalBytes, fromHex } from './bytes.js';
import type { CheckpointVerdict } from './checkpoint.js';
import { canonicalJson, eventHash } from './event-hash.js';
import { leafHash, rootFromInclusionProof } from './merkle.js';
import { TRACKED_OBJECT_FIELDS } from './object-fields.js';
import { parseTlogProof } from './tlog-proof.js';
import { type PolicyVerdict, verifyWitnessedCheckpoint } from './witness-policy.js';

export const INVENTORY_FORMAT = 'asset-registry-inventory@v1';

export interface InventoryRowVerdict {
  /** The row's line in the file (the header is line 1). */
  line: number;
  id?: string;
  externalId?: string;
  /** The sequence of the event that set the row's state, and of the next event when given. */
  sequence?: number;
  nextSequence?: number;
  ok: boolean;
  reason?: string;
}

export interface InventoryVerdict {
  /** The header, the checkpoint (and the policy's quorum) and every row passed. */
  ok: boolean;
  asOf?: string;
  /** Why the file as a whole fails (its first line), when it does. */
  reason?: string;
  verifierKey: string;
  checkpoint: CheckpointVerdict;
  witnesses?: PolicyVerdict;
  rows: InventoryRowVerdict[];
  passed: number;
  failed: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why an event's inclusion proof fails against the checkpoint, or undefined when it holds. */
async function inclusionProblem(
  hash: string,
  proofText: unknown,
  checkpointNote: string,
  checkpoint: CheckpointVerdict,
): Promise<string | undefined> {
  if (typeof proofText !== 'string') return 'no inclusion proof';
  if (!checkpoint.ok || checkpoint.treeSize === undefined || !checkpoint.rootHash) {
    return 'the checkpoint does not verify';
  }
  let proof: ReturnType<typeof parseTlogProof>;
  try {
    // The row's tlog-proof stops at its empty line: the header's checkpoint completes it.
    proof = parseTlogProof(`${proofText}${checkpointNote}`);
  } catch (error) {
    return `the proof is malformed: ${(error as Error).message}`;
  }
  const root = await rootFromInclusionProof(
    proof.index,
    checkpoint.treeSize,
    await leafHash(fromHex(hash)),
    proof.inclusionProof,
  );
  if (!root) return `the proof does not fit index ${proof.index} in a tree of ${checkpoint.treeSize}`;
  if (!equalBytes(root, fromHex(checkpoint.rootHash)))
    return "the proof does not reach the checkpoint's root";
  return undefined;
}

/** Why an event of the row's object fails its own checks (hash, chain), or undefined. */
async function eventProblem(event: unknown, objectId: string, label: string): Promise<string | undefined> {
  if (!isObject(event)) return `no ${label} event`;
  let computed: string;
  try {
    computed = await eventHash(event);
  } catch (error) {
    return `the ${label} event cannot be hashed: ${(error as Error).message}`;
  }
  if (computed !== event.hash) return `hash mismatch: the ${label} event's fields hash to ${computed}`;
  const chainId = String(event.chainId);
  if (!chainId.startsWith('object:') || !chainId.endsWith(`:${objectId}`)) {
    return `the ${label} event is of another chain (${chainId})`;
  }
  return undefined;
}

/** Why one row fails, or undefined when every check passes. */
async function rowProblem(
  row: Json,
  asOf: string,
  checkpointNote: string,
  checkpoint: CheckpointVerdict,
): Promise<string | undefined> {
  const id = String(row.id);
  const proof = isObject(row.proof) ? row.proof : undefined;
  const setBy = isObject(proof?.setBy) ? proof.setBy : undefined;
  if (!proof || !setBy) return 'no proof';
  const event = setBy.event as Json;
  const problem = await eventProblem(event, id, 'state');
  if (problem) return problem;
  const asOfEvent = isObject(row.asOfEvent) ? row.asOfEvent : {};
  if (asOfEvent.sequence !== event.sequence || asOfEvent.hash !== event.hash) {
    return "asOfEvent is not the proven event's sequence and hash";
  }
  if (row.asOf !== asOf) return `the row is as of ${String(row.asOf)}, the file as of ${asOf}`;
  if (String(event.timestamp) > asOf) return `the event is stamped ${String(event.timestamp)}, after ${asOf}`;
  const blockchain = isObject(row.blockchain) ? row.blockchain : {};
  if (blockchain.lastTxId !== event.hash || blockchain.eventCount !== event.sequence) {
    return "blockchain.lastTxId and eventCount are not the proven event's";
  }
  if (row.updatedAt !== event.timestamp) return "updatedAt is not the proven event's timestamp";
  if (event.sequence === 1 && (blockchain.txId !== event.hash || row.createdAt !== event.timestamp)) {
    return "the object's first event is not its txId and createdAt";
  }
  const changes = isObject(event.changes) ? event.changes : {};
  // The row must hold each value the event set.
  for (const field of TRACKED_OBJECT_FIELDS) {
    const change = changes[field];
    if (isObject(change) && canonicalJson(change.to ?? null) !== canonicalJson(row[field] ?? null)) {
      return `${field} is not the value the proven event set`;
    }
  }
  const included = await inclusionProblem(String(event.hash), setBy.tlogProof, checkpointNote, checkpoint);
  if (included) return `state event: ${included}`;
  if (proof.next === undefined) return undefined;
  const next = isObject(proof.next) ? proof.next : {};
  const nextEvent = next.event as Json;
  const nextProblem = await eventProblem(nextEvent, id, 'next');
  if (nextProblem) return nextProblem;
  if (nextEvent.chainId !== event.chainId) return 'the next event is of another chain';
  if (nextEvent.sequence !== Number(event.sequence) + 1 || nextEvent.prevHash !== event.hash) {
    return 'the next event does not directly follow the proven event';
  }
  if (String(nextEvent.timestamp) <= asOf) {
    return `the next event is stamped ${String(nextEvent.timestamp)}, not after ${asOf}`;
  }
  const nextIncluded = await inclusionProblem(
    String(nextEvent.hash),
    next.tlogProof,
    checkpointNote,
    checkpoint,
  );
  return nextIncluded ? `next event: ${nextIncluded}` : undefined;
}

function parseLine(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks an inventory file row by row against its one checkpoint, signed by a trusted log key
 * (and cosigned as a witness policy requires, when one is given, as `verifyBundle` does). A
 * row passes when the event that set its state hashes to its hash, belongs to the row's
 * object, was stamped at or before the instant, set the values the row shows for the fields
 * it changed, and is in the log; and, when the row carries the next event, that event
 * directly follows it in the chain, was stamped after the instant and is in the log too.
 *
 * @example
 * const verdict = await verifyInventory(readFileSync('inventory.jsonl', 'utf8'), verifierKey);
 * console.log(`${verdict.passed} ok, ${verdict.failed} failed`);
 */
export async function verifyInventory(text: string, trust: string | BundleTrust): Promise<InventoryVerdict> {
  const { verifierKey, policy } = typeof trust === 'string' ? { verifierKey: trust } : trust;
  const keys = [...(verifierKey ? [verifierKey] : []), ...(policy?.logs.map((log) => log.vkey) ?? [])];
  const lines = text.split('\n');
  const header = parseLine(lines[0] ?? '');
  const refused = (reason: string): InventoryVerdict => ({
    ok: false,
    reason,
    verifierKey: verifierKey ?? '',
    checkpoint: { ok: false, reason },
    rows: [],
    passed: 0,
    failed: 0,
  });
  if (header?.format !== INVENTORY_FORMAT)
    return refused(`the first line is not an ${INVENTORY_FORMAT} header`);
  if (typeof header.asOf !== 'string' || typeof header.checkpoint !== 'string') {
    return refused('the header has no asOf or checkpoint');
  }
  const { asOf, checkpoint: checkpointNote } = header;
  const { checkpoint, key } = await checkpointByAnyKey(checkpointNote, keys);
  const witnesses =
    policy && checkpoint.ok ? await verifyWitnessedCheckpoint(checkpointNote, policy, key) : undefined;
  const rows: InventoryRowVerdict[] = [];
  for (const [index, line] of lines.entries()) {
    if (index === 0 || line.trim() === '') continue;
    const row = parseLine(line);
    if (!row) {
      rows.push({ line: index + 1, ok: false, reason: 'not a JSON object' });
      continue;
    }
    const reason = await rowProblem(row, asOf, checkpointNote, checkpoint);
    const proof = isObject(row.proof) ? row.proof : {};
    const nextEvent = isObject(proof.next) && isObject(proof.next.event) ? proof.next.event : undefined;
    rows.push({
      line: index + 1,
      id: String(row.id),
      externalId: String(row.externalId),
      ...(isObject(row.asOfEvent) ? { sequence: Number(row.asOfEvent.sequence) } : {}),
      ...(nextEvent ? { nextSequence: Number(nextEvent.sequence) } : {}),
      ok: reason === undefined,
      ...(reason ? { reason } : {}),
    });
  }
  const passed = rows.filter((row) => row.ok).length;
  return {
    ok: checkpoint.ok && (!policy || witnesses?.ok === true) && passed === rows.length,
    asOf,
    verifierKey: key,
    checkpoint,
    ...(witnesses ? { witnesses } : {}),
    rows,
    passed,
    failed: rows.length - passed,
  };
}
