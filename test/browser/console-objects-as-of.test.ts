/**
 * The objects list as of a date (issue 25 item 7), against the real API: the console reads the
 * as-of export (JSON Lines) with the list's filters and shows the registry as it stood then; an
 * object renamed and stolen afterwards shows its old state, one created afterwards is absent;
 * rows open the object at that instant, the address keeps the date, and an empty date returns
 * to the live list.
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

jest.setTimeout(180_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the objects list as of a date', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let company: SeededCompany;
  /** An instant after the seed and before the changes below. */
  let instant: string;
  const later = { externalId: 'Then-VIN-0002', name: 'Then late truck' };
  /** A subcategory of 21 objects, all there at the instant: two pages. */
  let vansId: string;

  async function send(method: string, path: string, body: unknown): Promise<{ data: { id: string } }> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': company.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: { id: string } };
  }

  beforeAll(async () => {
    [browser, company] = await Promise.all([launchChromium(), seedCompany(server, { label: 'Then' })]);
    vansId = (await send('POST', `/v2/categories/${company.categoryId}/subcategories`, { name: 'Then vans' }))
      .data.id;
    for (let index = 1; index <= 21; index++)
      await send('POST', `/v2/categories/${company.categoryId}/subcategories/${vansId}/objects`, {
        externalId: `Then-VAN-${String(index).padStart(2, '0')}`,
        name: `Then van ${index}`,
        owner: 'Dan',
      });
    await sleep(20);
    instant = new Date().toISOString();
    await sleep(20);
    await send('PUT', `/v2/objects/${company.object.id}`, { action: 'update', name: 'Then renamed truck' });
    await send('PUT', `/v2/objects/${company.object.id}`, { action: 'report_stolen' });
    await send(
      'POST',
      `/v2/categories/${company.categoryId}/subcategories/${company.subcategoryId}/objects`,
      {
        ...later,
        owner: 'Carol',
      },
    );
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

  it('shows the registry as it stood then, opens an object then, and returns to the live list', async () => {
    // Act: the live list, then the same filters as of the instant
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects?subcategoryId=${company.subcategoryId}`);
    await page.getByRole('link', { name: later.externalId }).waitFor();
    const live = await page.locator('main table').innerText();
    await page.getByLabel('As of (UTC; empty: now)').fill(instant.replace(/Z$/, ''));
    await page.getByRole('button', { name: 'Show the registry then' }).click();
    await page.getByRole('heading', { name: `The registry as of ${instant}` }).waitFor();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const then = await page.locator('main table').innerText();
    const note = await page.getByRole('status').first().innerText();
    const asOfUrl = page.url();
    const violations = await seriousAccessibilityViolations(page);
    // Act: the row opens the object as of then; back keeps the date
    await page.getByRole('link', { name: company.object.externalId }).click();
    await page.getByRole('heading', { name: `As it stood at ${instant}` }).waitFor();
    const objectUrl = page.url();
    await page.goBack();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const backUrl = page.url();
    // Act: an empty date returns to the live list
    await page.getByRole('button', { name: 'Back to the live list' }).click();
    await page.getByRole('link', { name: later.externalId }).waitFor();
    const liveUrl = page.url();
    // Assess
    expect(live).toContain('Then renamed truck');
    expect(live).toContain(later.name);
    expect(then).toContain(company.object.name);
    expect(then).not.toContain('Then renamed truck');
    expect(then).not.toContain(later.externalId);
    expect(then).toMatch(/active\s+#\d+ \([0-9a-f]{12}…\)/);
    expect(then).not.toContain('inactive');
    expect(note).toContain(`The state as of ${instant} (UTC)`);
    expect(decodeURIComponent(asOfUrl)).toContain(`asOf=${instant}`);
    expect(decodeURIComponent(asOfUrl)).toContain(`subcategoryId=${company.subcategoryId}`);
    expect(decodeURIComponent(objectUrl)).toContain(`#/objects/${company.object.id}?asOf=${instant}`);
    expect(backUrl).toBe(asOfUrl);
    expect(liveUrl).not.toContain('asOf');
    expect(liveUrl).toContain(`subcategoryId=${company.subcategoryId}`);
    expect(violations).toEqual([]);
  });

  it('pages the rows of then with the pager of the list, the page in the address', async () => {
    // Act
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects?subcategoryId=${vansId}&sort=name:asc&asOf=${instant}`);
    const pages = page.getByRole('navigation', { name: 'Objects as of then pages' });
    await pages.getByText('1–20 of 21').waitFor();
    const firstPage = await page.locator('main table tbody tr').count();
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('21–21 of 21').waitFor();
    const secondPage = await page.locator('main table').innerText();
    const secondUrl = page.url();
    await pages.getByRole('button', { name: 'Previous page' }).click();
    await pages.getByText('1–20 of 21').waitFor();
    // Assess
    expect(firstPage).toBe(20);
    // name:asc sorts the names as text: "Then van 9" comes last.
    expect(secondPage).toContain('Then-VAN-09');
    expect(secondUrl).toContain('offset=20');
    expect(decodeURIComponent(secondUrl)).toContain(`asOf=${instant}`);
  });
});
