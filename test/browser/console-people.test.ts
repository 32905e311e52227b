/**
 * People sign in to the console through the local identity provider (issue 28 item 6): the
 * editor signs in on the provider's page, creates an object whose event names them, and signs
 * out; the viewer browses without the actions their role may not take; a sign-in the API no
 * longer accepts says "Sign in again". (The expiry timer is unit-tested:
 * test/unit/console-sign-in-expiry.test.ts; the tier's one `npm start` keeps the provider's
 * one-hour ID tokens.)
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page, Response } from 'playwright-core';
import type { StackState } from '../../local/stack-state';
import {
  closePage,
  consoleServer,
  launchChromium,
  openPage,
  seriousAccessibilityViolations,
} from '../support/browser';
import { admin } from '../support/console-seed';
import { readStackStateFile } from '../support/local-server';

jest.setTimeout(180_000);

/** The local identity provider of the tier's `npm start`, as its stack state names it. */
type LocalIdentityProvider = StackState['identityProvider'];

const PERSON_BUTTON = "Sign in with your company's account";

describe("people's sign-in to the console", () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;
  let provider: LocalIdentityProvider;
  let password: string;
  /** The Demo company's category and subcategory, made with a key (the console creates no category). */
  let place: { categoryName: string; subcategoryName: string };
  /** The object the editor created, for the viewer to browse. */
  let created: { id: string; externalId: string; name: string } | undefined;

  beforeAll(async () => {
    const state = readStackStateFile(server.dataDirectory) as
      | { identityProvider?: LocalIdentityProvider }
      | undefined;
    if (!state?.identityProvider)
      throw new Error("The tier's npm start has no identity provider in its stack state");
    provider = state.identityProvider;
    password = readFileSync(provider.passwordFile, 'utf8').trim();
    const suffix = Date.now().toString(36);
    const { apiKey = '' } = await admin(server, [
      'create-key',
      '--company',
      provider.companyId,
      '--permissions',
      'categories:read,categories:write',
      '--label',
      `People test ${suffix}`,
    ]);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id?: string; data?: { id: string } };
    };
    place = { categoryName: `People vehicles ${suffix}`, subcategoryName: `People vans ${suffix}` };
    const category = await post('/v2/categories', { name: place.categoryName });
    await post(`/v2/categories/${category.id}/subcategories`, { name: place.subcategoryName });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    // A context of its own each: the provider's session cookie of one person stays out of another's.
    page = await openPage(browser);
  });
  afterEach(async () => {
    await closePage(page);
  });

  /** Signs in on the provider's own page, as a person would, and waits for the console's header. */
  async function signInAs(login: string, heading: string) {
    await page.goto(server.consoleUrl);
    await page.getByRole('button', { name: PERSON_BUTTON }).click();
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${heading}`).waitFor();
  }

  /** What the page keeps in its storage, every key and value, as one text. */
  const storedText = (target: Page) =>
    target.evaluate<string>('JSON.stringify([Object.entries(sessionStorage), Object.entries(localStorage)])');

  it('signs the editor in through the provider, names them in the event they cause, and signs them out', async () => {
    // Prepare
    const providerHost = new URL(provider.issuer).host;
    const principal = `user:demo-eddie@${providerHost}`;
    const externalId = `EDDIE-${Date.now().toString(36)}`;
    // Act: sign in on the provider's page
    await signInAs('eddie@demo.example', 'Eddie Editor (editor)');
    const addressAfterSignIn = page.url();
    const storedAfterSignIn = await storedText(page);
    // Act: create an object in the Demo company, and read its history
    await page.getByRole('link', { name: 'Objects', exact: true }).click();
    await page.getByRole('button', { name: 'New object' }).click();
    const form = page.getByRole('form', { name: 'New object' });
    await form
      .getByLabel('Subcategory')
      .selectOption({ label: `${place.categoryName} › ${place.subcategoryName}` });
    await form.getByLabel('External id').fill(externalId);
    await form.getByLabel('Name').fill('Eddie van');
    await form.getByRole('button', { name: 'Create object' }).click();
    await page.getByRole('heading', { level: 1, name: 'Eddie van' }).waitFor();
    const timeline = page.locator('ol.timeline > li').first();
    await timeline.getByText(principal, { exact: false }).waitFor();
    const firstEvent = await timeline.innerText();
    created = { id: new URL(page.url()).hash.split('/')[2] ?? '', externalId, name: 'Eddie van' };
    const editorSees = {
      verify: await page.getByRole('button', { name: 'Verify', exact: true }).isVisible(),
    };
    // Act: sign out (the provider's end-session page asks to confirm that its own session ends too)
    const endSession: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === new URL(provider.issuer).origin && url.searchParams.has('post_logout_redirect_uri'))
        endSession.push(url);
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    // oidc-provider's confirmation form: its own button, whatever the page calls it
    const confirm = page.locator('button[name="logout"][value="yes"]');
    const personButton = page.getByRole('button', { name: PERSON_BUTTON });
    await confirm.or(personButton).waitFor();
    if (await confirm.isVisible()) await confirm.click();
    await personButton.waitFor();
    // Assess: the address holds no code or state; the storage holds no token
    expect(addressAfterSignIn).not.toMatch(/[?&](code|state)=/);
    expect(storedAfterSignIn).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(storedAfterSignIn).not.toContain('sign-in-round-trip');
    // Assess: the event names the person, with their name as the principal's reading and performedBy
    expect(firstEvent).toContain('#1 create');
    expect(firstEvent).toContain(`Eddie Editor (${principal})`);
    expect(firstEvent).toMatch(/Performed by\s+Eddie Editor/);
    expect(editorSees).toEqual({ verify: true });
    expect(new URL(page.url()).pathname).toBe('/console/');
    expect(endSession.map((url) => url.searchParams.get('post_logout_redirect_uri'))).toEqual([
      server.consoleUrl,
    ]);
  });

  it('lets the viewer browse, without the actions a viewer may not take', async () => {
    // Prepare
    const refused: string[] = [];
    page.on('response', (response: Response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/v2/') && response.status() >= 400)
        refused.push(`${response.status()} ${url.pathname}`);
    });
    // Act
    await signInAs('vera@demo.example', 'Vera Viewer (viewer)');
    await page.getByRole('link', { name: 'Objects', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Objects' }).waitFor();
    await page.locator('table tbody tr').first().waitFor();
    const listSees = {
      newObject: await page.getByRole('button', { name: 'New object' }).count(),
      registryAsOf: await page.getByRole('heading', { name: 'The registry as of a date' }).count(),
      export: await page.getByRole('button', { name: /export/i }).count(),
    };
    const objectHref = created ? `#/objects/${created.id}` : '';
    if (created) await page.getByRole('link', { name: created.externalId }).click();
    else await page.locator('table tbody tr a').first().click();
    await page.locator('ol.timeline > li').first().waitFor();
    const objectSees = {
      verify: await page.getByRole('button', { name: 'Verify', exact: true }).count(),
      bundle: await page.getByRole('button', { name: /bundle/i }).count(),
    };
    const violations = await seriousAccessibilityViolations(page);
    // Assess
    expect(listSees).toEqual({ newObject: 0, registryAsOf: 0, export: 0 });
    expect(objectSees).toEqual({ verify: 0, bundle: 0 });
    if (objectHref) expect(page.url()).toContain(objectHref);
    expect(refused).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('says "Sign in again" when the API no longer accepts the sign-in', async () => {
    // Prepare: the auditor signs in; then the API answers 401 to the token, as to an expired one
    await signInAs('aude@demo.example', 'Aude Auditor (auditor)');
    await page.route('**/v2/objects**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'The token has expired: sign in again', code: 'UNAUTHORIZED' }),
      }),
    );
    // Act
    await page.getByRole('link', { name: 'Objects', exact: true }).click();
    await page.getByText('Your sign-in has expired').waitFor();
    const violations = await seriousAccessibilityViolations(page);
    const again = page.getByRole('button', { name: 'Sign in again' });
    // Assess
    expect(await again.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(violations).toEqual([]);
  });
});
