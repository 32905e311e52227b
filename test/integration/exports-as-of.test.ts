/**
 * The registry as of an instant (issue 25, items 3 and 5), through the export handler against
 * DynamoDB Local and s3rver: objects changed before and after the instant, objects created
 * after it (left out), filters and sorts applied to the state as it stood, CSV and JSON Lines,
 * the background job above the inline limit, and the inventory with proofs that the offline
 * verifier (`verifier/inventory.ts`, `npm run verify-inventory`) checks row by row.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { logVerifierKey } from '../../lambdas/domain/ledger/log-service';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { verifyInventory } from '../../verifier/index';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenCategory, givenSubcategory } from '../support/fixtures';
import { exportObjects, getExport } from '../support/import-requests';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { createObjectOk, type ObjectBody, updateObjectOk } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

const run = promisify(execFile);

type Row = ObjectBody & {
  category: string | null;
  subcategory: string | null;
  asOf?: string;
  asOfEvent?: { sequence: number; hash: string };
  proof?: { setBy: { event: Record<string, unknown> }; next?: { event: Record<string, unknown> } };
};

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);

/** Events are stamped to the millisecond: a pause keeps the instant apart from them. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

let ledger: IsolatedLedger;
const principal = companyPrincipal();
let instant: string;
let alpha: ObjectBody;
let bravo: ObjectBody;
let charlie: ObjectBody;
let late: ObjectBody;
let vansId: string;

async function exportText(query: Record<string, string>): Promise<string> {
  const response = await exportObjects(principal, query);
  if (response.statusCode !== 200) throw new Error(`export ${response.statusCode}: ${response.text}`);
  return response.text;
}

const ids = (rows: Row[]) => rows.map((row) => row.id);

beforeAll(async () => {
  ledger = await useIsolatedLedger();
  const category = await givenCategory(principal, 'Fleet');
  const trucks = await givenSubcategory(principal, category.id, 'Trucks');
  const vans = await givenSubcategory(principal, category.id, 'Vans');
  vansId = vans.id;
  const inTrucks = { categoryId: category.id, subcategoryId: trucks.id };
  const inVans = { categoryId: category.id, subcategoryId: vans.id };
  // Alpha: unchanged since. Bravo: changed only after the instant. Charlie: changed before and after.
  alpha = await createObjectOk(principal, inTrucks, { externalId: 'A-1', name: 'Alpha', owner: 'Alice' });
  bravo = await createObjectOk(principal, inVans, { externalId: 'B-1', name: 'Bravo', owner: 'Bob' });
  charlie = await createObjectOk(principal, inVans, { externalId: 'C-1', name: 'Charlie', owner: 'Carl' });
  await updateObjectOk(principal, charlie.id, { action: 'transfer', owner: 'Dave', name: 'Delta' });
  await pause();
  instant = new Date().toISOString();
  await pause();
  await updateObjectOk(principal, bravo.id, { action: 'transfer', owner: 'Carol', name: 'Zulu' });
  await updateObjectOk(principal, bravo.id, { action: 'report_stolen' });
  await updateObjectOk(principal, charlie.id, { action: 'update', name: 'Aardvark' });
  late = await createObjectOk(principal, inTrucks, { externalId: 'L-1', name: 'Late', owner: 'Lee' });
});

afterAll(() => ledger.restore());

/** Sequencer cycles until one took everything the outbox held: every event so far is in the log. */
async function sequenceAll(): Promise<void> {
  while (!(await runSequencerCycle({ signer: ledger.signer, leaseMs: 100 })).caughtUp) {
    // another cycle
  }
}

