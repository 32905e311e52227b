/**
 * Ledger events, oldest first: action, a readable line per change (names beside ids, when a
 * catalogue is given), who and when, and the hashes. A verdict per event, when given, marks it
 * verified or failed with the reason.
 */
import type { Schemas } from '../api-client';
import type { Catalogue } from '../components/catalogue';
import { changeLines } from './change-text';

export interface EventMark {
  ok: boolean;
  reason?: string;
}

export function EventTimeline({
  events,
  marks,
  catalogue,
  principalName = (principal) => principal,
}: {
  events: Schemas['LedgerEvent'][];
  marks?: Map<number, EventMark>;
  /** Names categories and subcategories beside their ids. */
  catalogue?: Catalogue;
  /** How a principal reads (a key's label beside `apiKey:<id>`). */
  principalName?: (principal: string) => string;
}) {
  if (events.length === 0) return <p>No events.</p>;
  return (
    <ol class="timeline">
      {events.map((event) => {
        const mark = marks?.get(event.sequence);
        return (
          <li
            key={event.sequence}
            class={mark ? (mark.ok ? 'event verified' : 'event failed') : 'event'}
            data-sequence={event.sequence}
          >
            <h3>
              #{event.sequence} {event.action}
              {mark && (
                <span class={mark.ok ? 'verdict ok' : 'verdict bad'}>
                  {mark.ok ? ' ✔ verified' : ` ✘ failed: ${mark.reason ?? 'unknown reason'}`}
                </span>
              )}
            </h3>
            {Object.keys(event.changes ?? {}).length > 0 && (
              <ul class="changes" aria-label={`Changes of event ${event.sequence}`}>
                {changeLines(event.changes, catalogue).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
            <dl class="fields compact">
              {event.eventDescription && (
                <div>
                  <dt>Description</dt>
                  <dd>{event.eventDescription}</dd>
                </div>
              )}
              <div>
                <dt>Performed by</dt>
                <dd>{event.performedBy ?? '—'}</dd>
              </div>
              <div>
                <dt>Principal</dt>
                <dd>{principalName(event.principal)}</dd>
              </div>
              <div>
                <dt>Time</dt>
                <dd>{event.timestamp}</dd>
              </div>
              <div>
                <dt>Hash</dt>
                <dd class="mono">{event.hash}</dd>
              </div>
              <div>
                <dt>Previous hash</dt>
                <dd class="mono">{event.prevHash}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ol>
  );
}
