/**
 * The web console's figures: the compressed size of what a first visit loads (JavaScript, CSS,
 * HTML; goal: JS + CSS at most 150 KB); the time `npm start` takes to serve the bundle of an
 * object of `events` events (`GET /v2/objects/{objectId}/bundle`, goal under 1 s); and the time
 * to verify that object in headless Chromium (the page's own timer: the bundle fetched and every
 * check run in the page), beside Node's time for the same checks on the same bundle (goal: the
 * page at most 2× Node).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildConsole, CONSOLE_BUILD_FILES } from '../../console/build';
import { launchChromium, openPage, signIn } from '../../test/support/browser';
import { seedCompany } from '../../test/support/console-seed';
import { startLocalServer } from '../../test/support/local-server';
import { type LedgerBundle, verifyBundle } from '../../verifier/index';

export interface ConsoleFileSize {
  file: string;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

export interface ConsoleBenchResult {
  files: ConsoleFileSize[];
  /** JavaScript + CSS, gzip: the figure the 150 KB goal is about. */
  firstLoadGzipBytes: number;
  /**
   * First runs (a fresh page, a fresh Node verifier: what a visitor and an auditor's first
   * command see) and warm runs (the page's "Verify again"; Node's median of 3 runs after it).
   */
  verify: {
    events: number;
    browserMs: number;
    browserWarmMs: number;
    nodeVerifyMs: number;
    nodeWarmMs: number;
    ok: boolean;
  };
  /** GET of the object's bundle from Node, each run after the first (warm), in ms; and its size. */
  bundleServed: { runsMs: number[]; bytes: number };
}

/** Runs of the bundle request timed after one unreported (warm-up) run. */
const BUNDLE_RUNS = 5;

/** Waits until the bundle answers 200 (every event in a checkpoint), then times its requests. */
async function timeBundleServed(baseUrl: string, apiKey: string, objectId: string) {
  const get = () => fetch(`${baseUrl}/v2/objects/${objectId}/bundle`, { headers: { 'X-API-Key': apiKey } });
  for (let attempt = 0; ; attempt++) {
    const response = await get();
    const body = await response.arrayBuffer();
    if (response.status === 200) break;
    if (attempt >= 120) throw new Error(`The bundle answered ${response.status}: ${Buffer.from(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const runsMs: number[] = [];
  let bytes = 0;
  for (let run = 0; run < BUNDLE_RUNS; run++) {
    const started = performance.now();
    const response = await get();
    bytes = (await response.arrayBuffer()).byteLength;
    runsMs.push(performance.now() - started);
  }
  return { runsMs, bytes };
}

/** Sizes of the build's files, raw and compressed (gzip level 9, brotli quality 11). */
export function consoleFileSizes(): ConsoleFileSize[] {
  const directory = buildConsole();
  return CONSOLE_BUILD_FILES.map((file) => {
    const bytes = readFileSync(join(directory, file));
    return {
      file,
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      brotliBytes: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  });
}

export async function runConsoleBench(options: { events: number }): Promise<ConsoleBenchResult> {
  const files = consoleFileSizes();
  const firstLoadGzipBytes = files
    .filter((size) => /\.(js|css)$/.test(size.file))
    .reduce((total, size) => total + size.gzipBytes, 0);
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-bench-console-'));
  const server = await startLocalServer({ dataDirectory });
  const browser = await launchChromium();
  try {
    const company = await seedCompany(
      { port: server.port, dataDirectory, baseUrl: server.baseUrl },
      { label: 'Bench', updates: options.events - 2 }, // + the create and the file upload
    );
    const bundleServed = await timeBundleServed(server.baseUrl, company.apiKey, company.object.id);
    const page = await openPage(browser);
    await signIn(page, `${server.baseUrl}/console/`, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.baseUrl}/console/#/objects/${company.object.id}/verify`);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 300_000 });
    const ok = (await page.locator('[data-verdict]').getAttribute('data-verdict')) === 'ok';
    const checkedMs = async () =>
      Number(((await page.getByText(/^Checked in \d+ ms/).textContent()) ?? '').match(/\d+/)?.[0]);
    const browserMs = await checkedMs();
    // "Verify again" clears the verdict at once, then shows the new one.
    await page.getByRole('button', { name: 'Verify again', exact: true }).click();
    await page.getByRole('button', { name: 'Verify again', exact: true }).waitFor({ timeout: 300_000 });
    await page.locator('[data-verdict]').waitFor({ timeout: 300_000 });
    const browserWarmMs = await checkedMs();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download verification bundle' }).click(),
    ]);
    let text = '';
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    const bundle = JSON.parse(text) as LedgerBundle;
    const timeNode = async () => {
      const started = performance.now();
      await verifyBundle(bundle, bundle.verifierKey);
      return performance.now() - started;
    };
    const nodeVerifyMs = await timeNode();
    const nodeWarmRuns = [await timeNode(), await timeNode(), await timeNode()].sort((a, b) => a - b);
    return {
      files,
      firstLoadGzipBytes,
      verify: {
        events: bundle.events.length,
        browserMs,
        browserWarmMs,
        nodeVerifyMs,
        nodeWarmMs: nodeWarmRuns[1] as number,
        ok,
      },
      bundleServed,
    };
  } finally {
    await browser.close();
    server.signalGroup('SIGINT');
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await server.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
