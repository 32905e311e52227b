/**
 * Checks the log against the DynamoDB chains (part of `npm run ledger -- verify`): each
 * integrated event's leaf sits at its recorded index, the tree size equals the number of
 * integrated events, the tiles give the published root, and the checkpoint is signed by the
 * published key.
 */

import { storedLedger } from '#repositories/stored-ledger.js';
import { verifyCheckpoint } from '../../../verifier/index.js';
import type { LedgerEvent } from './ledger-event.js';
import { hashesFromTiles } from './log-tiles.js';
import { leafHashOf, treeRoot } from './log-tree.js';

export interface LogProblem {
  chainId: string | null;
  sequence: number | null;
  reason: string;
}

export interface LogAudit {
  treeSize: number;
  integratedEvents: number;
  problems: LogProblem[];
  /** Checks one chain's events against the log; call for every chain, then `finish`. */
  checkChain(chainId: string, events: LedgerEvent[]): Promise<void>;
  /** The whole-log checks, once every chain was checked (`wholeLog`: every chain was). */
  finish(wholeLog: boolean): Promise<void>;
}

/** Starts an audit of the log as published now. */
export async function startLogAudit(): Promise<LogAudit> {
  const state = await storedLedger.state.read();
  const hashes = hashesFromTiles(storedLedger.files.readTile, state.treeSize);
  const seenIndexes = new Set<number>();
  const audit: LogAudit = {
    treeSize: state.treeSize,
    integratedEvents: 0,
    problems: [],
    async checkChain(chainId, events) {
      const indexes = await storedLedger.state.chainLogIndexes(chainId);
      for (const event of events) {
        const index = indexes.get(event.sequence);
        if (index === undefined) continue; // committed, not yet integrated (in the outbox)
        audit.integratedEvents++;
        const problem = (reason: string) =>
          audit.problems.push({ chainId, sequence: event.sequence, reason });
        if (seenIndexes.has(index)) problem(`log index ${index} is claimed by two events`);
        seenIndexes.add(index);
        if (index >= state.treeSize) {
          problem(`log index ${index} is outside the published tree of ${state.treeSize}`);
          continue;
        }
        const leaf = await hashes.hashAt(0, index);
        if (!leaf.equals(leafHashOf(Buffer.from(event.hash, 'hex')))) {
          problem(`the log's leaf at index ${index} is not this event's hash`);
        }
      }
    },
    async finish(wholeLog) {
      const problem = (reason: string) => audit.problems.push({ chainId: null, sequence: null, reason });
      if (wholeLog && audit.integratedEvents !== state.treeSize) {
        problem(
          `the log holds ${state.treeSize} entries but ${audit.integratedEvents} events are integrated`,
        );
      }
      if (!state.checkpoint || !state.verifierKey) return;
      const root = await treeRoot(hashes, state.treeSize);
      if (root.toString('hex') !== state.rootHash)
        problem("the tiles do not give the published checkpoint's root");
      const checkpoint = await verifyCheckpoint(state.checkpoint, state.verifierKey);
      if (!checkpoint.ok || checkpoint.rootHash !== state.rootHash) {
        problem(`the published checkpoint does not verify: ${checkpoint.reason ?? 'another root'}`);
      }
    },
  };
  return audit;
}
