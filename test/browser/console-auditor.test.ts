/**
 * The console for an auditor (issue 25 item 7): a read-only key signs in and sees only what it
 * may read; categories → subcategories → objects by name, with pickers and a breadcrumb; the
 * object page names where the object sits, shows metadata as a table, events in words with the
 * key's label, the object as of an instant and a diff of two events; the company's activity over
 * a period; and what prints.
 */
import type { Browser, Page, Response } from 'playwright-core';
import {
  closePage,
  consoleServer,
  launchChromium,
  openPage,
  seriousAccessibilityViolations,
  signIn,
} from '../support/browser';
import { admin, type SeededCompany, seedCompany } from '../support/console-seed';

jest.setTimeout(180_000);

/** Every API response the page received (path and status), to show what the console asked for. */
function recordApiCalls(page: Page): { path: string; status: number }[] {
  const calls: { path: string; status: number }[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/v2/')) calls.push({ path: url.pathname, status: response.status() });
  });
  return calls;
}

/** Whether the page is wider than its window (something overflows sideways). */
const overflowsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');

describe('the console for an auditor', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let company: SeededCompany;
  /** objects:read only. */
  let readOnlyKey: string;
  /** objects, categories and files, read only, with a label. */
  let auditorKey: string;
  let stolen: { id: string; externalId: string };
  let otherSubcategory: { id: string; name: string };

  async function post<Body>(path: string, body: unknown): Promise<Body> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': company.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Body;
  }

  beforeAll(async () => {
    [browser, company] = await Promise.all([
      launchChromium(),
      seedCompany(server, { label: 'Audit', clerkLabel: 'Registry clerk' }),
    ]);
    const keyArguments = (permissions: string, label: string) => [
      'create-key',
      '--company',
      company.companyId,
      '--permissions',
      permissions,
      '--label',
      label,
    ];
    readOnlyKey = (await admin(server, keyArguments('objects:read', 'Read only'))).apiKey ?? '';
    auditorKey =
      (await admin(server, keyArguments('objects:read,categories:read,files:read', 'Auditor (Jane Roe)')))
        .apiKey ?? '';
    // A second subcategory with a stolen object: the list shows it unless the user filters.
    const created = await post<{ data: { id: string } }>(
      `/v2/categories/${company.categoryId}/subcategories`,
      { name: 'Audit vans' },
    );
    otherSubcategory = { id: created.data.id, name: 'Audit vans' };
    const object = await post<{ id: string }>(
      `/v2/categories/${company.categoryId}/subcategories/${otherSubcategory.id}/objects`,
      { externalId: 'Audit-VAN-0001', name: 'Audit van', owner: 'Bob' },
    );
    stolen = { id: object.id, externalId: 'Audit-VAN-0001' };
    const report = await fetch(`${server.baseUrl}/v2/objects/${object.id}`, {
      method: 'PUT',
      headers: { 'X-API-Key': company.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'report_stolen' }),
    });
    if (!report.ok) throw new Error(`report_stolen: ${report.status}`);
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

  it('signs in with a read-only key, asks nothing it may not, and shows only what it may read', async () => {
    // Prepare
    const calls = recordApiCalls(page);
    // Act
    await page.goto(server.consoleUrl);
    const companyIdFields = await page.getByLabel(/Company id/).count();
    await signIn(page, server.consoleUrl, readOnlyKey);
    await page.getByRole('heading', { name: 'Objects', exact: true }).waitFor();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const navigation = await page.getByRole('navigation', { name: 'Main' }).innerText();
    await page.getByRole('link', { name: company.object.externalId }).click();
    await page.locator('ol.timeline > li').nth(3).waitFor();
    const objectPage = await page.locator('main').innerText();
    // a bookmark of a section the key may not read shows one it may
    await page.goto(`${server.consoleUrl}#/categories`);
    await page.getByRole('heading', { name: 'Objects', exact: true }).waitFor();
    // Assess
    expect(companyIdFields).toBe(0);
    expect(navigation).toContain('Signed in as Read only');
    expect(navigation).toMatch(/Objects[\s\S]*Activity[\s\S]*Log/);
    expect(navigation).not.toContain('Categories');
    expect(objectPage).not.toContain('Files');
    expect(calls.filter((call) => call.status === 403)).toEqual([]);
    expect(calls.some((call) => call.path === '/v2/me')).toBe(true);
    expect(calls.some((call) => /\/v2\/categories|\/files/.test(call.path))).toBe(false);
  });

  it('browses categories → subcategories → objects by name; pickers filter; back keeps the filter', async () => {
    // Act: the category's page, then a subcategory by a click on its row (not on its link)
    await signIn(page, server.consoleUrl, auditorKey);
    await page.getByRole('link', { name: company.categoryName }).click();
    await page.getByRole('heading', { name: company.categoryName }).waitFor();
    // The crumb names the category once the catalogue has loaded ("…" until then).
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await breadcrumb.getByText(company.categoryName).waitFor();
    const categoryCrumbs = await breadcrumb.innerText();
    const categoryViolations = await seriousAccessibilityViolations(page);
    await page
      .getByRole('row', { name: new RegExp(company.subcategoryName) })
      .getByRole('cell')
      .nth(2)
      .click();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const listCrumbs = await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText();
    const pickedCategory = await page.getByLabel('Category', { exact: true }).inputValue();
    const pickedSubcategory = await page.getByLabel('Subcategory', { exact: true }).inputValue();
    const filteredUrl = page.url();
    // Act: the whole row opens the object (a click on the owner's cell), and back keeps the filter
    await page
      .getByRole('row', { name: new RegExp(company.object.externalId) })
      .getByRole('cell')
      .nth(3)
      .click();
    await page.getByRole('heading', { name: company.object.name }).waitFor();
    const openedUrl = page.url();
    await page.goBack();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const backUrl = page.url();
    const rowsAfterBack = await page.locator('tbody tr').count();
    // the object page's "Objects" crumb leads back to the same filtered list too
    await page.getByRole('link', { name: company.object.externalId }).click();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Objects' }).click();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const crumbUrl = page.url();
    // Act: every status by default; then the pickers (names, not ids) and the status
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Objects' }).click();
    await page.getByRole('link', { name: stolen.externalId }).waitFor();
    const unfilteredRows = await page.locator('tbody').innerText();
    await page.getByLabel('Category', { exact: true }).selectOption({ label: company.categoryName });
    await page.getByLabel('Subcategory', { exact: true }).selectOption({ label: otherSubcategory.name });
    await page.getByLabel('Status').selectOption({ label: 'Not active (stolen)' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1–1 of 1').waitFor();
    const pickedRows = await page.locator('tbody').innerText();
    const listViolations = await seriousAccessibilityViolations(page);
    // Assess
    expect(categoryCrumbs).toMatch(new RegExp(`Categories\\s*›?\\s*${company.categoryName}`));
    expect(categoryViolations).toEqual([]);
    expect(listCrumbs).toMatch(
      new RegExp(
        `Categories[\\s\\S]*${company.categoryName}[\\s\\S]*${company.subcategoryName}[\\s\\S]*Objects`,
      ),
    );
    expect(pickedCategory).toBe(company.categoryId);
    expect(pickedSubcategory).toBe(company.subcategoryId);
    expect(filteredUrl).toContain(`subcategoryId=${company.subcategoryId}`);
    expect(openedUrl).toContain(`#/objects/${company.object.id}`);
    expect(backUrl).toBe(filteredUrl);
    expect(rowsAfterBack).toBe(1);
    expect(crumbUrl).toBe(filteredUrl);
    expect(unfilteredRows).toContain(company.object.externalId);
    expect(unfilteredRows).toContain(stolen.externalId);
    expect(unfilteredRows).toContain(`${company.categoryName} › ${otherSubcategory.name}`);
    expect(pickedRows).toContain(stolen.externalId);
    expect(pickedRows).not.toContain(company.object.externalId);
    expect(listViolations).toEqual([]);
  });

  it('names where the object sits, shows metadata and events in words, with the key label', async () => {
    // Prepare: a narrow window, where a long change used to widen the page
    await page.setViewportSize({ width: 700, height: 900 });
    // Act
    await signIn(page, server.consoleUrl, auditorKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects/${company.object.id}`);
    const events = page.locator('ol.timeline > li');
    await events.nth(3).waitFor();
    // the names come with the company's categories, read once per key
    await page.locator('dl.fields').getByRole('link', { name: company.categoryName }).waitFor();
    const fields = await page.locator('dl.fields').first().innerText();
    const metadata = await page.getByRole('table', { name: 'Metadata' }).innerText();
    const [create, transfer, repair, upload] = await Promise.all(
      [0, 1, 2, 3].map((n) => events.nth(n).innerText()),
    );
    const overflows = await overflowsSideways(page);
    const violations = await seriousAccessibilityViolations(page);
    await page.getByRole('link', { name: company.subcategoryName, exact: true }).first().click();
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    const subcategoryUrl = page.url();
    // Assess
    expect(fields).toMatch(new RegExp(`Category\\s+${company.categoryName}`));
    expect(fields).toMatch(new RegExp(`Subcategory\\s+${company.subcategoryName}`));
    expect(metadata).toMatch(/colour\s+red/);
    expect(metadata).toMatch(/axles\s+3/);
    expect(create).toContain(`category: — → ${company.categoryName} (${company.categoryId.slice(0, 8)}…)`);
    expect(create).toContain(`subcategory: — → ${company.subcategoryName}`);
    expect(create).toMatch(/Principal\s+apiKey:[0-9a-f]{24}/);
    expect(transfer).toContain('owner: Alice → Owner 1');
    expect(transfer).toMatch(/Principal\s+Registry clerk \(apiKey:[0-9a-f]{24}\)/);
    expect(repair).toContain('Service 2');
    expect(upload).toContain('file uploaded: service-log.txt');
    expect(upload).not.toContain('{');
    expect(overflows).toBe(false);
    expect(violations).toEqual([]);
    expect(subcategoryUrl).toContain(`subcategoryId=${company.subcategoryId}`);
  });

  it('shows the object as of an instant, with the event that set it, and the diff of two events', async () => {
    // Prepare: the instant of the object's second event (the transfer to Owner 1)
    const history = (await (
      await fetch(`${server.baseUrl}/v2/objects/${company.object.id}/events`, {
        headers: { 'X-API-Key': auditorKey },
      })
    ).json()) as { data: { timestamp: string; hash: string }[] };
    const second = history.data[1] ?? { timestamp: '', hash: '' };
    // Act: as of then, picked in the form (UTC)
    await signIn(page, server.consoleUrl, auditorKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects/${company.object.id}`);
    await page.getByLabel('As of (UTC)').fill(second.timestamp.replace(/Z$/, ''));
    await page.getByRole('button', { name: 'Show as of then' }).click();
    const status = page.getByRole('status').filter({ hasText: 'State set by event' });
    await status.waitFor();
    const asOfText = await status.innerText();
    const asOfFields = await page.locator('dl.fields').first().innerText();
    const asOfUrl = page.url();
    const asOfViolations = await seriousAccessibilityViolations(page);
    // Act: the diff between the state after event 1 and after event 4
    await page.getByLabel('After event', { exact: true }).selectOption('1');
    await page.getByLabel('And after event').selectOption('4');
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.getByRole('table', { name: /Changes from the state after event #1/ });
    await diff.waitFor();
    const diffText = await diff.innerText();
    const diffUrl = page.url();
    // Assess
    expect(asOfText).toContain('event #2');
    expect(asOfText).toContain(second.hash);
    expect(asOfFields).toMatch(/Owner\s+Owner 1/);
    expect(asOfUrl).toContain(`asOf=${encodeURIComponent(second.timestamp)}`);
    expect(asOfViolations).toEqual([]);
    expect(diffText).toMatch(/owner\s+Alice\s+Owner 1/);
    expect(diffText).not.toContain('name');
    expect(diffUrl).toMatch(/diffFrom=1&diffTo=4|diffTo=4.*diffFrom=1/);
  });

  it("lists the company's activity over a period by action, pages it, and prints it", async () => {
    // Prepare: 24 events in one more company (its subcategory's, the object's 22 and its file's):
    // a page of 20 and a page of 4
    const busy = await seedCompany(server, { label: 'Busy', updates: 21 });
    const today = new Date().toISOString().slice(0, 10);
    // Act
    await signIn(page, server.consoleUrl, busy.apiKey);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    await page.getByLabel('From (UTC day)').fill(today);
    await page.getByLabel('To (UTC day, included)').fill(today);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const pages = page.getByRole('navigation', { name: 'Activity pages' });
    await pages.getByText('1–20').waitFor();
    const firstRow = await page.locator('tbody tr').first().innerText();
    const periodUrl = page.url();
    const violations = await seriousAccessibilityViolations(page);
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('21–24').waitFor();
    const lastRow = await page.locator('tbody tr').last().innerText();
    const repairRow = await page
      .locator('tbody tr')
      .filter({ hasText: 'Object repaired' })
      .first()
      .innerText();
    await page.getByLabel('Action').selectOption({ label: 'Object transferred' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await pages.getByText('1–11').waitFor();
    const actions = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
    // Act: printed, the controls go and the period is said
    await page.emulateMedia({ media: 'print' });
    const printed = {
      header: await page.locator('header.top').isVisible(),
      form: await page.getByRole('form', { name: 'Period' }).isVisible(),
      period: await page.locator('.print-only').innerText(),
      rows: await page.locator('tbody tr').count(),
    };
    await page.emulateMedia({ media: 'screen' });
    // Act: a period with no event
    await page.getByLabel('From (UTC day)').fill('2000-01-01');
    await page.getByLabel('To (UTC day, included)').fill('2000-01-02');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByText('No event in this period.').waitFor();
    // Assess
    expect(firstRow).toContain('File uploaded');
    expect(firstRow).toContain('file uploaded: service-log.txt');
    expect(firstRow).toContain(busy.object.externalId);
    expect(periodUrl).toContain(`since=${encodeURIComponent(`${today}T00:00:00.000Z`)}`);
    expect(violations).toEqual([]);
    expect(repairRow).toMatch(/“Service \d+”/);
    expect(lastRow).toContain('Subcategory created');
    expect(lastRow).toContain('Subcategory Busy trucks');
    expect(new Set(actions)).toEqual(new Set(['Object transferred']));
    expect(actions).toHaveLength(11);
    expect(printed).toEqual({
      header: false,
      form: false,
      period: `Events of ${today} to ${today}, Object transferred, newest first.`,
      rows: 11,
    });
  });

  it('exports the matching objects as of a date, as a file or a job; the as-of list links a job', async () => {
    // Prepare: the API's answers are stood in for here (a job needs more than 4 MiB of rows):
    // this checks what the console asks and does with them. The as-of list reads the same
    // export as JSON Lines, so it meets the job too; the console's connect-src refuses the
    // file's host, so the list links the file instead of showing it.
    const asked: URL[] = [];
    await page.route('**/v2/objects/export?*', async (route) => {
      const url = new URL(route.request().url());
      asked.push(url);
      const headers = route.request().headers();
      if (headers['x-api-key'] !== auditorKey) return route.fulfill({ status: 401, body: '{}' });
      if (url.searchParams.get('format') === 'jsonl')
        return route.fulfill({
          status: 202,
          contentType: 'application/json',
          body: JSON.stringify({ id: 'job-1', status: 'running', url: null, rowCount: null, error: null }),
        });
      return route.fulfill({
        status: 200,
        contentType: 'text/csv',
        body: 'id,externalId\nx,Audit-VIN-0001\n',
      });
    });
    await page.route('**/v2/exports/job-1', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          id: 'job-1',
          status: 'completed',
          url: 'https://example.test/file.jsonl',
          rowCount: 7,
          error: null,
        }),
      }),
    );
    // Act: the subcategory's objects as of the end of 2025, as CSV
    await signIn(page, server.consoleUrl, auditorKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(
      `${server.consoleUrl}#/objects?categoryId=${company.categoryId}&subcategoryId=${company.subcategoryId}`,
    );
    await page.getByRole('link', { name: company.object.externalId }).waitFor();
    await page.getByLabel('As of (UTC; empty: now)').fill('2025-12-31T23:59:59');
    await page.getByRole('button', { name: 'Show the registry then' }).click();
    const fromJob = page.getByRole('link', { name: 'Download it (7 objects)' });
    await fromJob.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export the matching objects' }).click(),
    ]);
    let bytes = '';
    for await (const chunk of await download.createReadStream()) bytes += chunk.toString();
    // Act: as JSON Lines, which the stand-in answers as a job
    await page.getByLabel('Format').selectOption({ label: 'JSON Lines' });
    await page.getByRole('button', { name: 'Export the matching objects' }).click();
    await page.getByRole('button', { name: 'Check the export' }).click();
    const link = page.getByRole('link', { name: 'Download the export (7 objects)' });
    await link.waitFor();
    // Assess
    const csv = asked.find((url) => url.searchParams.get('format') === 'csv');
    expect(asked[0]?.searchParams.get('format')).toBe('jsonl');
    expect(await fromJob.getAttribute('href')).toBe('https://example.test/file.jsonl');
    expect(asked[0]?.searchParams.get('asOf')).toBe('2025-12-31T23:59:59.000Z');
    expect(csv?.searchParams.get('asOf')).toBe('2025-12-31T23:59:59.000Z');
    expect(csv?.searchParams.get('subcategoryId')).toBe(company.subcategoryId);
    expect(csv?.searchParams.get('status')).toBe('all');
    expect(download.suggestedFilename()).toBe('objects-as-of-2025-12-31.csv');
    expect(bytes).toContain('Audit-VIN-0001');
    expect(await link.getAttribute('href')).toBe('https://example.test/file.jsonl');
  });

  it("prints an object's history without the controls", async () => {
    // Act
    await signIn(page, server.consoleUrl, auditorKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects/${company.object.id}`);
    await page.locator('ol.timeline > li').nth(3).waitFor();
    await page.emulateMedia({ media: 'print' });
    // Assess
    expect(await page.locator('header.top').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Compare' }).isVisible()).toBe(false);
    expect(await page.getByRole('form', { name: 'As of' }).isVisible()).toBe(false);
    expect(await page.locator('ol.timeline > li').nth(3).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: company.object.name }).isVisible()).toBe(true);
  });
});
