/**
 * The whole-ledger check behind `npm run ledger -- verify`: every chain recomputed against its
 * head (and, for objects, against the object record), and the transparency log checked
 * against the chains (`log-audit.ts`).
 */

import { type ChainHead, chainRefOf } from '#repositories/ledger-store.js';
import { findObject } from '#repositories/object-repository.js';
import { storedLedger } from '#repositories/stored-ledger.js';
import { type ChainProblem, verifyChain } from './chain-verification.js';
import { type LogAudit, type LogProblem, startLogAudit } from './log-audit.js';

interface ChainReport {
  chainId: string;
  valid: boolean;
  eventCount: number;
  problems: ChainProblem[];
}

export interface LedgerReport {
  valid: boolean;
  chainsChecked: number;
  eventsChecked: number;
  invalidChains: ChainReport[];
  /** The log's tree size and how many of the checked events it holds. */
  log: { treeSize: number; integratedEvents: number };
  logProblems: LogProblem[];
}

async function verifyOneChain(head: ChainHead, log: LogAudit): Promise<ChainReport> {
  const chain = chainRefOf(head.chainId);
  const events = await storedLedger.journal.readChain(chain);
  await log.checkChain(head.chainId, events);
  const result = verifyChain(events, { eventCount: head.eventCount, lastTxId: head.lastHash });
  const problems = [...result.problems];
  if (chain.kind === 'object') {
    const record = await findObject(chain.tenantId, chain.entityId);
    // A record behind or ahead of its chain means one of the two was changed outside the API.
    if (
      record &&
      (record.eventCount !== head.eventCount ||
        record.lastTxId !== head.lastHash ||
        record.txId !== events[0]?.hash)
    ) {
      problems.push({
        sequence: null,
        reason: "the object's blockchain fields do not match its ledger chain",
      });
    }
  }
  return { chainId: head.chainId, valid: problems.length === 0, eventCount: events.length, problems };
}

/** Verifies every chain (or only the chains of one object id) and the log against them. */
export async function verifyLedger(options: { objectId?: string } = {}): Promise<LedgerReport> {
  const allHeads = await storedLedger.journal.listChainHeads();
  const heads = options.objectId
    ? allHeads.filter(
        (head) => head.chainId.startsWith('object:') && head.chainId.endsWith(`:${options.objectId}`),
      )
    : allHeads;
  const log = await startLogAudit();
  const reports: ChainReport[] = [];
  for (const head of heads) reports.push(await verifyOneChain(head, log));
  await log.finish(!options.objectId);
  const invalidChains = reports.filter((report) => !report.valid);
  return {
    valid: invalidChains.length === 0 && log.problems.length === 0,
    chainsChecked: reports.length,
    eventsChecked: reports.reduce((sum, report) => sum + report.eventCount, 0),
    invalidChains,
    log: { treeSize: log.treeSize, integratedEvents: log.integratedEvents },
    logProblems: log.problems,
  };
}
