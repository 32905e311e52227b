/**
 * A company's key in the console: sign in, go from a category to its subcategory's objects,
 * find an object by externalId, and read its fields, metadata, files and event timeline; page
 * through lists by cursor.
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
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.getByRole('link', { name: company.subcategoryName }).click();
    await page.getByRole('link', { name: company.object.externalId }).click();
    // Assess: fields and metadata
    await page.getByRole('heading', { name: company.object.name }).waitFor();
    expect(await page.locator('dl.fields').first().innerText()).toContain(company.object.externalId);
    expect(await page.getByRole('table', { name: 'Metadata' }).innerText()).toMatch(/colour\s+red/);
    // the timeline: create, transfer, repair, file upload; changes from → to; who, hashes
    const events = page.locator('ol.timeline > li');
    await events.nth(3).waitFor();
    expect(await events.count()).toBe(4);
    const transfer = await events.nth(1).innerText();
    expect(transfer).toContain('transfer');
    expect(transfer).toContain('owner: Alice → Owner 1');
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
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Sort').selectOption('name:asc');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // Assess
    await page.getByText('1–1 of 1').waitFor();
    expect(await page.getByRole('link', { name: company.object.externalId }).count()).toBe(1);
    expect(page.url()).toContain('sort=name%3Aasc');
    expect(page.url()).not.toContain(company.apiKey);
  });

  it('pages objects and events by cursor: Next follows nextCursor, Previous goes back the way it came', async () => {
    // Prepare: 21 objects in one subcategory, and an object of 21 events (two pages of 20 each)
    const paging = await seedCompany(server, { label: 'Paging', updates: 19 });
    for (let index = 2; index <= 21; index++) {
      const response = await fetch(
        `${server.baseUrl}/v2/categories/${paging.categoryId}/subcategories/${paging.subcategoryId}/objects`,
        {
          method: 'POST',
          headers: { 'X-API-Key': paging.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            externalId: `Paging-VIN-${String(index).padStart(4, '0')}`,
            name: `Paging truck ${index}`,
            owner: 'Alice',
          }),
        },
      );
      if (!response.ok) throw new Error(`object ${index}: ${response.status} ${await response.text()}`);
    }
    const listed: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/^\/v2\/objects(\/[^/]+\/events)?$/.test(url.pathname)) listed.push(url);
    });
    const objectsPages = page.getByRole('navigation', { name: 'Objects pages' });
    const eventsPages = page.getByRole('navigation', { name: 'Events pages' });
    // Act: the subcategory's objects, page 2 (by the keyboard), then back
    await page.goto(server.consoleUrl);
    await page.getByLabel('API key').fill(paging.apiKey);
    await page.getByLabel(/Stay signed in/).check(); // so that the reload below keeps the key
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('link', { name: paging.subcategoryName }).click();
    await objectsPages.getByText('1–20 of 21').waitFor();
    await objectsPages.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await objectsPages.getByText('21–21 of 21').waitFor();
    const secondPage = { url: page.url(), request: listed.at(-1) };
    const violations = await seriousAccessibilityViolations(page);
    const nextOnLastPage = await objectsPages.getByRole('button', { name: 'Next page' }).isDisabled();
    await objectsPages.getByRole('button', { name: 'Previous page' }).click();
    await objectsPages.getByText('1–20 of 21').waitFor();
    const backOnFirst = { url: page.url(), request: listed.at(-1) };
    // Act: after a reload of page 2, the way back is no longer known: Previous asks by offset
    await objectsPages.getByRole('button', { name: 'Next page' }).click();
    await objectsPages.getByText('21–21 of 21').waitFor();
    await page.reload();
    await objectsPages.getByText('21–21 of 21').waitFor();
    await objectsPages.getByRole('button', { name: 'Previous page' }).click();
    await objectsPages.getByText('1–20 of 21').waitFor();
    // Act: the object's event timeline, pages of 20 (the object is the oldest: on page 2)
    await objectsPages.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('link', { name: paging.object.externalId }).click();
    await eventsPages.getByText('1–20 of 21').waitFor();
    await eventsPages.getByRole('button', { name: 'Next page' }).click();
    await eventsPages.getByText('21–21 of 21').waitFor();
    const eventsSecondPage = listed.at(-1);
    const eventsOnSecondPage = await page.locator('ol.timeline > li').count();
    await page.keyboard.press('Shift+Tab'); // from Next page, which keeps the focus
    await page.keyboard.press('Enter');
    await eventsPages.getByText('1–20 of 21').waitFor();
    // Assess
    expect(secondPage.url).toMatch(/[?&]cursor=[\w.-]+/);
    expect(secondPage.url).not.toContain('offset=');
    expect(secondPage.request?.searchParams.get('cursor')).toBeTruthy();
    expect(secondPage.request?.searchParams.has('offset')).toBe(false);
    expect(secondPage.request?.searchParams.get('subcategoryId')).toBe(paging.subcategoryId);
    expect(violations).toEqual([]);
    expect(nextOnLastPage).toBe(true);
    expect(backOnFirst.url).not.toMatch(/cursor=|offset=/);
    expect(backOnFirst.request?.searchParams.has('cursor')).toBe(false);
    expect(backOnFirst.request?.searchParams.has('offset')).toBe(false);
    expect(eventsSecondPage?.pathname).toBe(`/v2/objects/${paging.object.id}/events`);
    expect(eventsSecondPage?.searchParams.get('cursor')).toBeTruthy();
    expect(eventsSecondPage?.searchParams.has('offset')).toBe(false);
    expect(eventsOnSecondPage).toBe(1);
    expect(page.url()).not.toContain(paging.apiKey);
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
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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

  it('refuses a wrong key with a clear message and the API code', async () => {
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
