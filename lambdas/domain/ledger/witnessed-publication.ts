/**
 * Publication under a witness policy: the sequencer's signed head is asked of every witness
 * with a URL (`witness-client.ts`), and published (served, proven against, stored by its size)
 * only once the verified cosignatures meet the policy's quorum, as one signed note: the log's
 * signature line, then the witnesses' cosignature lines. Until then the last witnessed
 * checkpoint stays the published one. The size each witness holds is recorded either way, so
 * that the next request sends it as `old`.
 */
import type { SequencerStore } from '#repositories/ledger-store.js';
import { quorumMet } from '../../../verifier/index.js';
import { hashesFromTiles } from './log-tiles.js';
import { consistencyProof } from './log-tree.js';
import {
  callableWitnesses,
  collectCosignatures,
  cosignedNote,
  type WitnessResult,
} from './witness-client.js';
import type { Witnessing } from './witness-config.js';

/** How long a witness that timed out or could not be reached is left out, when the others can meet the quorum. */
const UNREACHABLE_REST_MS = 30_000;

/**
 * When each witness that timed out or could not be reached may be asked again, per policy in
 * use: kept in memory (a container keeps it from run to run; a cold start asks every witness).
 */
const unreachableUntil = new WeakMap<Witnessing, Map<string, number>>();

/**
 * The witnesses to leave out of this round: those unreachable within the last
 * `UNREACHABLE_REST_MS`, as long as the others can still meet the quorum. So a witness that is
 * down costs a cycle its timeout once in a while, not every cycle; when the quorum needs it, it
 * is asked every time.
 */
function witnessesResting(witnessing: Witnessing): Set<string> {
  const until = unreachableUntil.get(witnessing);
  const now = Date.now();
  const resting = new Set(
    callableWitnesses(witnessing.policy)
      .map((witness) => witness.name)
      .filter((name) => (until?.get(name) ?? 0) > now),
  );
  const asked = callableWitnesses(witnessing.policy)
    .map((witness) => witness.name)
    .filter((name) => !resting.has(name));
  return quorumMet(witnessing.policy, new Set(asked)) ? resting : new Set();
}

function noteUnreachable(witnessing: Witnessing, results: WitnessResult[]): void {
  const until = unreachableUntil.get(witnessing) ?? new Map<string, number>();
  unreachableUntil.set(witnessing, until);
  for (const result of results) {
    if (result.outcome === 'timeout' || result.outcome === 'unreachable') {
      until.set(result.name, Date.now() + (witnessing.restMs ?? UNREACHABLE_REST_MS));
    } else {
      until.delete(result.name);
    }
  }
}

export interface WitnessedHead {
  treeSize: number;
  /** The log's signed checkpoint. */
  checkpoint: string;
}

/**
 * Asks the witnesses to cosign `head` and publishes it if their cosignatures meet the quorum;
 * returns whether it did. `overlay` holds tiles written in this cycle (read from the store otherwise).
 */
export async function witnessAndPublish(options: {
  store: SequencerStore;
  owner: string;
  head: WitnessedHead;
  knownSizes: Record<string, number>;
  witnessing: Witnessing;
  overlay?: Map<string, Buffer>;
}): Promise<boolean> {
  const { store, owner, head, witnessing } = options;
  const hashes = hashesFromTiles(store.readTile, head.treeSize, options.overlay);
  const results = await collectCosignatures(
    witnessing.policy,
    {
      checkpoint: head.checkpoint,
      treeSize: head.treeSize,
      knownSizes: options.knownSizes,
      proofFrom: async (oldSize) => consistencyProof(hashes, oldSize, head.treeSize),
      skip: witnessesResting(witnessing),
    },
    { timeoutMs: witnessing.timeoutMs, fetch: witnessing.fetch },
  );
  noteUnreachable(witnessing, results);
  const witnessSizes = { ...options.knownSizes };
  for (const result of results) {
    if (result.witnessSize !== undefined) witnessSizes[result.name] = result.witnessSize;
  }
  const cosigned = new Set(
    results.filter((result) => result.outcome === 'cosigned').map((result) => result.name),
  );
  if (!quorumMet(witnessing.policy, cosigned)) {
    await store.recordWitnessing(owner, witnessSizes, undefined);
    return false;
  }
  const note = cosignedNote(head.checkpoint, results);
  // The file first: a crash before the state is written leaves it unpublished, and the retry
  // (with fresh cosignatures) finds the file written and publishes.
  await store.writeCheckpoint(head.treeSize, note);
  await store.recordWitnessing(owner, witnessSizes, { treeSize: head.treeSize, checkpoint: note });
  return true;
}
