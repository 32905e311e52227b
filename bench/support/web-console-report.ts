/** The web console's section of the benchmark report. */
import type { ConsoleBenchResult } from '../scenarios/web-console';
import type { Section } from './results-report';
import { markdownTable } from './table';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export function consoleSection(result: ConsoleBenchResult): Section {
  const { verify, bundleServed } = result;
  const ratio = (browser: number, node: number) => `${(browser / node).toFixed(2)}×`;
  return {
    title: '10. Web console',
    intro:
      'What a first visit to /console/ loads, raw and compressed; the bundle of one object served by npm start ' +
      '(`GET /v2/objects/{objectId}/bundle` from Node, after one unreported request, every event in a checkpoint); ' +
      'and verifying that object in headless Chromium (the page fetches the bundle in one request and checks ' +
      'everything itself; its own timer), beside Node on the same bundle.',
    table: markdownTable(
      [
        ...result.files.map((size): [string, string] => [
          size.file,
          `${kb(size.bytes)} raw, ${kb(size.gzipBytes)} gzip, ${kb(size.brotliBytes)} brotli`,
        ]),
        ['first load, JS + CSS (gzip; goal ≤ 150 KB)', kb(result.firstLoadGzipBytes)],
        [
          `bundle of ${verify.events} events served (goal < 1 s)`,
          `median ${median(bundleServed.runsMs).toFixed(0)} ms, max ${Math.max(...bundleServed.runsMs).toFixed(0)} ms of ${bundleServed.runsMs.length} runs; ${kb(bundleServed.bytes)}`,
        ],
        [
          `verify ${verify.events} events in Chromium (fetch + check), first run`,
          `${verify.browserMs} ms (${verify.ok ? 'all verified' : 'FAILED'})`,
        ],
        ['the same checks in Node (verifyBundle), first run', `${verify.nodeVerifyMs.toFixed(0)} ms`],
        ['Chromium ÷ Node, first runs (goal ≤ 2×)', ratio(verify.browserMs, verify.nodeVerifyMs)],
        ['verify again in Chromium (fetch + check)', `${verify.browserWarmMs} ms`],
        ['Node verifyBundle, warm (median of 3)', `${verify.nodeWarmMs.toFixed(0)} ms`],
        ['Chromium ÷ Node, warm (goal ≤ 2×)', ratio(verify.browserWarmMs, verify.nodeWarmMs)],
      ],
      [
        { title: 'what', value: (row) => row[0] },
        { title: 'figure', value: (row) => row[1] },
      ],
    ),
  };
}
