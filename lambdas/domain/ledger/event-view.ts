/**
 * A ledger event as the API and the CLI show it (the spec does not show one: our format). It
 * carries every field the hash covers (docs/ledger.md, "Canonical event serialization"), so anyone
 * can recompute `hash` from the response alone, plus `txId`.
 */
import { ledgerEventEntity } from '#repositories/ledger-event-entity.js';
import { computed, defineView, type ViewOf } from '#shared/entity.js';
import type { LedgerEvent } from './ledger-event.js';

export const ledgerEventView = defineView(ledgerEventEntity, {
  name: 'LedgerEvent',
  description: "Extension (spec 2.7: not shown): one event of an object's ledger chain",
  fields: {
    txId: computed(ledgerEventEntity.attributes.hash.schema, { description: 'equals `hash`' }),
  },
});
export type LedgerEventView = ViewOf<typeof ledgerEventView>;

export const toEventView = (event: LedgerEvent): LedgerEventView =>
  ledgerEventView.toView(event, { txId: event.hash });
