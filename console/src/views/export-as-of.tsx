/**
 * The registry as of an instant, as a file: `GET /v2/objects/export?asOf=` (CSV or JSON Lines)
 * with the list's filters and the list's as-of instant (the route's `asOf`; none: now). The key travels in a header, so the page fetches the file and hands
 * it to the browser. Too large for one response (202), the export becomes a job, whose file
 * link (`GET /v2/exports/{id}`) the page shows once it is written.
 */
import { useState } from 'preact/hooks';
import { dataOf, type Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { useAction } from '../use-action';

export type ExportJob = Schemas['ExportJob'];

/** The list's filters that the export takes too (spec 4.1's, not the page's place). */
const EXPORT_FILTERS = ['status', 'name', 'externalId', 'owner', 'categoryId', 'subcategoryId', 'sort'];

/**
 * The export's query: the list's filters (empty ones left out), the format and the instant.
 *
 * @example
 * client.api.GET('/v2/objects/export', { params: { query: exportQuery(list.values, 'jsonl', asOf) as never } });
 */
export function exportQuery(filters: Record<string, string>, format: 'csv' | 'jsonl', asOf: string) {
  return {
    ...Object.fromEntries(EXPORT_FILTERS.flatMap((name) => (filters[name] ? [[name, filters[name]]] : []))),
    format,
    // The as-of export (issue 25 item 3): the document of this build may not list it yet.
    ...(asOf ? { asOf } : {}),
  };
}

/** Hands bytes to the browser as a download. */
function save(bytes: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(bytes);
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export function ExportAsOf({ filters, asOf }: { filters: Record<string, string>; asOf: string }) {
  const client = useClient();
  const [format, setFormat] = useState<'csv' | 'jsonl'>('csv');
  const [job, setJob] = useState<ExportJob>();
  const download = useAction(async () => {
    setJob(undefined);
    const response = await client.api.GET('/v2/objects/export', {
      params: { query: exportQuery(filters, format, asOf) as never },
      parseAs: 'blob',
    });
    if (response.response.status === 202) {
      setJob(JSON.parse(await (response.data as Blob).text()) as ExportJob);
      return;
    }
    const bytes = await dataOf(Promise.resolve(response));
    const day = (asOf || new Date().toISOString()).slice(0, 10);
    save(bytes as Blob, `objects-as-of-${day}.${format}`);
  });
  const check = useAction(async () => {
    if (!job) return;
    setJob(
      await dataOf(client.api.GET('/v2/exports/{exportId}', { params: { path: { exportId: job.id } } })),
    );
  });
  return (
    <div class="no-print">
      <form class="filters" aria-label="Export as of" onSubmit={download.onSubmit}>
        <div class="field">
          <label for="export-format">Format</label>
          <select
            id="export-format"
            value={format}
            onChange={(event) => setFormat(event.currentTarget.value === 'jsonl' ? 'jsonl' : 'csv')}
          >
            <option value="csv">CSV</option>
            <option value="jsonl">JSON Lines</option>
          </select>
        </div>
        <button type="submit" disabled={download.busy}>
          {download.busy ? 'Exporting…' : 'Export the matching objects'}
        </button>
      </form>
      <ErrorNotice error={download.error ?? check.error} />
      {job && (
        <p class="notice" role="status">
          {job.status === 'completed' && job.url ? (
            <a href={job.url}>Download the export ({job.rowCount ?? 0} objects)</a>
          ) : job.status === 'failed' ? (
            `The export failed: ${job.error ?? 'no reason given'}`
          ) : (
            <>
              Too large for one response: the export is being written (job {job.id}).{' '}
              <button type="button" onClick={check.run}>
                Check the export
              </button>
            </>
          )}
        </p>
      )}
    </div>
  );
}
