/**
 * A small real log for witness tests: RFC 6962 trees over numbered entries (built with the
 * log's own `log-tree.ts`), checkpoints signed with the project's `signCheckpoint`, and
 * add-checkpoint bodies (C2SP tlog-witness). A fork is a second log under the same key whose
 * entries differ from `forkAt` on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LogSigner, localSigner, signCheckpoint } from '../../lambdas/domain/ledger/log-signer';
import {
  consistencyProof,
  leafHashOf,
  type StoredHashes,
  treeRoot,
} from '../../lambdas/domain/ledger/log-tree';
import { formatVerifierKey } from '../../verifier/index';
import type { WitnessStep } from '../../witness/witness';

export interface TestLog {
  signer: LogSigner;
  /** The log's verifier key (type 0x01), as a witness is given it. */
  verifierKey: string;
  root(size: number): Promise<Buffer>;
  proof(oldSize: number, newSize: number): Promise<Buffer[]>;
  /** The signed checkpoint of the first `size` entries (or of any root given). */
  checkpoint(size: number, rootHash?: Uint8Array): Promise<string>;
  /** An add-checkpoint body from `oldSize` to the checkpoint of `size`, with its real proof. */
  body(oldSize: number, size: number): Promise<string>;
  /** The same log signer and key over other entries from `forkAt` on: a split view. */
  fork(forkAt: number): TestLog;
}

/** The body of an add-checkpoint request. */
export const addCheckpointBody = (oldSize: number, proof: Uint8Array[], checkpoint: string): string =>
  `old ${oldSize}\n${proof.map((hash) => `${Buffer.from(hash).toString('base64')}\n`).join('')}\n${checkpoint}`;

/** Trees of fewer than 256 entries read only level-0 hashes: the leaves. */
const MAX_ENTRIES = 255;

function makeLog(signer: LogSigner, verifierKey: string, entryOf: (index: number) => string): TestLog {
  const leaves: StoredHashes = {
    hashAt: async (tileLevel, index) => {
      if (tileLevel !== 0 || index >= MAX_ENTRIES) throw new Error('a test log has fewer than 256 entries');
      return leafHashOf(Buffer.from(entryOf(index)));
    },
  };
  const log: TestLog = {
    signer,
    verifierKey,
    root: (size) => treeRoot(leaves, size),
    proof: (oldSize, newSize) => consistencyProof(leaves, oldSize, newSize),
    checkpoint: async (size, rootHash) =>
      (await signCheckpoint(signer, size, rootHash ?? (await log.root(size)))).checkpoint,
    body: async (oldSize, size) =>
      addCheckpointBody(oldSize, await log.proof(oldSize, size), await log.checkpoint(size)),
    fork: (forkAt) =>
      makeLog(signer, verifierKey, (index) => (index < forkAt ? entryOf(index) : `fork ${entryOf(index)}`)),
  };
  return log;
}

/** A new log with its own key (in a temporary folder) named `origin`. */
export async function testLog(origin = 'log.example/test'): Promise<TestLog> {
  const signer = localSigner(origin, join(mkdtempSync(join(tmpdir(), 'witness-log-')), 'log-key.pem'));
  return makeLog(
    signer,
    await formatVerifierKey(origin, await signer.publicKey()),
    (index) => `entry ${index}`,
  );
}

/**
 * Once armed, holds each add-checkpoint after all its checks passed (before it signs and
 * stores) until two got there: both were checked against the same stored size.
 */
export function verifiedBarrier() {
  let armed = false;
  let arrived = 0;
  let release!: () => void;
  const bothVerified = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    arm: () => {
      armed = true;
    },
    arrived: () => arrived,
    afterStep: async (step: WitnessStep) => {
      if (!armed || step !== 'verified') return;
      if (++arrived === 2) release();
      await bothVerified;
    },
  };
}
