/**
 * An import job killed for real: the job runs in a child process (tsx) against the tier's
 * DynamoDB Local and s3rver and is sent SIGKILL mid-way, either at a point it reaches and
 * announces (mid-chunk, before a chunk is counted, after it is counted) or whenever the test
 * sees its counts move. Another run then finishes the job; every valid row must be there once,
 * with one `create` event, the counts and the error entries exactly those of one clean run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { IMPORT_CHUNK_ROWS, runImport } from '../../lambdas/domain/imports/import-runner';
import { openFileStream } from '../../lambdas/repositories/file-store';
import {
  findImportJob,
  type ImportJobRecord,
  readRowTraces,
} from '../../lambdas/repositories/import-repository';
import type { Principal } from '../../lambdas/shared/principal';
import { givenSubcategoryPath } from '../support/fixtures';
import { allImportErrors, getImport } from '../support/import-requests';
import { createObjectOk, listAllObjects, listObjectEvents, listObjects } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { givenRunningImport } from '../support/running-import';

jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'import-child.ts');
const UNKNOWN_SUBCATEGORY = '00000000-0000-4000-8000-000000000000';

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

type Place = Awaited<ReturnType<typeof givenSubcategoryPath>>;
type Mode = 'create' | 'upsert';

interface ExpectedRow {
  row: number;
  externalId: string;
  /** What the job does with the row. */
  outcome: 'created' | 'updated' | 'skipped' | 'failed';
  /** The row's error entry, if it has one. */
  error?: [field: string, code: string, outcome: 'failed' | 'skipped'];
}

/**
 * A CSV file of `rowCount` rows with bad rows of several kinds spread through it, and what a
 * run must make of each row. Rows whose externalId exists before the import (`PRE-<n>`) are
 * skipped and reported in create mode; in upsert mode they are updated (new name) or, every
 * other one, left as they are (same name: skipped, no error).
 */
function crashFile(place: Place, rowCount: number, mode: Mode) {
  const header = ['externalId', 'name', 'description', 'owner', 'subcategoryId'];
  const lines = [stringify([header], { record_delimiter: '\r\n' })];
  const expected: ExpectedRow[] = [];
  const existing: { externalId: string; name: string }[] = [];
  const line = (cells: string[]) => stringify([cells], { record_delimiter: '\r\n' });
  for (let n = 1; n <= rowCount; n++) {
    const row = n + 1;
    if (n % 25 === 7) {
      lines.push(line([`C-${n}`, '', 'no name', 'owner', place.subcategoryId]));
      expected.push({ row, externalId: `C-${n}`, outcome: 'failed', error: ['name', 'REQUIRED', 'failed'] });
    } else if (n % 50 === 13) {
      lines.push(line(['C-1', `Again ${n}`, 'repeat', 'owner', place.subcategoryId]));
      expected.push({
        row,
        externalId: 'C-1',
        outcome: 'failed',
        error: ['externalId', 'DUPLICATE_EXTERNAL_ID', 'failed'],
      });
    } else if (n % 60 === 21) {
      lines.push(line([`C-${n}`, `Name ${n}`, 'nowhere', 'owner', UNKNOWN_SUBCATEGORY]));
      expected.push({
        row,
        externalId: `C-${n}`,
        outcome: 'failed',
        error: ['subcategoryId', 'SUBCATEGORY_NOT_FOUND', 'failed'],
      });
    } else if (n % 70 === 33) {
      lines.push(`C-${n},Name ${n},short\r\n`);
      expected.push({
        row,
        externalId: `C-${n}`,
        outcome: 'failed',
        error: ['row', 'COLUMN_COUNT_INVALID', 'failed'],
      });
    } else if (n % 90 === 45) {
      lines.push(`C-${n},"broken"quote,desc,owner,${place.subcategoryId}\r\n`);
      expected.push({
        row,
        externalId: `C-${n}`,
        outcome: 'failed',
        error: ['row', 'CSV_SYNTAX_INVALID', 'failed'],
      });
    } else if (n % 40 === 19) {
      const unchanged = mode === 'upsert' && n % 80 === 59;
      existing.push({ externalId: `PRE-${n}`, name: unchanged ? `Name ${n}` : `Old ${n}` });
      lines.push(line([`PRE-${n}`, `Name ${n}`, '', '', place.subcategoryId]));
      expected.push(
        mode === 'create'
          ? {
              row,
              externalId: `PRE-${n}`,
              outcome: 'skipped',
              error: ['externalId', 'EXTERNAL_ID_EXISTS', 'skipped'],
            }
          : { row, externalId: `PRE-${n}`, outcome: unchanged ? 'skipped' : 'updated' },
      );
    } else {
      lines.push(
        line([`C-${n}`, `Name ${n}`, `Row ${row}, with "quotes"`, `Owner ${n % 7}`, place.subcategoryId]),
      );
      expected.push({ row, externalId: `C-${n}`, outcome: 'created' });
    }
  }
  const counts = { total: rowCount, created: 0, updated: 0, skipped: 0, failed: 0 };
  for (const each of expected) counts[each.outcome] += 1;
  return { content: lines.join(''), expected, existing, counts };
}

