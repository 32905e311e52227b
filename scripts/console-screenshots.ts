/**
 * Takes the web console's screenshots (`docs/console/*.png`, shown in docs/console.md): a fresh
 * `npm start` in a scratch data folder, sample data made through the API, headless Chromium.
 * Run by hand after a visible change: `npx tsx scripts/console-screenshots.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, signIn } from '../test/support/browser';
import { seedApp, seedCompany } from '../test/support/console-seed';
import { startLocalServer } from '../test/support/local-server';

const outputDirectory = join(__dirname, '..', 'docs', 'console');

async function main(): Promise<void> {
  mkdirSync(outputDirectory, { recursive: true });
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-screenshots-'));
  const server = await startLocalServer({ dataDirectory });
  const browser = await launchChromium();
  try {
    const settings = { port: server.port, dataDirectory, baseUrl: server.baseUrl };
    const company = await seedCompany(settings, { label: 'Fleet', updates: 4, clerkLabel: 'Registry clerk' });
    const app = await seedApp(settings, 'Scanners');
    const consoleUrl = `${server.baseUrl}/console/`;
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const shot = (name: string) =>
      page.screenshot({ path: join(outputDirectory, `${name}.png`), fullPage: false });

    await page.goto(consoleUrl);
    await page.getByLabel('API key').waitFor();
    await shot('sign-in');
    await signIn(page, consoleUrl, company.apiKey);
    await page.getByRole('link', { name: company.subcategoryName }).waitFor();
    await shot('categories');
    await page.getByRole('link', { name: company.subcategoryName }).click();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    // the pickers and the breadcrumb come with the company's categories
    await page.getByRole('navigation', { name: 'Breadcrumb' }).waitFor();
    await shot('objects');
    await page.getByRole('link', { name: company.object.externalId }).click();
    await page.locator('ol.timeline > li').nth(4).waitFor();
    await page.locator('dl.fields').getByRole('link', { name: company.categoryName }).waitFor();
    await shot('object');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 60_000 });
    await shot('verify');
    await page.getByRole('link', { name: 'Log', exact: true }).click();
    await page.getByText('Signature verified in this browser').waitFor();
    await shot('log');
    // the object as it stood after its second event, and what changed from the first to the last
    await page.goto(`${consoleUrl}#/objects/${company.object.id}`);
    await page.locator('ol.timeline > li').nth(4).waitFor();
    const { data: events } = (await (
      await fetch(`${server.baseUrl}/v2/objects/${company.object.id}/events`, {
        headers: { 'X-API-Key': company.apiKey },
      })
    ).json()) as { data: { timestamp: string }[] };
    await page.getByLabel('As of (UTC)').fill((events[1]?.timestamp ?? '').replace(/Z$/, ''));
    await page.getByRole('button', { name: 'Show as of then' }).click();
    await page.getByText(/State set by event/).waitFor();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByRole('table', { name: /Changes from the state/ }).waitFor();
    await page.getByRole('heading', { name: /As it stood at/ }).scrollIntoViewIfNeeded();
    await shot('object-as-of');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('navigation', { name: 'Activity pages' }).waitFor();
    await shot('activity');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, consoleUrl, app.apiKey);
    await page.getByLabel('Username', { exact: true }).fill('scanner-01');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await page.getByRole('button', { name: 'Delete wallet' }).waitFor();
    await shot('wallet');
  } finally {
    await browser.close();
    server.signalGroup('SIGINT');
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await server.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
