/**
 * The log monitor an auditor runs from cron (`npm run ledger -- monitor --state <file>`): it
 * remembers the last checkpoint it accepted, fetches the latest one and the consistency proof
 * between them, and refuses a bad signature, a shrinking log or a fork (two trees that are not
 * one the prefix of the other). Given a witness policy (c2sp.org/tlog-policy), it also refuses
 * a checkpoint whose cosignatures do not meet the policy's quorum, naming the missing
 * witnesses: a fork shown only to this monitor is one the honest witnesses did not cosign.
 */
import {
  parseCheckpointBody,
  splitNote,
  toHex,
  verifyCheckpoint,
  verifyConsistency,
  verifyWitnessedCheckpoint,
  type WitnessPolicy,
} from '../verifier/index.js';

/** Where the monitor reads the log from (the API, or in tests the handlers). */
export interface LogSource {
  checkpoint(): Promise<string>;
  consistency(from: number, to: number): Promise<string[]>;
}

export interface MonitorState {
  /** The last accepted checkpoint (signed note). */
  checkpoint?: string;
}

export type MonitorVerdict =
  | { ok: true; message: string; state: MonitorState }
  | { ok: false; message: string };

/** What the monitor trusts: the log's key, and optionally a witness policy (its `log` keys count too). */
interface MonitorTrust {
  verifierKey?: string;
  policy?: WitnessPolicy;
}

type LatestVerdict =
  | { ok: true; treeSize: number; rootHash: string; witnessed: string }
  | { ok: false; message: string };

/** The latest checkpoint's signature, and with a policy its cosignatures. */
async function checkLatest(latest: string, { verifierKey, policy }: MonitorTrust): Promise<LatestVerdict> {
  const verdict = policy
    ? await verifyWitnessedCheckpoint(latest, policy, verifierKey)
    : verifierKey
      ? await verifyCheckpoint(latest, verifierKey)
      : { ok: false, reason: 'no log key to trust was given' };
  // A policy's verdict has a tree size only once the log's signature verified.
  if (verdict.treeSize === undefined || !verdict.rootHash) {
    return { ok: false, message: `BAD SIGNATURE: the latest checkpoint does not verify: ${verdict.reason}` };
  }
  if (!verdict.ok) {
    return {
      ok: false,
      message: `NOT WITNESSED: the checkpoint at tree size ${verdict.treeSize} is refused: ${verdict.reason}`,
    };
  }
  const cosigned = 'cosigned' in verdict ? verdict.cosigned : undefined;
  return {
    ok: true,
    treeSize: verdict.treeSize,
    rootHash: verdict.rootHash,
    witnessed: cosigned ? `; cosigned by ${cosigned.join(', ') || 'no witness'}` : '',
  };
}

/**
 * One monitor run: the new state to keep when ok, or why the log must not be trusted. `trust`
 * is the log's verifier key line, or a key and/or a witness policy.
 *
 * @example
 * const verdict = await monitorLog(apiLogSource(url, apiKey), { policy }, saved);
 * if (!verdict.ok) console.error(verdict.message); // e.g. "NOT WITNESSED: ... missing auditor"
 */
export async function monitorLog(
  source: LogSource,
  trust: string | MonitorTrust,
  state: MonitorState,
): Promise<MonitorVerdict> {
  const latest = await source.checkpoint();
  const verdict = await checkLatest(latest, typeof trust === 'string' ? { verifierKey: trust } : trust);
  if (!verdict.ok) return verdict;
  const { witnessed } = verdict;
  if (!state.checkpoint) {
    return {
      ok: true,
      message: `first checkpoint: tree size ${verdict.treeSize}, root ${verdict.rootHash}${witnessed}`,
      state: { checkpoint: latest },
    };
  }
  const previous = parseCheckpointBody(splitNote(state.checkpoint).text);
  const previousRoot = toHex(previous.rootHash);
  if (verdict.treeSize < previous.treeSize) {
    return { ok: false, message: `SHRINKING LOG: tree size ${verdict.treeSize} after ${previous.treeSize}` };
  }
  if (verdict.treeSize === previous.treeSize) {
    if (verdict.rootHash !== previousRoot) {
      return {
        ok: false,
        message: `FORK: two roots for tree size ${verdict.treeSize}: ${previousRoot} and ${verdict.rootHash}`,
      };
    }
    return { ok: true, message: `unchanged: tree size ${verdict.treeSize}${witnessed}`, state };
  }
  const proof = await source.consistency(previous.treeSize, verdict.treeSize);
  if (
    !(await verifyConsistency(previous.treeSize, verdict.treeSize, previousRoot, verdict.rootHash, proof))
  ) {
    return {
      ok: false,
      message: `FORK: the checkpoint at ${verdict.treeSize} is not consistent with the one at ${previous.treeSize}`,
    };
  }
  return {
    ok: true,
    message: `consistent: tree size ${previous.treeSize} -> ${verdict.treeSize}, root ${verdict.rootHash}${witnessed}`,
    state: { checkpoint: latest },
  };
}

/** The log as the API serves it, read with any valid API key. */
export function apiLogSource(baseUrl: string, apiKey: string): LogSource {
  const get = async (path: string) => {
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
      headers: { 'X-API-Key': apiKey },
    });
    if (!response.ok) throw new Error(`GET ${path} responded ${response.status}: ${await response.text()}`);
    return response;
  };
  return {
    checkpoint: async () => (await get('/v2/ledger/checkpoint')).text(),
    consistency: async (from, to) =>
      ((await (await get(`/v2/ledger/consistency?from=${from}&to=${to}`)).json()) as { proof: string[] })
        .proof,
  };
}
