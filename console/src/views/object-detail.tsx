/** One object: its fields and metadata, its files (with download), and its event timeline. */
import { dataOf, type Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { PagedList } from '../components/paged-list';
import { useCursorStack } from '../components/pagination';
import { routeHref } from '../router';
import { useRequest } from '../use-request';
import { EventTimeline } from './event-timeline';
import { ObjectFiles } from './object-files';

export function ObjectDetailView({ objectId }: { objectId: string }) {
  const client = useClient();
  const object = useRequest(
    () => dataOf(client.api.GET('/v2/objects/{objectId}', { params: { path: { objectId } } })),
    [objectId],
  );
  return (
    <main id="main">
      <p>
        <a href={routeHref(['objects'])}>← Objects</a>
      </p>
      <ErrorNotice error={object.error} />
      {object.data && <ObjectSummary object={object.data} />}
      {object.data && <ObjectFiles key={objectId} objectId={objectId} />}
      {object.data && <ObjectEvents key={objectId} objectId={objectId} />}
    </main>
  );
}

function ObjectSummary({ object }: { object: Schemas['Object'] }) {
  const rows: [string, string][] = [
    ['Id', object.id],
    ['External id', object.externalId],
    ['Description', object.description],
    ['Summary', object.summary ?? '—'],
    ['Owner', object.owner],
    ['Status', object.status],
    ['Category id', object.categoryId],
    ['Subcategory id', object.subcategoryId],
    ['Created', object.createdAt],
    ['Updated', object.updatedAt],
    ['First transaction (txId)', object.blockchain.txId],
    ['Last transaction (lastTxId)', object.blockchain.lastTxId],
    ['Events', String(object.blockchain.eventCount)],
  ];
  return (
    <section aria-labelledby="object-title">
      <h1 id="object-title">{object.name}</h1>
      <p>
        <a class="button" href={routeHref(['objects', object.id, 'verify'])}>
          Verify this object in your browser
        </a>
      </p>
      <dl class="fields">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd class={/Id|tx/i.test(label) ? 'mono' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Metadata</h2>
      <pre class="json">{JSON.stringify(object.metadata, null, 2)}</pre>
    </section>
  );
}

function ObjectEvents({ objectId }: { objectId: string }) {
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
    <section aria-labelledby="events-title">
      <h2 id="events-title">Event timeline</h2>
      <PagedList
        label="Events"
        request={events}
        empty="No events."
        pages={pages}
        render={(items) => <EventTimeline events={items} />}
      />
    </section>
  );
}
