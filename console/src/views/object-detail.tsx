/**
 * One object: where it sits (category and subcategory, by name), its fields and metadata, its
 * files, its event timeline; Verify in place (not for a viewer: the audit trail) (of the state shown: now, or as of the instant); the object as it stood at a chosen instant (`?asOf=`, with the event
 * that set that state), and the differences between any two of its events (`?atSequence=`).
 * The instant and the two events live in the route, so that a link shows the same page.
 */
import { useState } from 'preact/hooks';
import { dataOf, type Schemas } from '../api-client';
import { Breadcrumb } from '../components/breadcrumb';
import { type Catalogue, useCatalogue } from '../components/catalogue';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { PagedList } from '../components/paged-list';
import { useCursorStack } from '../components/pagination';
import { navigate, type Route, routeHref } from '../router';
import { can, canReadAuditTrail, principalName } from '../session';
import { useRequest } from '../use-request';
import { stateDifferences, valueText } from './change-text';
import { EventTimeline } from './event-timeline';
import { ObjectFiles } from './object-files';
import { ObjectVerification } from './object-verification';
import { objectsListHref } from './objects';

type ObjectState = Schemas['Object'] | Schemas['ObjectAsOf'];

export function ObjectDetailView({ objectId, route }: { objectId: string; route: Route }) {
  const client = useClient();
  const catalogue = useCatalogue();
  const asOf = route.params.get('asOf') ?? '';
  const object = useRequest(
    () => dataOf(client.api.GET('/v2/objects/{objectId}', { params: { path: { objectId } } })),
    [objectId],
  );
  const current = object.data;
  const place = (next: Record<string, string | undefined>) =>
    navigate(['objects', objectId], { ...Object.fromEntries(route.params), ...next });
  return (
    <main id="main">
      <Breadcrumb
        trail={[
          { label: 'Objects', href: objectsListHref() },
          ...(current ? placeOf(current, catalogue) : []),
          { label: current?.name ?? '…' },
        ]}
      />
      <ErrorNotice error={object.error} />
      {current && (
        <>
          <h1 id="object-title">{current.name}</h1>
          <p class="no-print">
            <button type="button" onClick={() => print()}>
              Print this object's history
            </button>
          </p>
          {canReadAuditTrail(client.session) && (
            <ObjectVerification
              key={`${objectId}:${asOf}`}
              objectId={objectId}
              asOf={asOf || undefined}
              titleLevel={2}
            />
          )}
          <AsOf
            key={`${objectId}:${asOf}`}
            objectId={objectId}
            asOf={asOf}
            onChange={(next) => place({ asOf: next })}
          />
          {!asOf && <ObjectSummary object={current} catalogue={catalogue} />}
          {can(client.session, 'files:read') && <ObjectFiles key={objectId} objectId={objectId} />}
          <EventDiff
            key={objectId}
            object={current}
            catalogue={catalogue}
            from={route.params.get('diffFrom') ?? ''}
            to={route.params.get('diffTo') ?? ''}
            onChange={(from, to) => place({ diffFrom: from, diffTo: to })}
          />
          <ObjectEvents key={objectId} objectId={objectId} catalogue={catalogue} />
        </>
      )}
    </main>
  );
}

/** The category and subcategory crumbs, by name when the catalogue knows them. */
function placeOf(object: ObjectState, catalogue: Catalogue | undefined) {
  return [
    {
      label: catalogue?.categoryName(object.categoryId) ?? 'Category',
      href: catalogue ? routeHref(['categories', object.categoryId]) : undefined,
    },
    {
      label: catalogue?.subcategoryName(object.subcategoryId) ?? 'Subcategory',
      href: routeHref(['objects'], { categoryId: object.categoryId, subcategoryId: object.subcategoryId }),
    },
  ];
}

