/**
 * The objects list as the registry stood at an instant (issue 25 item 7): there is no list API
 * as of a date, so the page reads the as-of export as JSON Lines with the list's filters
 * (`GET /v2/objects/export?asOf=&format=jsonl`; every filter and sort applies to the state of
 * then, docs/bulk.md) and pages it here. An export too large for one response (202) becomes a
 * job: the page waits for the job, reads its file when the browser may, and otherwise says
 * so and links the file.
 */
import { useState } from 'preact/hooks';
import { type ApiClient, dataOf, type Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { PagedList } from '../components/paged-list';
import { navigate, type Route, routeHref } from '../router';
import { useRequest } from '../use-request';
import { type ExportJob, exportQuery } from './export-as-of';
import type { ListRoute } from './list-route';

type ObjectAsOf = Schemas['ObjectAsOf'];

/** Rows a page shows, as on the live list. */
const PAGE_SIZE = 20;
/** How often and how many times the page asks after an export job before leaving it to the user. */
const JOB_POLL_MS = 1_000;
const JOB_POLLS = 30;

/** What the as-of export answered: its rows, or the job still writing them. */
type AsOfAnswer = { rows: ObjectAsOf[] } | { job: ExportJob };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One object a line; blank lines skipped. */
const parseLines = (text: string): ObjectAsOf[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ObjectAsOf);

/** The objects matching `filters` as they stood at `asOf`, inline or through the export job. */
async function loadAsOf(
  client: ApiClient,
  filters: Record<string, string>,
  asOf: string,
): Promise<AsOfAnswer> {
  const response = await client.api.GET('/v2/objects/export', {
    params: { query: exportQuery(filters, 'jsonl', asOf) as never },
    parseAs: 'text',
  });
  const text = (await dataOf(Promise.resolve(response))) as string;
  if (response.response.status !== 202) return { rows: parseLines(text) };
  let job = JSON.parse(text) as ExportJob;
  for (let poll = 0; poll < JOB_POLLS && job.status === 'running'; poll++) {
    await sleep(JOB_POLL_MS);
    job = await dataOf(client.api.GET('/v2/exports/{exportId}', { params: { path: { exportId: job.id } } }));
  }
  if (job.status !== 'completed' || !job.url) return { job };
  // A presigned link: it carries its own signature, and the key must not travel to it. The
  // console's connect-src names only the API, so a bucket's link is refused: then the link.
  try {
    const file = await fetch(job.url);
    return file.ok ? { rows: parseLines(await file.text()) } : { job };
  } catch {
    return { job };
  }
}

/** Why the rows are not shown: a job too large to read here, still running or failed. */
function JobNote({ job }: { job: ExportJob }) {
  if (job.status === 'completed' && job.url)
    return (
      <>
        Too large to show here: the registry then is an export file (job {job.id}).{' '}
        <a href={job.url}>Download it ({job.rowCount ?? 0} objects)</a>
      </>
    );
  return job.status === 'failed'
    ? `The export of the registry then failed: ${job.error ?? 'no reason given'}`
    : `Too large to show here, and the export (job ${job.id}) is still being written: export it as a file below later.`;
}

/** The as-of date of the list: set, it shows the registry then; empty, the live list. */
export function AsOfForm({ asOf, onChange }: { asOf: string; onChange: (asOf: string) => void }) {
  // The input's local time is UTC here (the label says so), to the millisecond.
  const [draft, setDraft] = useState(asOf.replace(/Z$/, ''));
  const submit = (event: Event) => {
    event.preventDefault();
    const instant = draft ? new Date(`${draft}Z`) : undefined;
    if (instant && Number.isNaN(instant.getTime())) return;
    onChange(instant ? instant.toISOString() : '');
  };
  return (
    <form class="filters no-print" aria-label="As of a date" onSubmit={submit}>
      <div class="field">
        <label for="list-as-of">As of (UTC; empty: now)</label>
        <input
          id="list-as-of"
          type="datetime-local"
          step="0.001"
          value={draft}
          onInput={(event) => setDraft(event.currentTarget.value)}
        />
      </div>
      <button type="submit">Show the registry then</button>
      {asOf && (
        <button type="button" onClick={() => onChange('')}>
          Back to the live list
        </button>
      )}
    </form>
  );
}

/** The list's rows as they stood at `asOf`, paged here; each opens the object at that instant. */
export function ObjectsAsOfList({ route, list, asOf }: { route: Route; list: ListRoute; asOf: string }) {
  const client = useClient();
  const filters = JSON.stringify(list.values);
  const answer = useRequest(() => loadAsOf(client, list.values, asOf), [filters, asOf]);
  const rows = answer.data && 'rows' in answer.data ? answer.data.rows : undefined;
  const job = answer.data && 'job' in answer.data ? answer.data.job : undefined;
  const offset = list.offset ?? 0;
  const shown = rows?.slice(offset, offset + PAGE_SIZE);
  const objectHref = (object: ObjectAsOf) => routeHref(['objects', object.id], { asOf });
  const goTo = (at: number) => navigate(route.segments, { ...list.values, offset: at || undefined });
  return (
    <section aria-labelledby="as-of-list-title">
      <h2 id="as-of-list-title">The registry as of {asOf}</h2>
      <p class="notice" role="status">
        {answer.loading && !answer.data
          ? `Reading the registry as it stood at ${asOf} (UTC)…`
          : rows
            ? `The state as of ${asOf} (UTC): ${rows.length} objects matched then; objects created later are left out. Each row opens the object as it stood then.`
            : job && <JobNote job={job} />}
      </p>
      <PagedList
        label="Objects as of then"
        request={{
          ...answer,
          data: shown && {
            // The export's rows are the object's fields as of then, and a page of them is a page.
            data: shown as Schemas['Object'][],
            pagination: {
              offset,
              limit: PAGE_SIZE,
              total: rows?.length ?? 0,
              hasPrevious: offset > 0,
              hasNext: offset + PAGE_SIZE < (rows?.length ?? 0),
              nextCursor: String(offset + PAGE_SIZE),
            },
          },
        }}
        empty="No object matched then."
        pages={{
          goToNext: (next) => goTo(Number(next)),
          goToPrevious: () => goTo(Math.max(0, offset - PAGE_SIZE)),
        }}
        rowKey={(object) => object.id}
        rowHref={objectHref}
        columns={[
          {
            header: 'External id',
            cell: (object) => <a href={objectHref(object)}>{object.externalId}</a>,
          },
          { header: 'Name', cell: (object) => object.name },
          { header: 'Owner', cell: (object) => object.owner },
          { header: 'Status', cell: (object) => object.status },
          {
            header: 'Set by event',
            cell: (object) => {
              const event = (object as ObjectAsOf).asOfEvent;
              return event ? `#${event.sequence} (${event.hash.slice(0, 12)}…)` : '—';
            },
            class: 'mono',
          },
        ]}
      />
    </section>
  );
}