function startChild(principal: Principal, importId: string, stopAt?: string) {
  // Node itself with tsx's loader: SIGKILL to tsx's command would orphan the node process it starts.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      IMPORT_COMPANY_ID: principal.tenantId,
      IMPORT_JOB_ID: importId,
      ...(stopAt ? { IMPORT_STOP_AT: stopAt } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => `${stdout}${stderr}`, stdout: () => stdout };
}

async function killChild(run: ReturnType<typeof startChild>) {
  run.child.kill('SIGKILL');
  expect((await run.exited).signal).toBe('SIGKILL');
  run.child.stdout!.destroy();
  run.child.stderr!.destroy();
  children.delete(run.child);
}

/** Runs the job in a child that stops at `stopAt` (see `import-child.ts`), and SIGKILLs it there. */
async function killRunAt(principal: Principal, importId: string, stopAt: string) {
  const run = startChild(principal, importId, stopAt);
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (run.stdout().includes(`reached ${stopAt}\n`)) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
    void run.exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`The import run exited (${code ?? signal}) before ${stopAt}: ${run.output()}`));
    });
  });
  await killChild(run);
}

/** Runs the job in a child and SIGKILLs it as soon as its counts show `rows` rows done. */
async function killRunOnceCounted(principal: Principal, importId: string, rows: number) {
  const run = startChild(principal, importId);
  let ended = false;
  void run.exited.then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`The import run ended before it was killed: ${run.output()}`);
    const job = await findImportJob(principal.tenantId, importId);
    if ((job?.nextIndex ?? 0) >= rows) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await killChild(run);
}

const resumeInProcess = (principal: Principal, importId: string) =>
  runImport(principal.tenantId, importId, (job) => openFileStream(job.sourceKey));

async function resumeInChild(principal: Principal, importId: string) {
  const run = startChild(principal, importId);
  const { code } = await run.exited;
  if (code !== 0) throw new Error(`The resuming run failed (${code}): ${run.output()}`);
  children.delete(run.child);
}

/** What the killed run left: the job record and how many rows have a trace. */
async function leftByKill(principal: Principal, importId: string, total: number) {
  const job = (await findImportJob(principal.tenantId, importId)) as ImportJobRecord;
  const traces = await readRowTraces(principal.tenantId, importId, 0, total);
  return { job, traced: traces.size };
}

/** Every object of the company, every status, oldest first. */
const allObjects = (principal: Principal) =>
  listAllObjects(principal, { status: 'all', sort: 'createdAt:asc' });

async function inParallel<T>(items: T[], work: (item: T) => Promise<void>, width = 8) {
  for (let start = 0; start < items.length; start += width)
    await Promise.all(items.slice(start, start + width).map(work));
}

/** The finished job is exactly what one clean run of the file gives. */
async function expectExactlyOnce(principal: Principal, importId: string, file: ReturnType<typeof crashFile>) {
  const job = await getImport(principal, importId);
  expect(job.body).toMatchObject({ status: 'completed', counts: file.counts });
  const expectedErrors = file.expected.filter((each) => each.error);
  expect(job.body.errorCount).toBe(expectedErrors.length);
  const errors = await allImportErrors(principal, importId);
  expect(errors.map((error) => [error.row, error.field, error.code, error.outcome])).toEqual(
    expectedErrors.map((each) => [each.row, ...(each.error as string[])]),
  );

  // Every object once: the rows written, and the objects that were there before.
  const written = file.expected.filter((each) => each.outcome !== 'failed');
  const objects = await allObjects(principal);
  expect(objects.map((object) => object.externalId).sort()).toEqual(
    [...new Set(written.map((each) => each.externalId))].sort(),
  );
  const byExternalId = new Map(objects.map((object) => [object.externalId, object]));
  await inParallel(written, async (each) => {
    const listed = await listObjects(principal, { status: 'all', externalId: each.externalId });
    expect(listed.body.pagination.total).toBe(1);
    const object = byExternalId.get(each.externalId)!;
    const events = await listObjectEvents(principal, object.id, { limit: '100' });
    const actions = events.body.data.map((event: { action: string }) => event.action);
    const byImport = events.body.data.filter(
      (event: { eventDescription: string | null }) =>
        event.eventDescription === `Import ${importId}, row ${each.row}`,
    );
    if (each.outcome === 'created') {
      expect([each.externalId, actions]).toEqual([each.externalId, ['create']]);
      expect(byImport).toHaveLength(1);
      expect(object.name).toBe(`Name ${each.row - 1}`);
    } else if (each.outcome === 'updated') {
      expect([each.externalId, actions]).toEqual([each.externalId, ['create', 'update']]);
      expect(byImport).toHaveLength(1);
      expect(object.name).toBe(`Name ${each.row - 1}`);
    } else {
      expect([each.externalId, actions]).toEqual([each.externalId, ['create']]);
      expect(byImport).toHaveLength(0);
    }
  });
}

