/**
 * The admin CLI's `import` and `export` as a terminal runs them (`node --import tsx
 * cli/admin.ts`, what `npm run admin` runs), against the tier's DynamoDB Local and s3rver: the
 * CLI finds the table and buckets in its environment, as for a deployed stack. What they write
 * is read back through the API handlers. The local-mode path (`npm start`'s data folder) is
 * test/e2e/admin-bulk-objects.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCompany } from '../../lambdas/domain/identity/tenants';
import { COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';
import { runRepositoryCli } from '../support/cli-child';
import { givenSubcategoryPath } from '../support/fixtures';
import { allImportErrors, exportObjects, getImport } from '../support/import-requests';
import { listObjectEvents, listObjects } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

const folder = mkdtempSync(join(tmpdir(), 'admin-bulk-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const runCli = (args: string[]) => runRepositoryCli('admin.ts', args);

const fileOf = (name: string, content: string) => {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
};

async function givenCompany() {
  const { tenantId } = await createCompany('Bulk CLI');
  const principal = companyPrincipal(COMPANY_PERMISSIONS, tenantId);
  return { companyId: tenantId, principal, place: await givenSubcategoryPath(principal) };
}

async function allObjects(principal: ReturnType<typeof companyPrincipal>) {
  const page = await listObjects(principal, { status: 'all', limit: '100', sort: 'createdAt:asc' });
  return page.body.data as {
    id: string;
    externalId: string;
    name: string;
    owner: string;
    categoryId: string;
  }[];
}

describe('admin import', () => {
  it('runs the job to its end, prints its counts and error entries, and writes rows with their ledger events', async () => {
    // Prepare
    const { companyId, principal, place } = await givenCompany();
    const file = fileOf(
      'vehicles.csv',
      'externalId,name,owner,colour\r\nV-1,Truck,Ann,red\r\nV-2,x,Bob,blue\r\nV-3,Van,,green\r\nV-1,Again,Ann,red\r\n',
    );
    // Act
    const result = await runCli([
      'import',
      file,
      '--company',
      companyId,
      '--subcategory-id',
      place.subcategoryId,
      '--category-id',
      place.categoryId,
    ]);
    // Assess
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const printed = JSON.parse(result.stdout);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(printed).toEqual({
      importId: expect.any(String),
      status: 'completed',
      counts: { total: 4, created: 2, updated: 0, skipped: 0, failed: 2 },
      errorCount: 2,
      ignoredColumns: ['colour'],
      errors: [
        { row: 3, field: 'name', code: 'LENGTH_INVALID', message: expect.any(String), outcome: 'failed' },
        {
          row: 5,
          field: 'externalId',
          code: 'DUPLICATE_EXTERNAL_ID',
          message: 'externalId "V-1" is given on row 2 already',
          outcome: 'failed',
        },
      ],
      errorsPath: `/v2/imports/${printed.importId}/errors`,
    });
    const job = await getImport(principal, printed.importId);
    expect(job.body).toMatchObject({ status: 'completed', fileName: 'vehicles.csv', counts: printed.counts });
    expect(await allImportErrors(principal, printed.importId)).toEqual(printed.errors);
    const objects = await allObjects(principal);
    expect(objects.map((object) => [object.externalId, object.name, object.owner])).toEqual([
      ['V-1', 'Truck', 'Ann'],
      ['V-3', 'Van', ''],
    ]);
    const events = await listObjectEvents(principal, objects[0]!.id);
    expect(events.body.data).toEqual([
      expect.objectContaining({
        action: 'create',
        principal: 'apiKey:admin-cli',
        eventDescription: `Import ${printed.importId}, row 2`,
      }),
    ]);
  });

  it('reads JSON Lines by the file name, creates missing places with --create-missing, and updates with --mode upsert', async () => {
    // Prepare
    const { companyId, principal } = await givenCompany();
    const line = (name: string) =>
      JSON.stringify({ externalId: 'J-1', name, category: 'Fleet', subcategory: 'Vans', metadata: { n: 1 } });
    const first = fileOf('first.jsonl', `${line('Van one')}\n`);
    const second = fileOf('second.ndjson', `${line('Van two')}\n`);
    // Act
    const refused = await runCli(['import', first, '--company', companyId]);
    const created = await runCli(['import', first, '--company', companyId, '--create-missing']);
    const skipped = await runCli(['import', second, '--company', companyId]);
    const updated = await runCli(['import', second, '--company', companyId, '--mode', 'upsert']);
    // Assess
    expect(JSON.parse(refused.stdout)).toMatchObject({
      counts: { total: 1, failed: 1 },
      errors: [{ row: 1, field: 'subcategory', code: 'SUBCATEGORY_NOT_FOUND' }],
    });
    expect(JSON.parse(created.stdout)).toMatchObject({ counts: { total: 1, created: 1 }, errorCount: 0 });
    expect(JSON.parse(skipped.stdout)).toMatchObject({
      counts: { total: 1, skipped: 1 },
      errors: [{ row: 1, code: 'EXTERNAL_ID_EXISTS', outcome: 'skipped' }],
    });
    expect(JSON.parse(updated.stdout)).toMatchObject({ counts: { total: 1, updated: 1 }, errorCount: 0 });
    const objects = await allObjects(principal);
    expect(objects).toEqual([expect.objectContaining({ externalId: 'J-1', name: 'Van two' })]);
    const events = await listObjectEvents(principal, objects[0]!.id);
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual(['create', 'update']);
  });

  it.each<[string, () => string, () => string[], RegExp]>([
    [
      'an unknown company',
      () => fileOf('some.csv', 'externalId,name\r\n'),
      () => ['--company', '00000000-0000-4000-8000-000000000000'],
      /^admin: No company 00000000-0000-4000-8000-000000000000$/,
    ],
    [
      'a missing file',
      () => join(folder, 'missing.csv'),
      () => ['--company', 'x'],
      /^admin: Cannot read .*: no such file$/,
    ],
  ])(
    'exits 1 with one line on stderr and nothing on stdout for %s',
    async (_label, file, options, message) => {
      // Act
      const result = await runCli(['import', file(), ...options()]);
      // Assess
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(message)]);
    },
  );

  it('exits 1 naming the failure when the job fails (a header it cannot use)', async () => {
    // Prepare
    const { companyId } = await givenCompany();
    const file = fileOf('bad-header.csv', 'externalId,name,name\r\nA,B,C\r\n');
    // Act
    const result = await runCli(['import', file, '--company', companyId]);
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^admin: Import [0-9a-f-]{36} failed: HEADER_INVALID: The column "name" appears twice\n$/,
    );
  });
});

describe('admin export', () => {
  let company: Awaited<ReturnType<typeof givenCompany>>;

  beforeAll(async () => {
    company = await givenCompany();
    const rows = ['externalId,name,owner,description'];
    for (let n = 1; n <= 40; n++)
      rows.push(`E-${n},Item ${n % 9},${n % 2 ? 'odd' : 'even'},"=cell, ""${n}"""`);
    const file = fileOf('export-source.csv', `${rows.join('\r\n')}\r\n`);
    const imported = await runCli([
      'import',
      file,
      '--company',
      company.companyId,
      '--subcategory-id',
      company.place.subcategoryId,
    ]);
    if (imported.exitCode !== 0) throw new Error(imported.stderr);
  });

  it('writes the file --out names, as GET /v2/objects/export gives it, and prints one JSON line', async () => {
    // Prepare
    const out = join(folder, 'odd.csv');
    // Act
    const result = await runCli([
      'export',
      '--company',
      company.companyId,
      '--owner',
      'ODD',
      '--sort',
      'name:desc',
      '--out',
      out,
    ]);
    const api = await exportObjects(company.principal, { format: 'csv', owner: 'ODD', sort: 'name:desc' });
    // Assess
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const written = readFileSync(out, 'utf8');
    expect(written).toBe(api.text);
    expect(JSON.parse(result.stdout)).toEqual({
      exportId: expect.any(String),
      file: out,
      format: 'csv',
      rowCount: 20,
      bytes: Buffer.byteLength(written),
    });
  });

  it('writes JSON Lines to stdout without --out, with the filters of spec 4.1', async () => {
    // Act
    const result = await runCli([
      'export',
      '--company',
      company.companyId,
      '--format',
      'jsonl',
      '--name',
      'item 3',
      '--category-id',
      company.place.categoryId,
      '--status',
      'all',
      '--sort',
      'createdAt:asc',
    ]);
    const api = await exportObjects(company.principal, {
      format: 'jsonl',
      name: 'item 3',
      categoryId: company.place.categoryId,
      status: 'all',
      sort: 'createdAt:asc',
    });
    // Assess
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toBe(api.text);
    const exported = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { externalId: string; createdAt: string });
    expect(exported.map((object) => object.externalId).sort()).toEqual([
      'E-12',
      'E-21',
      'E-3',
      'E-30',
      'E-39',
    ]);
    // The import writes rows side by side, so creation order need not follow row order.
    const createdAts = exported.map((object) => object.createdAt);
    for (const createdAt of createdAts) expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(createdAts).toEqual([...createdAts].sort());
  });

  it('writes the header alone when nothing matches, and one object by --external-id', async () => {
    // Prepare
    const none = join(folder, 'none.csv');
    // Act
    const empty = await runCli([
      'export',
      '--company',
      company.companyId,
      '--owner',
      'nobody',
      '--out',
      none,
    ]);
    const one = await runCli([
      'export',
      '--company',
      company.companyId,
      '--external-id',
      'E-7',
      '--format',
      'jsonl',
    ]);
    // Assess
    expect(JSON.parse(empty.stdout)).toMatchObject({ exportId: null, rowCount: 0 });
    expect(readFileSync(none, 'utf8')).toMatch(/^id,externalId,name,[^\n]*\r\n$/);
    expect(JSON.parse(one.stdout)).toMatchObject({ externalId: 'E-7', description: '=cell, "7"' });
  });

  it('exits 1 for an unknown company and 2 for a filter the API would refuse', async () => {
    // Act
    const unknown = await runCli(['export', '--company', '00000000-0000-4000-8000-000000000000']);
    const badSort = await runCli(['export', '--company', company.companyId, '--sort', 'owner:asc']);
    // Assess
    expect(unknown).toMatchObject({ exitCode: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^admin: No company 00000000-0000-4000-8000-000000000000\n$/);
    expect(badSort).toMatchObject({ exitCode: 2, stdout: '' });
    expect(badSort.stderr).toMatch(
      /^admin: --sort must be one of: .*Usage: npm run --silent admin -- --help\n$/,
    );
  });
});
