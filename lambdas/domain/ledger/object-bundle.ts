/**
 * An object's offline-verifiable bundle (`GET /v2/objects/{objectId}/bundle`, the console's
 * Verify, `npm run ledger -- export`): the object as GET object answers it (as of a moment when
 * one is asked), its events up to then as the events list shows them, each event's tlog-proof
 * against the latest checkpoint, the checkpoint and the verifier key. The shared verifier
 * (`verifier/`) checks it.
 */
import { chainRefOf } from '#repositories/ledger-store.js';
import { storedJournal } from '#repositories/stored-ledger.js';
import { BUNDLE_FORMAT, type LedgerBundle } from '../../../verifier/index.js';
import { type ObjectMoment, objectAtMoment } from '../objects/object-service.js';
import { toEventView } from './event-view.js';
import { eventProofs, logVerifierKey } from './log-service.js';

/**
 * The bundle of a company's object; the errors of GET object with `asOf` (404
 * `OBJECT_NOT_FOUND`, 400 `VALIDATION_ERROR`), and 409 `EVENT_NOT_YET_LOGGED` while one of
 * its events waits for the next checkpoint.
 *
 * @example
 * const bundle = await objectBundle(companyId, objectId, { atSequence: 3 });
 * (await verifyBundle(bundle, trustedKey)).ok; // true
 */
export async function objectBundle(
  companyId: string,
  objectId: string,
  moment: ObjectMoment = {},
): Promise<LedgerBundle> {
  const { view, chain, events } = await objectAtMoment(companyId, objectId, moment);
  const [{ checkpoint, proofs }, verifierKey] = await Promise.all([
    eventProofs(chain, events),
    logVerifierKey(),
  ]);
  return {
    format: BUNDLE_FORMAT,
    object: view as unknown as Record<string, unknown>,
    events: events.map((event) => toEventView(event) as unknown as Record<string, unknown>),
    proofs,
    checkpoint,
    verifierKey,
  };
}

/**
 * The bundle of an object of any company, found by its chain (the operator's `ledger export`
 * with table access and no key); undefined when no object chain has that id.
 */
export async function objectBundleOfAnyCompany(
  objectId: string,
  moment: ObjectMoment = {},
): Promise<LedgerBundle | undefined> {
  const head = (await storedJournal.listChainHeads()).find(
    (each) => each.chainId.startsWith('object:') && each.chainId.endsWith(`:${objectId}`),
  );
  return head && objectBundle(chainRefOf(head.chainId).tenantId, objectId, moment);
}