async function givenCompany(rowCount: number, mode: Mode) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const file = crashFile(place, rowCount, mode);
  for (const object of file.existing) await createObjectOk(principal, place, object);
  const importId = await givenRunningImport(principal, file.content, { mode, fileName: 'crash.csv' });
  return { principal, file, importId };
}

describe('an import job, SIGKILLed', () => {
  // The first chunk writes its bad rows' error entries, then its good rows 12 to a transaction,
  // a group refused as a whole (an externalId that exists) row by row: 5 transactions stop among
  // the error entries, 11 after the first group, 15 inside the row-by-row retry of a group.
  it.each(['rows:5', 'rows:11', 'rows:15'])(
    'loses and doubles nothing when killed mid-chunk, after %s transactions',
    async (stopAt) => {
      // Prepare
      const { principal, file, importId } = await givenCompany(250, 'create');
      // Act
      await killRunAt(principal, importId, stopAt);
      const killed = await leftByKill(principal, importId, file.counts.total);
      await resumeInProcess(principal, importId);
      // Assess: the kill left the first chunk partly written and nothing counted.
      expect(killed.job).toMatchObject({
        status: 'running',
        nextIndex: 0,
        counts: { total: 250, created: 0 },
      });
      expect(killed.traced).toBeGreaterThan(0);
      expect(killed.traced).toBeLessThan(IMPORT_CHUNK_ROWS);
      await expectExactlyOnce(principal, importId, file);
    },
  );

  it('loses and doubles nothing when killed after a chunk’s rows are written but before they are counted', async () => {
    // Prepare
    const { principal, file, importId } = await givenCompany(250, 'create');
    // Act
    await killRunAt(principal, importId, 'advance:2');
    const killed = await leftByKill(principal, importId, file.counts.total);
    await resumeInChild(principal, importId);
    // Assess
    expect(killed.job.nextIndex).toBe(IMPORT_CHUNK_ROWS);
    expect(killed.traced).toBe(2 * IMPORT_CHUNK_ROWS);
    await expectExactlyOnce(principal, importId, file);
  });

  it('loses and doubles nothing when killed right after a chunk is counted', async () => {
    // Prepare
    const { principal, file, importId } = await givenCompany(250, 'create');
    // Act
    await killRunAt(principal, importId, 'advanced:1');
    const killed = await leftByKill(principal, importId, file.counts.total);
    await resumeInProcess(principal, importId);
    // Assess
    expect(killed.job.nextIndex).toBe(IMPORT_CHUNK_ROWS);
    expect(killed.traced).toBe(IMPORT_CHUNK_ROWS);
    await expectExactlyOnce(principal, importId, file);
  });

  it('loses and doubles nothing when killed twice mid-chunk in upsert mode', async () => {
    // Prepare
    const { principal, file, importId } = await givenCompany(250, 'upsert');
    // Act
    await killRunAt(principal, importId, 'rows:45');
    const first = await leftByKill(principal, importId, file.counts.total);
    await killRunAt(principal, importId, 'rows:90');
    const second = await leftByKill(principal, importId, file.counts.total);
    await resumeInProcess(principal, importId);
    // Assess: the second run went on from the first one's traces, finished and counted that
    // chunk, and was killed in the middle of the next one.
    expect(first.job.nextIndex).toBe(0);
    expect(first.traced).toBe(45);
    expect(second.job.nextIndex).toBe(IMPORT_CHUNK_ROWS);
    expect(second.traced).toBeGreaterThan(IMPORT_CHUNK_ROWS);
    expect(second.traced).toBeLessThan(2 * IMPORT_CHUNK_ROWS);
    await expectExactlyOnce(principal, importId, file);
  });

  it('loses and doubles nothing when killed whenever its counts first move', async () => {
    // Prepare
    const { principal, file, importId } = await givenCompany(600, 'create');
    // Act
    await killRunOnceCounted(principal, importId, IMPORT_CHUNK_ROWS);
    const killed = await leftByKill(principal, importId, file.counts.total);
    await resumeInProcess(principal, importId);
    // Assess
    expect(killed.job.status).toBe('running');
    expect(killed.job.nextIndex).toBeGreaterThanOrEqual(IMPORT_CHUNK_ROWS);
    expect(killed.job.nextIndex).toBeLessThan(file.counts.total);
    await expectExactlyOnce(principal, importId, file);
  });
});
