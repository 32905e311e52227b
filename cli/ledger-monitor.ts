/**
 * The log monitor an auditor runs from cron (`npm run ledger -- monitor --state <file>`): it
 * remembers the last checkpoint it accepted, fetches the latest one and the consistency proof
 * between them, and refuses a bad signature, a shrinking log or a fork (two trees that are not
 * one the prefix of the other).
 */
import {
  parseCheckpointBody,
  splitNote,
  toHex,
  verifyCheckpoint,
  verifyConsistency,
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

/** One monitor run: the new state to keep when ok, or why the log must not be trusted. */
export async function monitorLog(
  source: LogSource,
  trustedKey: string,
  state: MonitorState,
): Promise<MonitorVerdict> {
  const latest = await source.checkpoint();
  const verdict = await verifyCheckpoint(latest, trustedKey);
  if (!verdict.ok || verdict.treeSize === undefined || !verdict.rootHash) {
    return { ok: false, message: `BAD SIGNATURE: the latest checkpoint does not verify: ${verdict.reason}` };
  }
  if (!state.checkpoint) {
    return {
      ok: true,
      message: `first checkpoint: tree size ${verdict.treeSize}, root ${verdict.rootHash}`,
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
    return { ok: true, message: `unchanged: tree size ${verdict.treeSize}`, state };
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
    message: `consistent: tree size ${previous.treeSize} -> ${verdict.treeSize}, root ${verdict.rootHash}`,
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