function ObjectSummary({ object, catalogue }: { object: ObjectState; catalogue: Catalogue | undefined }) {
  const categoryName = catalogue?.categoryName(object.categoryId);
  const subcategoryName = catalogue?.subcategoryName(object.subcategoryId);
  const rows: [string, preact.ComponentChildren, string?][] = [
    ['Id', object.id, 'mono'],
    ['External id', object.externalId],
    ['Description', object.description],
    ['Summary', object.summary ?? '—'],
    ['Owner', object.owner],
    ['Status', object.status],
    [
      'Category',
      categoryName ? (
        <a href={routeHref(['categories', object.categoryId])}>{categoryName}</a>
      ) : (
        object.categoryId
      ),
    ],
    [
      'Subcategory',
      <a
        key="subcategory"
        href={routeHref(['objects'], { categoryId: object.categoryId, subcategoryId: object.subcategoryId })}
      >
        {subcategoryName ?? object.subcategoryId}
      </a>,
    ],
    ['Created', object.createdAt],
    ['Updated', object.updatedAt],
    ['First transaction (txId)', object.blockchain.txId, 'mono'],
    ['Last transaction (lastTxId)', object.blockchain.lastTxId, 'mono'],
    ['Events', String(object.blockchain.eventCount)],
  ];
  const metadata = Object.entries(object.metadata ?? {});
  return (
    <section aria-label="Fields">
      <dl class="fields">
        {rows.map(([label, value, className]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd class={className}>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Metadata</h2>
      {metadata.length === 0 ? (
        <p>No metadata.</p>
      ) : (
        <table class="metadata">
          <caption class="visually-hidden">Metadata</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {metadata.map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{valueText(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** `2026-12-31T23:59` or with seconds, read as UTC → ISO 8601; '' for an empty field. */
const instantOf = (local: string): string => (local ? new Date(`${local}Z`).toISOString() : '');
/** ISO 8601 → the datetime-local field's value, in UTC. */
const localOf = (instant: string): string => (instant ? instant.replace(/Z$/, '') : '');

/** The object as it stood at an instant (UTC): the form, and the state with the event that set it. */
function AsOf({
  objectId,
  asOf,
  onChange,
}: {
  objectId: string;
  asOf: string;
  onChange: (asOf?: string) => void;
}) {
  const client = useClient();
  const catalogue = useCatalogue();
  const [draft, setDraft] = useState(localOf(asOf));
  const state = useRequest(
    async () =>
      asOf
        ? dataOf(
            client.api.GET('/v2/objects/{objectId}', { params: { path: { objectId }, query: { asOf } } }),
          )
        : undefined,
    [objectId, asOf],
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const instant = draft ? new Date(`${draft}Z`) : undefined;
    onChange(instant && !Number.isNaN(instant.getTime()) ? instantOf(draft) : undefined);
  };
  const shown = state.data;
  return (
    <section aria-labelledby="as-of-title">
      <h2 id="as-of-title">{asOf ? `As it stood at ${asOf}` : 'As it stood at another time'}</h2>
      <form class="filters no-print" onSubmit={submit} aria-label="As of">
        <div class="field">
          <label for="as-of">As of (UTC)</label>
          <input
            id="as-of"
            type="datetime-local"
            step="0.001"
            value={draft}
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
        </div>
        <button type="submit">Show as of then</button>
        {asOf && (
          <button type="button" onClick={() => onChange(undefined)}>
            Back to now
          </button>
        )}
      </form>
      <ErrorNotice error={state.error} />
      {shown && 'asOfEvent' in shown && shown.asOfEvent && (
        <>
          <p class="notice" role="status">
            State set by event #{shown.asOfEvent.sequence} (hash{' '}
            <span class="mono">{shown.asOfEvent.hash}</span>).
          </p>
          <ObjectSummary object={shown} catalogue={catalogue} />
        </>
      )}
    </section>
  );
}

/** The differences between the states after two events (`?atSequence=`): field, before, after. */
function EventDiff({
  object,
  catalogue,
  from,
  to,
  onChange,
}: {
  object: ObjectState;
  catalogue: Catalogue | undefined;
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
}) {
  const client = useClient();
  const eventCount = object.blockchain.eventCount;
  const [draft, setDraft] = useState({ from: from || '1', to: to || String(eventCount) });
  const stateAt = (sequence: string) =>
    dataOf(
      client.api.GET('/v2/objects/{objectId}', {
        params: { path: { objectId: object.id }, query: { atSequence: Number(sequence) } },
      }),
    );
  const differences = useRequest(async () => {
    if (!from || !to) return undefined;
    const [before, after] = await Promise.all([stateAt(from), stateAt(to)]);
    return stateDifferences(before, after, catalogue);
  }, [object.id, from, to, catalogue]);
  const sequences = Array.from({ length: eventCount }, (_, index) => String(index + 1));
  const picker = (name: 'from' | 'to', label: string) => (
    <div class="field">
      <label for={`diff-${name}`}>{label}</label>
      <select
        id={`diff-${name}`}
        value={draft[name]}
        onChange={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
      >
        {sequences.map((sequence) => (
          <option key={sequence} value={sequence}>
            Event #{sequence}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section aria-labelledby="diff-title">
      <h2 id="diff-title">What changed between two events</h2>
      <form
        class="filters no-print"
        aria-label="Compare events"
        onSubmit={(event) => {
          event.preventDefault();
          onChange(draft.from, draft.to);
        }}
      >
        {picker('from', 'After event')}
        {picker('to', 'And after event')}
        <button type="submit">Compare</button>
      </form>
      <ErrorNotice error={differences.error} />
      {differences.data &&
        (differences.data.length === 0 ? (
          <p>
            Nothing tracked changed between event #{from} and event #{to}.
          </p>
        ) : (
          <table class="diff">
            <caption>
              Changes from the state after event #{from} to the state after event #{to}
            </caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {differences.data.map((row) => (
                <tr key={row.field}>
                  <th scope="row">{row.field}</th>
                  <td>{row.before}</td>
                  <td>{row.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}

function ObjectEvents({ objectId, catalogue }: { objectId: string; catalogue: Catalogue | undefined }) {
  const client = useClient();
  const pages = useCursorStack();
  const events = useRequest(
    () =>
      dataOf(
        client.api.GET('/v2/objects/{objectId}/events', {
          params: { path: { objectId }, query: { limit: 20, cursor: pages.cursor } },
        }),
      ),
    [objectId, pages.cursor],
  );
  return (
    <section aria-labelledby="events-title" class="history">
      <h2 id="events-title">Event timeline</h2>
      <PagedList
        label="Events"
        request={events}
        empty="No events."
        pages={pages}
        render={(items) => (
          <EventTimeline
            events={items}
            catalogue={catalogue}
            principalName={(principal) => principalName(client.session, principal)}
          />
        )}
      />
    </section>
  );
}
