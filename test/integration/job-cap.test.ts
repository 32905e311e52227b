/**
 * The cap on a company's running background jobs (`lambdas/domain/job-slots.ts`), through the
 * handlers against DynamoDB Local and s3rver: past {@link JOB_SLOTS_PER_KIND} running imports or
 * exports a company hears 409 `TOO_MANY_JOBS` with a `Retry-After`, however many requests race;
 * another company is not affected; a slot frees when its job ends. The jobs run in this process
 * behind a gate the test opens, so that they stay `running` as long as the test needs.
 */
import { JOB_RETRY_AFTER_SECONDS, JOB_SLOTS_PER_KIND } from '../../lambdas/domain/job-slots';
import { heldJobSlots, takeJobSlotItem } from '../../lambdas/repositories/job-slot-repository';
import { writeTransaction } from '../../lambdas/repositories/transactions';
import { runJobsInProcess } from '../../lambdas/shared/background-jobs';
import type { Principal } from '../../lambdas/shared/principal';
import { runBackgroundJobsInProcess } from '../../local/in-process-jobs';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import {
  exportObjects,
  getImport,
  postImportFile,
  postImportJson,
  startImport,
} from '../support/import-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(60_000);

/** Holds every import and export job until {@link openGate}; then they run as they would. */
let openGate: () => void = () => undefined;

function holdJobs(): void {
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  runJobsInProcess({
    removeSubcategoryData: () =>
      import('../../lambdas/jobs/remove-subcategory-data.js').then((module) => module.handler),
    importObjects: () =>
      gate.then(() => import('../../lambdas/jobs/import-objects.js').then((module) => module.handler)),
    exportObjects: () =>
      gate.then(() => import('../../lambdas/jobs/export-objects.js').then((module) => module.handler)),
  });
}

const FILE = 'externalId,name\r\nJ-1,Jack\r\n';
const importOf = (principal: Principal) => postImportFile(principal, FILE);
const previousInlineMax = process.env.EXPORT_INLINE_MAX_BYTES;

beforeEach(holdJobs);

afterEach(async () => {
  openGate();
  await settleBackgroundJobs();
});

afterAll(() => {
  runBackgroundJobsInProcess();
  if (previousInlineMax === undefined) delete process.env.EXPORT_INLINE_MAX_BYTES;
  else process.env.EXPORT_INLINE_MAX_BYTES = previousInlineMax;
});

describe('the cap on running imports', () => {
  it(`refuses the import past ${JOB_SLOTS_PER_KIND} running with 409 TOO_MANY_JOBS and Retry-After; another company is not affected`, async () => {
    // Prepare
    const busy = companyPrincipal();
    const other = companyPrincipal();
    const running = [];
    for (let n = 0; n < JOB_SLOTS_PER_KIND; n++) running.push(await importOf(busy));
    // Act
    const refused = await importOf(busy);
    const othersImport = await importOf(other);
    // Assess
    expect(running.map((response) => response.statusCode)).toEqual(Array(JOB_SLOTS_PER_KIND).fill(202));
    expect(refused.statusCode).toBe(409);
    expect(refused.body.code).toBe('TOO_MANY_JOBS');
    expect(refused.headers['Retry-After']).toBe(String(JOB_RETRY_AFTER_SECONDS));
    expect(othersImport.statusCode).toBe(202);
  });

  it('admits exactly the cap when more imports than the cap race', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const responses = await Promise.all(
      Array.from({ length: JOB_SLOTS_PER_KIND + 3 }, () => importOf(principal)),
    );
    // Assess
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(JOB_SLOTS_PER_KIND).fill(202), ...Array(3).fill(409)]);
    expect(await heldJobSlots(principal.tenantId, 'imports')).toHaveLength(JOB_SLOTS_PER_KIND);
  });

  it('frees the slot when a job ends: the next import is admitted', async () => {
    // Prepare
    const principal = companyPrincipal();
    const started = [];
    for (let n = 0; n < JOB_SLOTS_PER_KIND; n++) started.push(await importOf(principal));
    const refused = await importOf(principal);
    // Act
    openGate();
    await settleBackgroundJobs();
    const ended = await Promise.all(started.map((response) => getImport(principal, response.body.id)));
    const admitted = await importOf(principal);
    // Assess
    expect(refused.statusCode).toBe(409);
    expect(ended.map((response) => response.body.status)).toEqual(
      Array(JOB_SLOTS_PER_KIND).fill('completed'),
    );
    expect(admitted.statusCode).toBe(202);
  });

  it('refuses to start an uploaded import past the cap and leaves it pending, to start once a slot frees', async () => {
    // Prepare: a job whose file came by presigned upload, then the cap reached
    const principal = companyPrincipal();
    const created = await postImportJson(principal, {
      size: Buffer.byteLength(FILE),
      fileName: 'objects.csv',
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(created.body.upload.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([FILE], { type: 'text/csv' }), 'objects.csv');
    await fetch(created.body.upload.url, { method: 'POST', body: form });
    for (let n = 0; n < JOB_SLOTS_PER_KIND; n++) await importOf(principal);
    // Act
    const refused = await startImport(principal, created.body.id);
    const meanwhile = await getImport(principal, created.body.id);
    openGate();
    await settleBackgroundJobs();
    const started = await startImport(principal, created.body.id);
    // Assess
    expect(refused.statusCode).toBe(409);
    expect(refused.body.code).toBe('TOO_MANY_JOBS');
    expect(refused.headers['Retry-After']).toBe(String(JOB_RETRY_AFTER_SECONDS));
    expect(meanwhile.body.status).toBe('pending');
    expect(started.statusCode).toBe(202);
  });

  it('frees the slots of jobs that ended without giving theirs back', async () => {
    // Prepare: every slot held by a job that does not exist (or no longer runs)
    const principal = companyPrincipal();
    for (let n = 0; n < JOB_SLOTS_PER_KIND; n++) {
      const full = () => new Error('full');
      await writeTransaction([takeJobSlotItem(principal.tenantId, 'imports', `gone-${n}`, full)]);
    }
    // Act
    const admitted = await importOf(principal);
    // Assess
    expect(admitted.statusCode).toBe(202);
    expect(await heldJobSlots(principal.tenantId, 'imports')).toEqual([admitted.body.id]);
  });
});

describe('the cap on running exports', () => {
  it('refuses the export job past the cap, counts exports apart from imports, and frees slots as jobs end', async () => {
    // Prepare: any export with an object is too large for a response, so it becomes a job
    const principal = companyPrincipal();
    await givenObject(principal, await givenSubcategoryPath(principal));
    process.env.EXPORT_INLINE_MAX_BYTES = '10';
    const started = [];
    for (let n = 0; n < JOB_SLOTS_PER_KIND; n++)
      started.push(await exportObjects(principal, { format: 'csv' }));
    // Act
    const refused = await exportObjects(principal, { format: 'csv' });
    const anImport = await importOf(principal);
    openGate();
    await settleBackgroundJobs();
    const admitted = await exportObjects(principal, { format: 'csv' });
    // Assess
    expect(started.map((response) => response.statusCode)).toEqual(Array(JOB_SLOTS_PER_KIND).fill(202));
    expect(refused.statusCode).toBe(409);
    expect(JSON.parse(refused.text).code).toBe('TOO_MANY_JOBS');
    expect(refused.headers['Retry-After']).toBe(String(JOB_RETRY_AFTER_SECONDS));
    expect(anImport.statusCode).toBe(202);
    expect(admitted.statusCode).toBe(202);
  });
});
