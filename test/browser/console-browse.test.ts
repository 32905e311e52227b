/**
 * A company's key in the console: sign in, go from a category to its subcategory's objects,
 * find an object by externalId, and read its fields, metadata, files and event timeline.
 */
import type { Browser, Page } from 'playwright-core';
import { closePage, consoleServer, launchChromium, openPage, signIn } from '../support/browser';
import { type SeededCompany, seedCompany } from '../support/console-seed';

jest.setTimeout(120_000);

describe('browsing the registry in the console', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let company: SeededCompany;

  beforeAll(async () => {
    [browser, company] = await Promise.all([launchChromium(), seedCompany(server, { label: 'Browse' })]);
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

  it('goes from a category to a subcategory to an object and shows its whole history', async () => {
    // Act
    await signIn(page, server.consoleUrl, company.apiKey, company.companyId);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.getByRole('link', { name: company.subcategoryName }).click();
    await page.getByRole('link', { name: company.object.externalId }).click();
    // Assess: fields and metadata
    await page.getByRole('heading', { name: company.object.name }).waitFor();
    expect(await page.locator('dl.fields').first().innerText()).toContain(company.object.externalId);
    expect(await page.locator('pre.json').first().innerText()).toContain('"colour": "red"');
    // the timeline: create, transfer, repair, file upload; changes from → to; who, hashes
    const events = page.locator('ol.timeline > li');
    await events.nth(3).waitFor();
    expect(await events.count()).toBe(4);
    const transfer = await events.nth(1).innerText();
    expect(transfer).toContain('transfer');
    expect(transfer).toContain('owner: "Alice" → "Owner 1"');
    expect(transfer).toContain('Registry clerk');
    expect(transfer).toMatch(/Principal\s+apiKey:[0-9a-f]{24}/);
    expect(transfer).toMatch(/Hash\s+[0-9a-f]{64}/);
    expect(transfer).toMatch(/Previous hash\s+[0-9a-f]{64}/);
    // the file, downloadable with the key the page holds
    await page.getByRole('cell', { name: 'service-log.txt', exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download service-log.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('service-log.txt');
    const stream = await download.createReadStream();
    let bytes = '';
    for await (const chunk of stream) bytes += chunk.toString();
    expect(bytes).toBe('service log\n');
  });

  it('finds an object by its externalId, and sorts and pages the object list', async () => {
    // Act
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('link', { name: 'Objects' }).click();
    await page.getByLabel('External id (exact)').fill(company.object.externalId);
    await page.getByLabel('Status').selectOption('all');
    await page.getByLabel('Sort').selectOption('name:asc');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // Assess
    await page.getByText('1–1 of 1').waitFor();
    expect(await page.getByRole('link', { name: company.object.externalId }).count()).toBe(1);
    expect(page.url()).toContain('sort=name%3Aasc');
    expect(page.url()).not.toContain(company.apiKey);
  });

  it('keeps the key out of URLs and localStorage, and in sessionStorage only when asked', async () => {
    // Act
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    // (strings: this file is compiled without the DOM's types)
    const stored = {
      local: await page.evaluate<string>('JSON.stringify(localStorage)'),
      session: await page.evaluate<string>('JSON.stringify(sessionStorage)'),
      url: page.url(),
    };
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(company.apiKey);
    await page.getByLabel(/Stay signed in/).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.reload();
    // Assess
    expect(stored.local).not.toContain(company.apiKey);
    expect(stored.session).not.toContain(company.apiKey);
    expect(stored.url).not.toContain(company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    expect(await page.evaluate<string>('JSON.stringify(localStorage)')).not.toContain(company.apiKey);
    expect(await page.evaluate<string>('JSON.stringify(sessionStorage)')).toContain(company.apiKey);
  });

  it('answers a wrong key with a clear message and the API code', async () => {
    // Act
    await signIn(
      page,
      server.consoleUrl,
      'ark_000000000000000000000000_notAKeyAtAllnotAKeyAtAllnotAKeyAtAll123',
    );
    // Assess
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/API key was not accepted.*UNAUTHORIZED/s);
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
  });
});
