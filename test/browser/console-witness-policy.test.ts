/**
 * A witness policy entered in the console: a malformed policy is refused naming its line;
 * Verify refuses a checkpoint whose cosignatures miss the quorum, naming the missing witness,
 * and accepts it once the policy's quorum is met, saying who cosigned; the log page shows the
 * same. Until the local log calls witnesses (issue 26, the log side), the test cosigns the
 * served checkpoint itself: it intercepts the checkpoint and bundle responses in the browser
 * and appends one witness's cosignature (made with Node's crypto from the C2SP text) to the
 * log's real signed checkpoint. A second witness of the policy never cosigns.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { formatVerifierKey, type LedgerBundle, parseTlogProof } from '../../verifier/index';
import {
  closePage,
  consoleServer,
  launchChromium,
  openPage,
  seriousAccessibilityViolations,
  signIn,
} from '../support/browser';
import { seedCompany } from '../support/console-seed';
import { cosigned, newSigner, policyText } from '../support/witnessing';

jest.setTimeout(180_000);

const auditor = newSigner('auditor.example');
const insurer = newSigner('insurer.example');

/** A tlog-proof with the auditor's cosignature on the checkpoint it holds. */
function proofCosignedByAuditor(proof: string): string {
  const { checkpoint } = parseTlogProof(proof);
  return proof.slice(0, -checkpoint.length) + cosigned(checkpoint, auditor);
}

/**
 * The response as the server sent it, with the auditor's cosignature on the checkpoint it holds:
 * the checkpoint, or an object's bundle (its checkpoint and the one inside every proof).
 */
async function cosignedByAuditor(route: Route): Promise<void> {
  const response = await route.fetch();
  const body = await response.text();
  if (!response.ok()) return route.fulfill({ response, body });
  if (!body.startsWith('{')) return route.fulfill({ response, body: cosigned(body, auditor) });
  const bundle = JSON.parse(body) as LedgerBundle;
  const witnessed: LedgerBundle = {
    ...bundle,
    checkpoint: cosigned(bundle.checkpoint, auditor),
    proofs: bundle.proofs.map(proofCosignedByAuditor),
  };
  return route.fulfill({ response, body: JSON.stringify(witnessed) });
}

describe('a witness policy in the console', () => {
  const server = consoleServer();
  let browser: Browser;
  let page: Page;

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

  async function enterPolicy(text: string) {
    await page.goto(`${server.consoleUrl}#/log`);
    await page.getByLabel('Witness policy').fill(text);
    await page.getByRole('button', { name: 'Use this policy' }).click();
  }

  /** Verify, pressed once on the object's page. */
  async function verify(objectId: string) {
    await page.goto(`${server.consoleUrl}#/objects/${objectId}`);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.locator('[data-verdict]').waitFor({ timeout: 60_000 });
  }

  it('refuses a checkpoint that misses the quorum, naming the missing witness, and accepts it once the quorum is met', async () => {
    // Prepare: the served checkpoint (alone and inside every proof) carries the auditor's cosignature
    const company = await seedCompany(server, { label: 'Witnessed', updates: 1 });
    await page.route('**/v2/ledger/checkpoint', cosignedByAuditor);
    await page.route(`**/v2/objects/${company.object.id}/bundle`, cosignedByAuditor);
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();

    // Act: a malformed policy
    await enterPolicy(
      `witness auditor.example ${await formatVerifierKey('auditor.example', auditor.publicKey)}\nquorum auditor.example`,
    );
    // Assess: refused, naming the line; nothing saved
    expect(await page.getByRole('alert').innerText()).toMatch(
      /The policy was not saved: policy line 1: .*type 0x04/,
    );
    expect(await page.evaluate("localStorage.getItem('asset-registry-console.witness-policy')")).toBeNull();

    // Act: both witnesses required; only the auditor cosigned
    const both = await policyText(
      undefined,
      [auditor, insurer],
      'group both all auditor.example insurer.example\nquorum both',
    );
    await enterPolicy(both);
    // Assess: the log page says so, and the checkpoint cannot be pinned
    await page.getByText('A witness policy is in use in this browser.').waitFor();
    const logNotice = page.locator('[data-witnesses="not-met"]');
    await logNotice.waitFor();
    expect(await logNotice.innerText()).toMatch(
      /Not cosigned to your witness quorum: .*missing insurer\.example/,
    );
    expect(await page.getByRole('button', { name: /^Pin this checkpoint/ }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Act
    await verify(company.object.id);
    // Assess: every event holds, the checkpoint is refused for its witnesses
    expect(await page.locator('[data-verdict]').innerText()).toBe(
      '✘ Verification failed: the witness policy',
    );
    expect(await page.locator('ol.timeline > li.event.verified').count()).toBe(3);
    expect(await page.getByRole('alert').innerText()).toMatch(
      /The witness policy is not met: .*quorum both: missing insurer\.example/,
    );
    expect(await page.locator('[data-witnesses]').innerText()).toBe(
      'Cosigned by auditor.example; missing insurer.example. Your quorum is not met.',
    );
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Act: a quorum the auditor alone meets, with the log's key taken from the policy
    const serverKey = (
      await (
        await fetch(`${server.baseUrl}/v2/ledger/key`, { headers: { 'X-API-Key': company.apiKey } })
      ).text()
    ).trim();
    const either = `log ${serverKey}\n${await policyText(undefined, [auditor, insurer], 'group either any auditor.example insurer.example\nquorum either')}`;
    await enterPolicy(either);
    await page.getByText('✔ Cosigned to your witness quorum, by auditor.example').waitFor();
    await verify(company.object.id);
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toBe('✔ All 3 events verified');
    expect(await page.locator('[data-witnesses]').innerText()).toBe(
      'Cosigned by auditor.example; missing insurer.example. Your quorum is met.',
    );
    expect(await page.locator('dl.fields').first().innerText()).toContain(
      `${serverKey} (a log key of your witness policy)`,
    );
  });

  it('checks no cosignature without a policy, as before, and after the policy is emptied', async () => {
    const company = await seedCompany(server, { label: 'Unwitnessed', updates: 1 });
    await signIn(page, server.consoleUrl, company.apiKey);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await enterPolicy(await policyText(undefined, [insurer], 'quorum insurer.example'));
    await page.getByText('A witness policy is in use in this browser.').waitFor();
    await verify(company.object.id);
    expect(await page.locator('[data-verdict]').innerText()).toBe(
      '✘ Verification failed: the witness policy',
    );
    // Act: empty the policy
    await enterPolicy('');
    await page.getByText('No witness policy: cosignatures are not checked.').waitFor();
    await verify(company.object.id);
    // Assess
    expect(await page.locator('[data-verdict]').innerText()).toBe('✔ All 3 events verified');
    expect(await page.locator('[data-witnesses]').innerText()).toBe(
      'No witness policy entered: cosignatures are not checked.',
    );
  });
});
