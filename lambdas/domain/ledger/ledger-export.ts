/**
 * An object's offline-verifiable bundle (`npm run ledger -- export --object <id>`): the object
 * and its events as the API shows them, each event's tlog-proof against the latest checkpoint,
 * the checkpoint and the verifier key. The shared verifier (`verifier/`) checks it.
 */
import { chainRefOf } from '#repositories/ledger-store.js';
import { findObject } from '#repositories/object-repository.js';
import { storedLedger } from '#repositories/stored-ledger.js';
import type { LedgerBundle } from '../../../verifier/index.js';
import { toObjectView } from '../objects/object-view.js';
import { toEventView } from './event-view.js';
import { eventProof, latestCheckpoint, logVerifierKey } from './log-service.js';

/** The bundle of an object by id (any company), or undefined when no such object has a chain. */
export async function exportObjectBundle(objectId: string): Promise<LedgerBundle | undefined> {
  const head = (await storedLedger.journal.listChainHeads()).find(
    (each) => each.chainId.startsWith('object:') && each.chainId.endsWith(`:${objectId}`),
  );
  if (!head) return undefined;
  const chain = chainRefOf(head.chainId);
  const record = await findObject(chain.tenantId, chain.entityId);
  if (!record) return undefined;
  const checkpoint = await latestCheckpoint();
  const events = await storedLedger.journal.readChain(chain);
  const proofs: string[] = [];
  for (const event of events)
    proofs.push((await eventProof(chain, String(event.sequence), undefined)).tlogProof);
  return {
    format: 'asset-registry-ledger-bundle@v1',
    object: toObjectView(record) as unknown as Record<string, unknown>,
    events: events.map((event) => toEventView(event) as unknown as Record<string, unknown>),
    proofs,
    checkpoint,
    verifierKey: await logVerifierKey(),
  };
}
