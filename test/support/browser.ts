/**
 * The real browser of the browser tier: Debian's Chromium (`/usr/bin/chromium`, or
 * `CHROMIUM_PATH`) driven by playwright-core, headless, against the `npm start` of
 * `browser-global-setup.js`.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { readStackStateFile } from './local-server';

/** Without the background-networking flags, Chromium stalls on update and sync calls that cannot leave this machine. */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
  });

/** The `npm start` the tier runs against. */
export function consoleServer() {
  const port = Number(process.env.CONSOLE_TEST_PORT);
  const dataDirectory = process.env.CONSOLE_TEST_DATA_DIR;
  if (!port || !dataDirectory) throw new Error('The browser tier runs through jest --selectProjects browser');
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    dataDirectory,
    baseUrl,
    consoleUrl: `${baseUrl}/console/`,
    /** The child stack's environment (DynamoDB Local's endpoint, table name, ...). */
    stackEnvironment: () => readStackStateFile(dataDirectory)?.environment ?? {},
  };
}

/** Signs in on the page with a key (typed, as a person would); the key says its company. */
export async function signIn(page: Page, consoleUrl: string, apiKey: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A/AA rules). */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** A page in a fresh browser context (its own storage; axe-core needs a context of its own). */
export async function openPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  return context.newPage();
}

/** Closes the page's context with it. */
export const closePage = (page: Page | undefined): Promise<void> =>
  page?.context().close() ?? Promise.resolve();
