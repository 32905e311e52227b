/**
 * Every view of the console: axe-core finds no serious or critical violation, Tab reaches
 * every action, and the main tasks can be done with the keyboard alone.
 */
import type { Browser, Page } from 'playwright-core';
import {
  closePage,
  consoleServer,
  launchChromium,
  openPage,
  seriousAccessibilityViolations,
  signIn,
} from '../support/browser';
import { type SeededCompany, seedApp, seedCompany } from '../support/console-seed';
import { actionsTabDoesNotReach, tabTo } from '../support/keyboard';

jest.setTimeout(180_000);

describe('accessibility and keyboard use of the console', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let company: SeededCompany;
  let app: { appId: string; apiKey: string };

  beforeAll(async () => {
    [browser, company, app] = await Promise.all([
      launchChromium(),
      seedCompany(server, { label: 'Access' }),
      seedApp(server, 'Access app'),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await openPage(browser);
  });
  afterEach(async () => {
    await closePage(page);
  });

  /** Checks the view now shown: axe, then a full Tab round. */
  async function expectAccessible(view: string) {
    expect({ view, violations: await seriousAccessibilityViolations(page) }).toEqual({
      view,
      violations: [],
    });
    expect({ view, unreachable: await actionsTabDoesNotReach(page) }).toEqual({ view, unreachable: [] });
  }

  it('has no serious violation and every action in reach on each company view', async () => {
    await page.goto(server.consoleUrl);
    await page.getByLabel('API key').waitFor();
    await expectAccessible('sign in');

    await signIn(
      page,
      server.consoleUrl,
      'ark_000000000000000000000000_notAKeyAtAllnotAKeyAtAllnotAKeyAtAll123',
    );
    await page.getByRole('alert').waitFor();
    await expectAccessible('sign in with an error');

    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('link', { name: company.subcategoryName }).waitFor();
    await expectAccessible('categories');

    await page.getByRole('link', { name: company.subcategoryName }).click();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    await expectAccessible('objects');

    await page.getByRole('link', { name: company.object.externalId }).click();
    await page.getByRole('button', { name: /^Download service-log\.txt/ }).waitFor();
    await page.locator('ol.timeline > li').nth(3).waitFor();
    await expectAccessible('object detail');

    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 60_000 });
    await expectAccessible('object detail, verified');

    await page.getByRole('link', { name: 'Log', exact: true }).click();
    await page.getByText('Signature verified in this browser').waitFor();
    await expectAccessible('log');

    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.getByRole('navigation', { name: 'Activity pages' }).waitFor();
    await expectAccessible('activity');

    await page.getByRole('link', { name: 'Categories', exact: true }).click();
    await page.getByRole('link', { name: company.categoryName }).click();
    await page.getByRole('heading', { name: company.categoryName }).waitFor();
    await expectAccessible('category');
  });

  it('has no serious violation and every action in reach on each wallet view', async () => {
    await signIn(page, server.consoleUrl, app.apiKey);
    await page.getByRole('heading', { name: 'Wallets', exact: true }).waitFor();
    await expectAccessible('wallets (empty)');

    await page.getByLabel('Username', { exact: true }).fill('access-wallet');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await page.getByRole('button', { name: 'Delete wallet' }).waitFor();
    await expectAccessible('wallet detail');

    await page.getByRole('button', { name: 'Delete wallet' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).waitFor();
    await expectAccessible('delete confirmation');
  });

  it('signs in, browses to an object and downloads its file with the keyboard alone', async () => {
    await page.goto(server.consoleUrl);
    await tabTo(page, /^API key/);
    await page.keyboard.type(company.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: company.subcategoryName }).waitFor();
    await tabTo(page, new RegExp(`^${company.subcategoryName}$`));
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    await tabTo(page, new RegExp(`^${company.object.externalId}$`));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^Download service-log\.txt/ }).waitFor();
    await tabTo(page, /^Download service-log\.txt/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('service-log.txt');
  });

  it('creates and deletes a wallet with the keyboard alone', async () => {
    await page.goto(server.consoleUrl);
    await tabTo(page, /^API key/);
    await page.keyboard.type(app.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Wallets', exact: true }).waitFor();
    await tabTo(page, /^Username$/);
    await page.keyboard.type('keyboard-wallet');
    await tabTo(page, /^Password/);
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete wallet' }).waitFor();
    await tabTo(page, /^Delete wallet$/);
    await page.keyboard.press('Enter');
    // the confirmation takes the focus
    await page.getByRole('button', { name: 'Yes, delete' }).waitFor();
    expect(await page.locator(':focus').textContent()).toBe('Yes, delete');
    await page.keyboard.press('Enter');
    await page.getByText('keyboard-wallet is deleted.').waitFor();
  });
});
