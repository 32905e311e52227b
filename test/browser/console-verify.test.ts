/**
 * Verification in the browser, one click on the object's page: every event green against the
 * signed log; one event changed directly in DynamoDB Local, or in the bundle on its way to the
 * browser, is red with its reason, and only it; a key the visitor enters is the one used; the
 * bundle the page offers verifies offline; a pinned checkpoint warns loudly once the log no
 * longer extends it; the page fetches the object's bundle in one request (no request per
 * event), shows its progress and offers it beside Verify; the object as of an instant is
 * verified with its events up to then; a browser whose Web Crypto lacks Ed25519 verifies with
 * the console's fallback (through the `#/objects/<id>/verify` deep link).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { type LedgerBundle, verifyBundle } from '../../verifier/index';
import { closePage, consoleServer, launchChromium, openPage, signIn } from '../support/browser';
import { type SeededCompany, seedCompany } from '../support/console-seed';
import { localLogKey, signedCheckpoint, strangerVerifierKey } from '../support/ledger-signing';
import { eventually } from '../support/local-server';

jest.setTimeout(180_000);

describe('verifying an object in the browser', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;

  const api = async (path: string, apiKey: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.text();
  };
  const treeSizeNow = async (apiKey: string) =>
    Number((await api('/v2/ledger/checkpoint', apiKey)).split('\n')[1]);

  /** Verify pressed once on the object's page (`query`: `?asOf=…`), or on the deep link. */
  async function openVerify(company: SeededCompany, { query = '', deepLink = false } = {}) {
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goto(`${server.consoleUrl}#/objects/${company.object.id}${deepLink ? '/verify' : ''}${query}`);
    if (!deepLink) await page.getByRole('heading', { name: company.object.name, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 60_000 });
  }

  beforeAll(async () => {
    browser = await launchChromium();
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

  it('shows every event verified, names the key it used, and offers the bundle for the offline verifier', async () => {
    // Prepare
    const company = await seedCompany(server, { label: 'Verified', updates: 3 });
    // Act
    await openVerify(company);
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toBe('✔ All 5 events verified');
    expect(await page.locator('ol.timeline > li.event.verified').count()).toBe(5);
    expect(await page.locator('ol.timeline > li.event.failed').count()).toBe(0);
    const serverKey = (await api('/v2/ledger/key', company.apiKey)).trim();
    expect(await page.locator('dl.fields').first().innerText()).toContain(
      `${serverKey} (published by the server)`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download verification bundle' }).click(),
    ]);
    let text = '';
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    const bundle = JSON.parse(text) as LedgerBundle;
    expect(bundle.format).toBe('asset-registry-ledger-bundle@v1');
    expect((await verifyBundle(bundle, serverKey)).ok).toBe(true);
  });

  it('fetches the bundle in one request, shows its progress, and offers it beside Verify', async () => {
    // Prepare: every API request the page makes, and every progress line it shows
    const company = await seedCompany(server, { label: 'One request', updates: 3 });
    // Every event in a checkpoint first, so that no request is a retry after EVENT_NOT_YET_LOGGED
    await eventually(
      async () =>
        (
          await fetch(`${server.baseUrl}/v2/objects/${company.object.id}/bundle`, {
            headers: { 'X-API-Key': company.apiKey },
          })
        ).status === 200,
      30_000,
    );
    const requested: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v2/objects/')) requested.push(url.pathname);
    });
    await page.addInitScript(`(() => {
      window.progressLines = [];
      new MutationObserver(() => {
        for (const status of document.querySelectorAll('p[role="status"]')) window.progressLines.push(status.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    })()`);
    // Act
    await openVerify(company);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download bundle', exact: true }).click(),
    ]);
    // Assess: one bundle request for Verify and one for the download; no proof request per event
    expect(await page.locator('[data-verdict]').innerText()).toBe('✔ All 5 events verified');
    const bundlePath = `/v2/objects/${company.object.id}/bundle`;
    expect(requested.filter((path) => path.endsWith('/bundle') || path.endsWith('/proof'))).toEqual([
      bundlePath,
      bundlePath,
    ]);
    const lines = await page.evaluate<string[]>('window.progressLines');
    expect(lines.some((line) => /^Fetching the bundle: \d+ KB received$/.test(line))).toBe(true);
    expect(await page.locator('p.progress[role="status"]').innerText()).toBe('Checked 5 of 5 events');
    // Printed: the verdict stays, the controls go
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('[data-verdict]').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Verify again', exact: true }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Download bundle', exact: true }).isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    let text = '';
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    const serverKey = (await api('/v2/ledger/key', company.apiKey)).trim();
    expect((await verifyBundle(JSON.parse(text) as LedgerBundle, serverKey)).ok).toBe(true);
  });

  it('verifies with @noble/ed25519 where Web Crypto has no Ed25519 (Chrome < 137, Firefox < 129, Safari < 17)', async () => {
    // Prepare: Web Crypto refuses Ed25519 keys, as in those browsers
    const company = await seedCompany(server, { label: 'Fallback', updates: 1 });
    await page.addInitScript(`(() => {
      const importKey = crypto.subtle.importKey.bind(crypto.subtle);
      window.ed25519Refusals = 0;
      crypto.subtle.importKey = (format, keyData, algorithm, ...rest) => {
        if ((algorithm?.name ?? algorithm) === 'Ed25519') {
          window.ed25519Refusals++;
          return Promise.reject(new DOMException('Unrecognized algorithm name', 'NotSupportedError'));
        }
        return importKey(format, keyData, algorithm, ...rest);
      };
    })()`);
    // Act
    await openVerify(company, { deepLink: true });
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toBe('✔ All 3 events verified');
    expect(await page.evaluate<number>('window.ed25519Refusals')).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Log', exact: true }).click();
    await page.getByText('✔ Signature verified in this browser').waitFor();
  });

  it('shows exactly the event changed in DynamoDB red, with its reason', async () => {
    // Prepare: rewrite who received the object in event 2, leaving its stored hash as it was
    const company = await seedCompany(server, { label: 'Tampered', updates: 3 });
    const environment = server.stackEnvironment();
    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: environment.LOCAL_DYNAMODB_ENDPOINT,
        region: environment.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    await eventually(async () => (await treeSizeNow(company.apiKey)) > 0, 30_000);
    await table.send(
      new UpdateCommand({
        TableName: environment.TABLE_NAME,
        Key: { pk: `T#${company.companyId}#LEDGER#object#${company.object.id}`, sk: 'EVENT#0000000002' },
        UpdateExpression: 'SET changesJson = :forged',
        ExpressionAttributeValues: { ':forged': JSON.stringify({ owner: { from: 'Alice', to: 'Mallory' } }) },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    table.destroy();
    // Act
    await openVerify(company);
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toMatch(/Verification failed: 1 of 5 events/);
    const failed = page.locator('ol.timeline > li.event.failed');
    expect(await failed.count()).toBe(1);
    expect(await failed.getAttribute('data-sequence')).toBe('2');
    expect(await failed.innerText()).toMatch(/failed: hash mismatch/);
    expect(await failed.innerText()).toContain('owner: Alice → Mallory');
    expect(await page.getByRole('alert').innerText()).toMatch(/Event #2 failed: hash mismatch/);
    expect(await page.locator('ol.timeline > li.event.verified').count()).toBe(4);
  });

  it('refuses a bundle changed on its way to the browser, naming the event', async () => {
    // Prepare: the bundle as served, with event 3's owner rewritten and its hash left as it was
    const company = await seedCompany(server, { label: 'Intercepted', updates: 3 });
    await page.route(`**/v2/objects/${company.object.id}/bundle`, async (route) => {
      const response = await route.fetch();
      if (!response.ok()) return route.fulfill({ response });
      const bundle = JSON.parse(await response.text()) as LedgerBundle;
      const events = bundle.events.map((event, index) =>
        index === 2 ? { ...event, changes: { owner: { from: 'Alice', to: 'Mallory' } } } : event,
      );
      return route.fulfill({ response, body: JSON.stringify({ ...bundle, events }) });
    });
    // Act
    await openVerify(company);
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toMatch(/Verification failed: 1 of 5 events/);
    const failed = page.locator('ol.timeline > li.event.failed');
    expect(await failed.count()).toBe(1);
    expect(await failed.getAttribute('data-sequence')).toBe('3');
    expect(await page.getByRole('alert').innerText()).toMatch(/Event #3 failed: hash mismatch/);
  });

  it('verifies the object as of the instant shown, with its events up to then', async () => {
    // Prepare: the instant of the second event
    const company = await seedCompany(server, { label: 'As of', updates: 3 });
    const { data: events } = JSON.parse(
      await api(`/v2/objects/${company.object.id}/events`, company.apiKey),
    ) as { data: { timestamp: string }[] };
    const instant = [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp))[1]?.timestamp ?? '';
    const expected = events.filter((event) => event.timestamp <= instant).length;
    const bundleQueries: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/bundle')) bundleQueries.push(url.searchParams.get('asOf') ?? '');
    });
    // Act
    await openVerify(company, { query: `?asOf=${instant}` });
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toBe(`✔ All ${expected} events verified`);
    expect(expected).toBeLessThan(5);
    // Every bundle asked is of that instant (more than one when the first met a 409 while the
    // sequencer had not logged the object's last event yet, and the page asked again).
    expect(bundleQueries.length).toBeGreaterThan(0);
    expect(new Set(bundleQueries)).toEqual(new Set([instant]));
  });

  it('uses the verifier key the visitor enters, and says which key it used', async () => {
    // Prepare
    const company = await seedCompany(server, { label: 'Trusting', updates: 1 });
    const serverKey = (await api('/v2/ledger/key', company.apiKey)).trim();
    const origin = serverKey.split('+')[0] as string;
    const stranger = await strangerVerifierKey(origin);
    await signIn(page, server.consoleUrl, company.apiKey);
    // Act: trust a key that did not sign the log
    await page.getByRole('link', { name: 'Log' }).click();
    await page.getByLabel('Trusted verifier key').fill(stranger);
    await page.getByRole('button', { name: 'Use this key' }).click();
    // Assess
    await page.getByText(/The checkpoint does not verify with this key/).waitFor();
    expect(await page.locator('dl.fields').innerText()).toContain(`${stranger} (the key you entered)`);
    await page.goto(`${server.consoleUrl}#/objects/${company.object.id}`);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-verdict]').innerText()).toMatch(
      /failed: 3 of 3 events and the checkpoint/,
    );
    expect(await page.getByRole('alert').innerText()).toMatch(/The checkpoint failed: .*key/);

    // Act: trust the log's real key, entered by hand
    await page.goto(`${server.consoleUrl}#/log`);
    await page.getByLabel('Trusted verifier key').fill(serverKey);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByText('✔ Signature verified in this browser').waitFor();
    expect(await page.locator('dl.fields').innerText()).toContain(`${serverKey} (the key you entered)`);
  });

  it('keeps a pinned checkpoint, checks later logs against it, and warns loudly when the log was rewritten', async () => {
    // Prepare
    const company = await seedCompany(server, { label: 'Pinning', updates: 1 });
    await eventually(async () => (await treeSizeNow(company.apiKey)) > 0, 30_000);
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('link', { name: 'Log' }).click();
    // Act: pin the current checkpoint
    await page.getByRole('button', { name: /^Pin this checkpoint/ }).click();
    const pinned = JSON.parse(
      (await page.evaluate<string | null>(
        "localStorage.getItem('asset-registry-console.pinned-checkpoint')",
      )) ?? '{}',
    ) as { treeSize: number; checkpoint: string };
    expect(pinned.treeSize).toBeGreaterThan(0);
    // the log grows; the next visit proves it still extends the pin
    await api(`/v2/objects/${company.object.id}`, company.apiKey, {
      method: 'PUT',
      body: { action: 'repair', eventDescription: 'after the pin' },
    });
    await eventually(async () => (await treeSizeNow(company.apiKey)) > pinned.treeSize, 30_000);
    // a later visit (the key was kept in memory only, so it is typed again)
    await page.reload();
    await signIn(page, server.consoleUrl, company.apiKey);
    // Assess
    await page
      .getByText(`The log is consistent with the checkpoint you pinned (size ${pinned.treeSize})`)
      .waitFor();

    // Act: what a forked log looks like to this browser: the pinned checkpoint, validly
    // signed by the log's key, has a root the current log does not extend
    const origin = pinned.checkpoint.split('\n')[0] as string;
    const forged = await signedCheckpoint(
      localLogKey(server.dataDirectory),
      origin,
      pinned.treeSize,
      new Uint8Array(32).fill(7),
    );
    await page.evaluate(
      `localStorage.setItem('asset-registry-console.pinned-checkpoint', JSON.stringify({
        ...JSON.parse(localStorage.getItem('asset-registry-console.pinned-checkpoint')),
        checkpoint: ${JSON.stringify(forged)},
        rootHash: '${'07'.repeat(32)}',
      }))`,
    );
    await page.reload();
    await signIn(page, server.consoleUrl, company.apiKey);
    // Assess: on every view
    const warning = page.locator('.rewritten[role="alert"]');
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(
      /the log was rewritten.*consistency proof from size \d+ to \d+ does not hold/is,
    );
    await page.getByRole('link', { name: 'Categories' }).click();
    expect(await page.locator('.rewritten[role="alert"]').count()).toBe(1);
  });
});
