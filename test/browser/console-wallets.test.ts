/** An App's key in the console: create a wallet, read it, suspend it and delete it, each confirmed. */
import type { Browser, Page } from 'playwright-core';
import { closePage, consoleServer, launchChromium, openPage, signIn } from '../support/browser';
import { seedApp } from '../support/console-seed';

jest.setTimeout(120_000);

describe('wallets in the console', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let app: { appId: string; apiKey: string };

  beforeAll(async () => {
    [browser, app] = await Promise.all([launchChromium(), seedApp(server, 'Console wallets')]);
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

  const walletsOfApp = async (status = 'all') => {
    const response = await fetch(`${server.baseUrl}/v2/wallets?status=${status}`, {
      headers: { 'X-API-Key': app.apiKey },
    });
    return ((await response.json()) as { data: { username: string; status: string }[] }).data;
  };

  it('creates a wallet, suspends it and deletes it, each after a confirmation', async () => {
    // Act: create
    await signIn(page, server.consoleUrl, app.apiKey);
    await page.getByRole('heading', { name: 'Wallets', exact: true }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill('scanner-01');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    // Assess: its detail with stats
    await page.getByRole('heading', { name: `scanner-01@${app.appId}` }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('scanner-01 is created');
    expect(await page.locator('dl.fields').innerText()).toMatch(/Logins\s+0/);
    expect((await walletsOfApp()).map((wallet) => wallet.username)).toEqual(['scanner-01']);

    // Act: suspend, first cancelled, then confirmed
    await page.getByRole('button', { name: 'Suspend wallet' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await walletsOfApp())[0]?.status).toBe('active');
    await page.getByRole('button', { name: 'Suspend wallet' }).click();
    await page.getByRole('button', { name: 'Yes, suspend' }).click();
    await page.getByText('scanner-01 is suspended.').waitFor();
    expect((await walletsOfApp())[0]?.status).toBe('suspended');

    // Act: delete
    await page.getByRole('button', { name: 'Delete wallet' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    // Assess: back on the list, which no longer has it
    await page.getByText('scanner-01 is deleted.').waitFor();
    expect(await walletsOfApp()).toEqual([]);
  });

  it('shows the API refusal of a bad wallet with its code and field issues', async () => {
    // Act
    await signIn(page, server.consoleUrl, app.apiKey);
    await page.getByLabel('Username', { exact: true }).fill('ab');
    await page.getByLabel(/^Password/).fill('short');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    // Assess
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain('VALIDATION_ERROR');
    expect(text).toMatch(/username.*LENGTH_INVALID/);
    expect(text).toMatch(/password.*LENGTH_INVALID/);
  });
});
