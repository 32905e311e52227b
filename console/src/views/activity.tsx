/**
 * The company's activity (`GET /v2/events`): every event of its objects and subcategories over
 * a chosen period, newest first, by cursor pages, filtered by action; printable for the file.
 * The period and the action live in the route; days are whole UTC days, the last one included.
 */
import { useState } from 'preact/hooks';
import type { Schemas } from '../api-client';
import { type Catalogue, useCatalogue } from '../components/catalogue';
import { useClient } from '../components/client-context';
import { PagedList } from '../components/paged-list';
import { type Route, routeHref } from '../router';
import { principalName } from '../session';
import { changeLines } from './change-text';
import { useRoutedList } from './list-route';

const ACTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Every action' },
  { value: 'create', label: 'Object created' },
  { value: 'update', label: 'Object updated' },
  { value: 'transfer', label: 'Object transferred' },
  { value: 'repair', label: 'Object repaired' },
  { value: 'report_stolen', label: 'Object reported stolen' },
  { value: 'file_upload', label: 'File uploaded' },
  { value: 'file_delete', label: 'File deleted' },
  { value: 'CREATE', label: 'Subcategory created' },
  { value: 'CHANGE', label: 'Subcategory changed' },
  { value: 'ACTIVATE', label: 'Subcategory activated' },
  { value: 'DEACTIVATE', label: 'Subcategory deactivated' },
  { value: 'REMOVE', label: 'Subcategory removed' },
];

const DAY_MS = 86_400_000;
/** A day (`2026-12-31`) → its first instant in UTC; the day after it for the period's end. */
const startOf = (day: string, after = false): string =>
  day ? new Date(Date.parse(`${day}T00:00:00Z`) + (after ? DAY_MS : 0)).toISOString() : '';
/** An instant → the day the form shows (the day before it for the period's end). */
const dayOf = (instant: string, before = false): string =>
  instant ? new Date(Date.parse(instant) - (before ? DAY_MS : 0)).toISOString().slice(0, 10) : '';

export function ActivityView({ route }: { route: Route }) {
  const client = useClient();
  const catalogue = useCatalogue();
  const { list, page } = useRoutedList(route, '/v2/events', { since: '', until: '', action: '' });
  const { since = '', until = '', action = '' } = list.values;
  const period =
    since || until ? `${dayOf(since) || 'the start'} to ${dayOf(until, true) || 'today'}` : 'all time';
  return (
    <main id="main">
      <h1>Activity</h1>
      <p class="print-only">
        Events of {period}
        {action ? `, ${ACTIONS.find((entry) => entry.value === action)?.label ?? action}` : ''}, newest first.
      </p>
      <PeriodForm key={list.key} values={list.values} onApply={list.applyFilters} />
      <PagedList
        label="Activity"
        request={page}
        empty="No event in this period."
        pages={list}
        rowKey={(event) => `${event.objectId ?? event.subcategoryId}:${event.sequence}`}
        rowHref={(event) => (event.objectId ? routeHref(['objects', event.objectId]) : '')}
        columns={[
          { header: 'Time (UTC)', cell: (event) => event.timestamp, class: 'nowrap' },
          {
            header: 'Action',
            cell: (event) => ACTIONS.find((entry) => entry.value === event.action)?.label ?? event.action,
          },
          { header: 'Of', cell: (event) => subjectOf(event, catalogue) },
          {
            header: 'Changes',
            class: 'changes',
            cell: (event) => (
              <ul>
                {changeLines(event.changes, catalogue).map((line) => (
                  <li key={line}>{line}</li>
                ))}
                {event.eventDescription && <li>“{event.eventDescription}”</li>}
              </ul>
            ),
          },
          { header: 'By', cell: (event) => principalName(client.session, event.principal) },
          { header: 'Event', cell: (event) => `#${event.sequence}` },
        ]}
      />
    </main>
  );
}

/** What the event belongs to: its object (a link), or its subcategory by name. */
function subjectOf(event: Schemas['ActivityEvent'], catalogue: Catalogue | undefined) {
  if (event.objectId)
    return (
      <a href={routeHref(['objects', event.objectId])}>
        {event.externalId ?? `removed object ${event.objectId}`}
      </a>
    );
  const name = catalogue?.subcategoryName(event.subcategoryId);
  return `Subcategory ${name ?? event.subcategoryId ?? ''}`;
}

function PeriodForm({
  values,
  onApply,
}: {
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
}) {
  const [draft, setDraft] = useState({
    from: dayOf(values.since ?? ''),
    to: dayOf(values.until ?? '', true),
    action: values.action ?? '',
  });
  const submit = (event: Event) => {
    event.preventDefault();
    onApply({ since: startOf(draft.from), until: startOf(draft.to, true), action: draft.action });
  };
  return (
    <form class="filters no-print" onSubmit={submit} aria-label="Period">
      <div class="field">
        <label for="activity-from">From (UTC day)</label>
        <input
          id="activity-from"
          type="date"
          value={draft.from}
          onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="activity-to">To (UTC day, included)</label>
        <input
          id="activity-to"
          type="date"
          value={draft.to}
          onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="activity-action">Action</label>
        <select
          id="activity-action"
          value={draft.action}
          onChange={(event) => setDraft({ ...draft, action: event.currentTarget.value })}
        >
          {ACTIONS.map((entry) => (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Show</button>
      <button type="button" onClick={() => print()}>
        Print
      </button>
    </form>
  );
}