describe('an export as of an instant', () => {
  it('gives every object as it stood then, with the event that set it, and leaves out later ones', async () => {
    // Act
    const rows = jsonLines(
      await exportText({ format: 'jsonl', asOf: instant, status: 'all', sort: 'createdAt:asc' }),
    );
    // Assess
    expect(ids(rows)).toEqual([alpha.id, bravo.id, charlie.id]);
    const [a, b, c] = rows;
    expect(a).toMatchObject({
      name: 'Alpha',
      owner: 'Alice',
      status: 'active',
      asOf: instant,
      asOfEvent: { sequence: 1, hash: alpha.blockchain.txId },
      category: 'Fleet',
      subcategory: 'Trucks',
    });
    expect(b).toMatchObject({
      name: 'Bravo',
      owner: 'Bob',
      status: 'active',
      updatedAt: bravo.createdAt,
      blockchain: { txId: bravo.blockchain.txId, lastTxId: bravo.blockchain.txId, eventCount: 1 },
      asOfEvent: { sequence: 1, hash: bravo.blockchain.txId },
    });
    expect(c).toMatchObject({ name: 'Delta', owner: 'Dave', status: 'active', asOfEvent: { sequence: 2 } });
    expect(c?.blockchain.lastTxId).toBe(c?.asOfEvent?.hash);
    expect(rows.some((row) => row.id === late.id)).toBe(false);
  });

  it('without asOf stays the current state, with no as-of fields', async () => {
    const rows = jsonLines(await exportText({ format: 'jsonl', status: 'all', sort: 'createdAt:asc' }));
    expect(ids(rows)).toEqual([alpha.id, bravo.id, charlie.id, late.id]);
    expect(rows[1]).toMatchObject({ name: 'Zulu', status: 'stolen' });
    expect(rows[1]).not.toHaveProperty('asOfEvent');
  });

  it.each([
    [{ status: 'inactive' }, []],
    [{ status: 'active' }, ['A-1', 'B-1', 'C-1']],
    [{ status: 'all', name: 'zulu' }, []],
    [{ status: 'all', name: 'brav' }, ['B-1']],
    [{ status: 'all', owner: 'dave' }, ['C-1']],
    [{ status: 'all', externalId: 'C-1' }, ['C-1']],
    [{ status: 'all', externalId: 'L-1' }, []],
    [{ status: 'all', sort: 'createdAt:desc' }, ['C-1', 'B-1', 'A-1']],
    [{ status: 'all', sort: 'name:asc' }, ['A-1', 'B-1', 'C-1']],
    [{ status: 'all', sort: 'name:desc' }, ['C-1', 'B-1', 'A-1']],
  ] as Array<[Record<string, string>, string[]]>)(
    'applies %j to the state as it stood',
    async (query, expected) => {
      const rows = jsonLines(
        await exportText({ sort: 'createdAt:asc', ...query, format: 'jsonl', asOf: instant }),
      );
      expect(rows.map((row) => row.externalId)).toEqual(expected);
    },
  );

  it('filters by subcategory as it stood, sorted by the names of then', async () => {
    const rows = jsonLines(
      await exportText({ format: 'jsonl', asOf: instant, subcategoryId: vansId, sort: 'name:desc' }),
    );
    // Now: Zulu (stolen, inactive) and Aardvark; then: Delta and Bravo, both active.
    expect(rows.map((row) => row.name)).toEqual(['Delta', 'Bravo']);
  });

  it('writes CSV with the event columns last', async () => {
    const text = await exportText({ format: 'csv', asOf: instant, status: 'all', sort: 'createdAt:asc' });
    const [header, ...lines] = text.trimEnd().split('\r\n');
    expect(header?.split(',').slice(-4)).toEqual(['lastTxId', 'eventCount', 'asOfSequence', 'asOfHash']);
    expect(lines).toHaveLength(3);
    expect(lines[2]?.split(',').slice(-2)).toEqual(['2', expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(lines[1]).toContain(',Bravo,');
  });

  it.each([
    [{ asOf: '31/12/2026' }, 'asOf', 'FORMAT_INVALID'],
    [{ asOf: '2026-12-31' }, 'asOf', 'FORMAT_INVALID'],
    [{ asOf: '2026-12-31T23:59:59Z', proofs: 'true' }, 'proofs', 'FORMAT_INVALID'],
    [{ format: 'jsonl', proofs: 'true' }, 'asOf', 'REQUIRED'],
  ] as Array<[Record<string, string>, string, string]>)('refuses %j with 400', async (query, field, code) => {
    const response = await exportObjects(principal, query);
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.text);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.validationErrors).toContainEqual(expect.objectContaining({ field, code }));
  });
});

