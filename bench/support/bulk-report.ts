/** The bulk import and export section of the bench report (issue 16). */
import type { BulkRow } from '../scenarios/bulk-import-export';
import type { Section } from './results-report';
import { column, markdownTable } from './table';

/** Per size, the as-of export's rows a second against the plain export's (goal: at least 0.5). */
function asOfRatios(rows: BulkRow[]): string {
  const ratios = rows
    .filter((row) => row.job === 'export as of')
    .map((asOf) => {
      const plain = rows.find((row) => row.job === 'export' && row.rows === asOf.rows);
      const ratio = plain ? asOf.rowsPerSecond / plain.rowsPerSecond : Number.NaN;
      return `${asOf.rows.toLocaleString('en-US')} rows: ${Math.round(ratio * 100)} % (${asOf.rowsPerSecond.toLocaleString('en-US')} against ${plain?.rowsPerSecond.toLocaleString('en-US') ?? '?'} rows/s)`;
    });
  return ratios.length > 0
    ? `The as-of export’s rows a second against the plain export’s: ${ratios.join('; ')}.`
    : '';
}

export function bulkSection(rows: BulkRow[]): Section {
  return {
    title: '11. Bulk import and export, and the export as of an instant',
    intro:
      'Per size, a new company with one subcategory imports a CSV of that many rows (create mode, the subcategory as the job’s default target; 6 columns: externalId, name, description, owner, 2 metadata columns) through `createImport` and its background job (`runImport`), then exports its objects as CSV through `exportObjects` with `EXPORT_INLINE_MAX_BYTES=0`, so that the export is the background job (`runExport`, streamed to S3 in 5 MB parts) at both sizes, as in AWS above 4 MiB. An import and export of a few rows (1,000; 200 in smoke runs) go first, unreported, so that DynamoDB Local’s JIT is warm. Each job runs in a Node process of its own (`bench/scenarios/bulk-job-child.ts`) against an embedded stack of the section’s own, started empty (DynamoDB Local slows down as its tables and streams fill, so the section neither inherits earlier sections’ data nor leaves its 110,000 objects to later ones); time from the call to the settled job. Memory of that process: `process.memoryUsage()` sampled every 50 ms while the job runs (median and peak), and VmHWM (the kernel’s peak RSS, which catches what falls between samples), both reset after a full GC when the job starts, so the import’s CSV held by the request does not count.',
    table: markdownTable(rows, [
      column('job', (row) => `${row.job} ${row.format ?? 'CSV'}`),
      column('rows', (row) => row.rows, true),
      column('file MB', (row) => row.fileMb, true),
      column('s', (row) => row.seconds, true),
      column('rows/s', (row) => row.rowsPerSecond, true),
      column('outcome', (row) => row.outcome),
      column('DynamoDB calls / row', (row) => row.dynamoDbCallsPerRow, true),
      column('commands', (row) => row.commands),
      column('pacing call ms (median / p95)', (row) => row.mainCall),
      column('RSS before MB', (row) => row.rssBeforeMb, true),
      column('median RSS MB', (row) => row.medianRssMb, true),
      column('peak RSS MB', (row) => row.peakRssMb, true),
      column('VmHWM MB', (row) => row.vmHwmMb, true),
      column('median heap used MB', (row) => row.medianHeapUsedMb, true),
      column('peak heap used MB', (row) => row.peakHeapUsedMb, true),
      column('load (1 min)', (row) => row.loadAverage),
    ]),
    notes: [
      'DynamoDB Local (Java, in memory) shares the 2 cores with the job process and with whatever else runs on the machine: rows/s is a local figure, bounded by DynamoDB Local’s transactions, not an AWS one. The import writes rows 12 to a TransactWriteItems (`createObjectsTogether`), two groups at a time, and counts its progress every 100 rows; an import that outlives its 10-minute run budget hands over to a fresh run of the job (in the same process here). Heap before the job, heap total and the sample counts are in results.json.',
      'Export as of (issue 25): after the plain export, the instant is taken, an upsert import (not reported) gives a tenth of the objects another owner (one `update` event each), and the same export runs with `asOf` set to that instant. It walks the company-wide creation index up to the instant (200 items a Query, two pages in flight: the next one read and replayed while this one finishes); the nine tenths unchanged since (`updatedAt` ≤ `asOf`) are their stored state and read no event, the changed tenth is each rebuilt from its chain (one Query of up to 100 events each, 64 at a time in each page). Its goal: at least half the plain export’s rows a second. ' +
        asOfRatios(rows) +
        ' Then the sequencer logs every event (not measured) and the same export runs as an inventory with proofs (`proofs=true`, JSON Lines: each row with the event that set it and, for the changed tenth, the next event, each with its inclusion proof against one checkpoint).',
      'The export reads the company index 200 items a Query (a cursor over the index, never a full read), so its memory should not grow with the row count. The import reads its file twice (`runImport`): a survey pass that counts the rows and keeps the first row of every externalId in a Map (to report repeats within the file), so that part of its memory grows with the file, then the pass that writes; a run that hands over at its budget surveys the file again.',
    ],
  };
}
