/** The web console's section of the benchmark report. */
import type { ConsoleBenchResult } from '../scenarios/web-console';
import type { Section } from './results-report';
import { markdownTable } from './table';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function consoleSection(result: ConsoleBenchResult): Section {
  const { verify } = result;
  return {
    title: '10. Web console',
    intro:
      'What a first visit to /console/ loads, raw and compressed; and verifying one object in headless Chromium ' +
      'against npm start (the page fetches every proof and checks everything itself), beside Node on the same bundle.',
    table: markdownTable(
      [
        ...result.files.map((size): [string, string] => [
          size.file,
          `${kb(size.bytes)} raw, ${kb(size.gzipBytes)} gzip, ${kb(size.brotliBytes)} brotli`,
        ]),
        ['first load, JS + CSS (gzip; goal ≤ 150 KB)', kb(result.firstLoadGzipBytes)],
        [
          `verify ${verify.events} events in Chromium (fetch + check)`,
          `${verify.browserMs} ms (${verify.ok ? 'all verified' : 'FAILED'})`,
        ],
        ['the same checks in Node (verifyBundle)', `${verify.nodeVerifyMs.toFixed(0)} ms`],
      ],
      [
        { title: 'what', value: (row) => row[0] },
        { title: 'figure', value: (row) => row[1] },
      ],
    ),
  };
}