describe('an inventory with proofs', () => {
  let inventory: string;
  let verifierKey: string;

  beforeAll(async () => {
    await sequenceAll();
    verifierKey = (await logVerifierKey()).trim();
    inventory = await exportText({
      format: 'jsonl',
      asOf: instant,
      proofs: 'true',
      status: 'all',
      sort: 'createdAt:asc',
    });
  });

  it('opens with the checkpoint once, and each row verifies on its own, with the next event where it changed', async () => {
    // Act
    const verdict = await verifyInventory(inventory, verifierKey);
    // Assess
    const [header, ...rows] = inventory
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(header).toMatchObject({ format: 'asset-registry-inventory@v1', asOf: instant });
    expect(rows.every((row) => !String(row.proof.setBy.tlogProof).includes(header.checkpoint))).toBe(true);
    expect(verdict).toMatchObject({ ok: true, passed: 3, failed: 0, asOf: instant });
    expect(verdict.rows.map((row) => [row.id, row.sequence, row.nextSequence])).toEqual([
      [alpha.id, 1, undefined],
      [bravo.id, 1, 2],
      [charlie.id, 2, 3],
    ]);
  });

  it.each([
    [
      'a field the event set',
      (row: Row) => Object.assign(row, { owner: 'Mallory' }),
      /owner is not the value/,
    ],
    [
      'the next event moved before the instant',
      (row: Row) => Object.assign(row.proof!.next!.event, { timestamp: row.createdAt }),
      /hash mismatch: the next event/,
    ],
    [
      'another event of the chain',
      (row: Row) => Object.assign(row, { asOfEvent: { ...row.asOfEvent, sequence: 2 } }),
      /asOfEvent is not/,
    ],
  ] as Array<[string, (row: Row) => void, RegExp]>)(
    'refuses a row with %s, and only that row',
    async (_, tamper, reason) => {
      // Prepare
      const lines = inventory.trimEnd().split('\n');
      const row = JSON.parse(lines[2] as string) as Row;
      tamper(row);
      lines[2] = JSON.stringify(row);
      // Act
      const verdict = await verifyInventory(`${lines.join('\n')}\n`, verifierKey);
      // Assess
      expect(verdict.ok).toBe(false);
      expect(verdict.rows.map((verdictRow) => verdictRow.ok)).toEqual([true, false, true]);
      expect(verdict.rows[1]?.reason).toMatch(reason);
    },
  );

  it('is refused with another log key', async () => {
    const other = verifierKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    const verdict = await verifyInventory(inventory, other);
    expect(verdict.ok).toBe(false);
    expect(verdict.checkpoint.ok).toBe(false);
  });

  it('is checked by npm run verify-inventory: one verdict per row and a total, exit 1 on a tampered row', async () => {
    // Prepare
    const directory = mkdtempSync(join(tmpdir(), 'inventory-'));
    const good = join(directory, 'inventory.jsonl');
    const bad = join(directory, 'tampered.jsonl');
    writeFileSync(good, inventory);
    writeFileSync(bad, inventory.replace('"owner":"Alice"', '"owner":"Mallory"'));
    const cli = (file: string) =>
      run('npx', ['tsx', 'cli/verify-inventory.ts', file, verifierKey], { cwd: join(__dirname, '../..') });
    // Act
    const passed = await cli(good);
    const failed = await cli(bad).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    // Assess
    expect(passed.stdout).toContain(`row 2 ${alpha.id} (A-1) event 1: ok`);
    expect(passed.stdout).toContain(`row 3 ${bravo.id} (B-1) event 1, next 2: ok`);
    expect(passed.stdout).toMatch(/total: 3 rows, 3 ok, 0 failed\nVALID\n$/);
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain(`row 2 ${alpha.id} (A-1) event 1: FAILED: owner is not the value`);
    expect(failed?.stdout).toMatch(/total: 3 rows, 2 ok, 1 failed\nINVALID\n$/);
  });

  it('answers 409 EVENT_NOT_YET_LOGGED while an event of the inventory is not in the checkpoint', async () => {
    const other = companyPrincipal();
    const category = await givenCategory(other);
    const subcategory = await givenSubcategory(other, category.id);
    await createObjectOk(other, { categoryId: category.id, subcategoryId: subcategory.id });
    const response = await exportObjects(other, {
      format: 'jsonl',
      asOf: new Date().toISOString(),
      proofs: 'true',
    });
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.text).code).toBe('EVENT_NOT_YET_LOGGED');
  });
});

describe('an object whose instant falls on the last event of a replay page', () => {
  it('is replayed from both pages, with the next event from the second', async () => {
    // Prepare: 100 events (one Query page of the replay) before the instant, one after.
    const owner = companyPrincipal();
    const category = await givenCategory(owner);
    const subcategory = await givenSubcategory(owner, category.id);
    const object = await createObjectOk(owner, { categoryId: category.id, subcategoryId: subcategory.id });
    for (let change = 2; change <= 100; change++) {
      await updateObjectOk(owner, object.id, { action: 'transfer', owner: `Owner ${change}` });
    }
    await pause();
    const pageEnd = new Date().toISOString();
    await pause();
    await updateObjectOk(owner, object.id, { action: 'transfer', owner: 'Owner 101' });
    await sequenceAll();
    // Act
    const response = await exportObjects(owner, { format: 'jsonl', asOf: pageEnd, proofs: 'true' });
    const verdict = await verifyInventory(response.text, (await logVerifierKey()).trim());
    // Assess
    expect(response.statusCode).toBe(200);
    const [, row] = jsonLines(response.text);
    expect(row).toMatchObject({ owner: 'Owner 100', asOfEvent: { sequence: 100 } });
    expect(verdict).toMatchObject({ ok: true, passed: 1 });
    expect(verdict.rows[0]).toMatchObject({ sequence: 100, nextSequence: 101 });
  });
});

describe('an as-of export above the inline limit', () => {
  const previous = process.env.EXPORT_INLINE_MAX_BYTES;
  afterAll(() => {
    if (previous === undefined) delete process.env.EXPORT_INLINE_MAX_BYTES;
    else process.env.EXPORT_INLINE_MAX_BYTES = previous;
  });

  it.each([
    ['csv', {}],
    ['jsonl', {}],
    ['jsonl', { proofs: 'true' }],
  ] as Array<[string, Record<string, string>]>)(
    'becomes a job whose file is the inline one (%s %j)',
    async (format, extra) => {
      // Prepare
      await sequenceAll();
      const query = { format, asOf: instant, status: 'all', sort: 'name:asc', ...extra };
      delete process.env.EXPORT_INLINE_MAX_BYTES;
      const inline = await exportText(query);
      process.env.EXPORT_INLINE_MAX_BYTES = '500';
      // Act
      const started = await exportObjects(principal, query);
      await settleBackgroundJobs();
      const done = await getExport(principal, JSON.parse(started.text).id);
      const file = await (await fetch(done.body.url)).text();
      // Assess
      expect(started.statusCode).toBe(202);
      expect(done.body).toMatchObject({ status: 'completed', rowCount: 3 });
      expect(file).toBe(inline);
    },
  );
});
