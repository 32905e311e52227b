/**
 * What the browser fetches to verify the ledger itself: an object's events, each event's
 * C2SP tlog-proof against one checkpoint, and the log's checkpoint, key and consistency proofs.
 * Checking is left to the shared verifier module (`verifier/`), the offline auditor's own code.
 */
import {
  BUNDLE_FORMAT,
  type CheckpointVerdict,
  type LedgerBundle,
  parseTlogProof,
  verifyCheckpoint,
  verifyConsistency,
} from '../../../verifier/index';
import { type ApiClient, ApiError, dataOf, type Schemas } from '../api-client';
import type { PinnedCheckpoint } from './trust';

const EVENTS_PAGE_SIZE = 100;
/** Parallel proof requests: enough to hide latency, few enough not to trip a usage plan's burst. */
const PROOF_CONCURRENCY = 6;
/** How often a proof is asked again while its event waits for the next checkpoint. */
const NOT_YET_LOGGED_ATTEMPTS = 15;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every event of an object, oldest first: page 1, then each `nextCursor` to the end, so that
 * every page costs the API what page 1 costs (an offset reads every event it skips).
 */
async function allEvents(client: ApiClient, objectId: string): Promise<Schemas['LedgerEvent'][]> {
  const events: Schemas['LedgerEvent'][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await dataOf(
      client.api.GET('/v2/objects/{objectId}/events', {
        params: { path: { objectId }, query: { limit: EVENTS_PAGE_SIZE, cursor } },
      }),
    );
    events.push(...page.data);
    if (!page.pagination.hasNext) return events;
    if (!page.pagination.nextCursor)
      throw new Error('The API returned a page of events with more after it but no nextCursor');
    cursor = page.pagination.nextCursor;
  }
}

/** One event's tlog-proof; waits (Retry-After) while the event is not in a checkpoint yet. */
async function tlogProof(
  client: ApiClient,
  objectId: string,
  sequence: number,
  treeSize?: number,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dataOf(
        client.api.GET('/v2/objects/{objectId}/events/{sequence}/proof', {
          params: {
            path: { objectId, sequence: String(sequence) },
            query: { format: 'tlog-proof', treeSize },
          },
          parseAs: 'text',
        }),
      );
    } catch (error) {
      if (
        !(error instanceof ApiError) ||
        error.code !== 'EVENT_NOT_YET_LOGGED' ||
        attempt >= NOT_YET_LOGGED_ATTEMPTS
      )
        throw error;
      await delay(1000);
    }
  }
}

/** Runs `work` on every item with at most `limit` at a time; results in item order. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The object's verification bundle, in the offline verifier's format: the last event's proof
 * names the checkpoint (the latest one that holds it), and every other proof is asked against
 * that same tree size, so that all proofs share one checkpoint.
 */
export async function fetchBundle(
  client: ApiClient,
  objectId: string,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<LedgerBundle> {
  const [object, events, verifierKey] = await Promise.all([
    dataOf(client.api.GET('/v2/objects/{objectId}', { params: { path: { objectId } } })),
    allEvents(client, objectId),
    ledgerText(client, '/v2/ledger/key'),
  ]);
  const last = events.at(-1);
  if (!last) throw new Error('The object has no events to verify');
  const lastProof = await tlogProof(client, objectId, last.sequence);
  const { checkpoint } = parseTlogProof(lastProof);
  const treeSize = treeSizeOf(checkpoint);
  let done = 1;
  onProgress(done, events.length);
  const earlier = await inParallel(events.slice(0, -1), PROOF_CONCURRENCY, async (event) => {
    const proof = await tlogProof(client, objectId, event.sequence, treeSize);
    onProgress(++done, events.length);
    return proof;
  });
  return {
    format: BUNDLE_FORMAT,
    object: object as unknown as Record<string, unknown>,
    events: events as unknown as Record<string, unknown>[],
    proofs: [...earlier, lastProof],
    checkpoint,
    verifierKey: verifierKey.trim(),
  };
}

/** The log's signed checkpoint note, or its verifier key, as the text the log publishes. */
function ledgerText(client: ApiClient, path: '/v2/ledger/checkpoint' | '/v2/ledger/key'): Promise<string> {
  return dataOf(client.api.GET(path, { parseAs: 'text' }));
}

/** The tree size a checkpoint note states (unverified: only to ask for proofs against it). */
function treeSizeOf(checkpoint: string): number {
  const size = Number(checkpoint.split('\n')[1]);
  if (!Number.isSafeInteger(size) || size < 1)
    throw new Error('The proof carries a checkpoint without a tree size');
  return size;
}

export interface LatestCheckpoint {
  checkpoint: string;
  verdict: CheckpointVerdict;
  /** The key used: the visitor's, or the one the server publishes. */
  verifierKey: string;
  keySource: 'entered' | 'server';
  fetchedAt: string;
}

/** The log's latest checkpoint, verified against the trusted key (or the server's when none is entered). */
export async function latestCheckpoint(
  client: ApiClient,
  enteredKey: string | undefined,
): Promise<LatestCheckpoint> {
  const [checkpoint, serverKey] = await Promise.all([
    ledgerText(client, '/v2/ledger/checkpoint'),
    enteredKey ? Promise.resolve(enteredKey) : ledgerText(client, '/v2/ledger/key'),
  ]);
  const verifierKey = (enteredKey ?? serverKey).trim();
  return {
    checkpoint,
    verdict: await verifyCheckpoint(checkpoint, verifierKey),
    verifierKey,
    keySource: enteredKey ? 'entered' : 'server',
    fetchedAt: new Date().toISOString(),
  };
}

/** Whether the current log still extends the pinned checkpoint; the reason when it does not. */
export async function checkAgainstPin(
  client: ApiClient,
  pinned: PinnedCheckpoint,
  current: LatestCheckpoint,
): Promise<{ consistent: boolean; reason?: string }> {
  const { verdict } = current;
  if (!verdict.ok || verdict.treeSize === undefined || !verdict.rootHash)
    return { consistent: false, reason: `the current checkpoint does not verify: ${verdict.reason}` };
  if (verdict.treeSize < pinned.treeSize)
    return {
      consistent: false,
      reason: `the log shrank from ${pinned.treeSize} to ${verdict.treeSize} entries`,
    };
  if (verdict.treeSize === pinned.treeSize)
    return verdict.rootHash === pinned.rootHash
      ? { consistent: true }
      : { consistent: false, reason: `the root at size ${pinned.treeSize} changed` };
  let proof: string[];
  try {
    ({ proof } = await dataOf(
      client.api.GET('/v2/ledger/consistency', {
        params: { query: { from: pinned.treeSize, to: verdict.treeSize } },
      }),
    ));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500 || error.status === 0) throw error;
    return {
      consistent: false,
      reason: `the log cannot prove that it extends size ${pinned.treeSize}: ${error.message} (${error.code})`,
    };
  }
  const consistent = await verifyConsistency(
    pinned.treeSize,
    verdict.treeSize,
    pinned.rootHash,
    verdict.rootHash,
    proof,
  );
  return consistent
    ? { consistent: true }
    : {
        consistent: false,
        reason: `the consistency proof from size ${pinned.treeSize} to ${verdict.treeSize} does not hold: the log was rewritten`,
      };
}
