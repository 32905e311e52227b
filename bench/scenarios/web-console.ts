/**
 * The web console's figures: the compressed size of what a first visit loads (JavaScript, CSS,
 * HTML; goal: JS + CSS at most 150 KB), and the time to verify an object of `events` events in
 * headless Chromium against `npm start` (the page's own timer: every proof fetched and every
 * check run in the page), beside Node's time for the same checks on the same bundle.
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
  verify: { events: number; browserMs: number; nodeVerifyMs: number; ok: boolean };
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
    const page = await openPage(browser);
    await signIn(page, `${server.baseUrl}/console/`, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.baseUrl}/console/#/objects/${company.object.id}/verify`);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 300_000 });
    const ok = (await page.locator('[data-verdict]').getAttribute('data-verdict')) === 'ok';
    const checkedText = (await page.getByText(/^Checked in \d+ ms/).textContent()) ?? '';
    const browserMs = Number(checkedText.match(/\d+/)?.[0]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download verification bundle' }).click(),
    ]);
    let text = '';
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    const bundle = JSON.parse(text) as LedgerBundle;
    const started = performance.now();
    await verifyBundle(bundle, bundle.verifierKey);
    const nodeVerifyMs = performance.now() - started;
    return {
      files,
      firstLoadGzipBytes,
      verify: { events: bundle.events.length, browserMs, nodeVerifyMs, ok },
    };
  } finally {
    await browser.close();
    server.signalGroup('SIGINT');
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await server.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
