/**
 * What the browser fetches to verify the ledger itself: an object's bundle (its events, each
 * event's C2SP tlog-proof against one checkpoint), and the log's checkpoint, key and consistency proofs.
 * Checking is left to the shared verifier module (`verifier/`), the offline auditor's own code.
 */
import {
  BUNDLE_FORMAT,
  type CheckpointVerdict,
  type LedgerBundle,
  verifyCheckpoint,
  verifyConsistency,
} from '../../../verifier/index';
import { type ApiClient, ApiError, dataOf } from '../api-client';
import type { PinnedCheckpoint } from './trust';

/** How often the bundle is asked again while the object's last event waits for the next checkpoint. */
const NOT_YET_LOGGED_ATTEMPTS = 15;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The object's verification bundle, in the offline verifier's format, in one request
 * (`GET /v2/objects/{objectId}/bundle`: the server builds every proof against one checkpoint
 * from the log's tiles); waits (Retry-After) while the last event is not in a checkpoint yet.
 * `asOf` asks for the object as it stood at that instant (its events up to then);
 * `onProgress` gets the bytes received so far, for long histories.
 */
export async function fetchBundle(
  client: ApiClient,
  objectId: string,
  {
    asOf,
    onProgress = () => undefined,
  }: { asOf?: string; onProgress?: (receivedBytes: number) => void } = {},
): Promise<LedgerBundle> {
  for (let attempt = 1; ; attempt++) {
    try {
      const stream = await dataOf(
        client.api.GET('/v2/objects/{objectId}/bundle', {
          params: { path: { objectId }, query: asOf ? { asOf } : {} },
          parseAs: 'stream',
        }),
      );
      const bundle = JSON.parse(await readWithProgress(stream as ReadableStream<Uint8Array>, onProgress));
      if (bundle?.format !== BUNDLE_FORMAT) throw new Error('The API answered something other than a bundle');
      return bundle as LedgerBundle;
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

/** A response body as text, telling `onProgress` the bytes received after each chunk. */
async function readWithProgress(
  stream: ReadableStream<Uint8Array>,
  onProgress: (receivedBytes: number) => void,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    text += decoder.decode(value, { stream: true });
    onProgress(received);
  }
}

/** The log's signed checkpoint note, or its verifier key, as the text the log publishes. */
function ledgerText(client: ApiClient, path: '/v2/ledger/checkpoint' | '/v2/ledger/key'): Promise<string> {
  return dataOf(client.api.GET(path, { parseAs: 'text' }));
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
