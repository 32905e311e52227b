/** Bulk import of objects (extension) through the handlers, against DynamoDB Local and s3rver. */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Principal } from '../../lambdas/shared/principal';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenSubcategoryPath } from '../support/fixtures';
import {
  allImportErrors,
  exportObjects,
  getImport,
  importAndWait,
  importErrorsCsv,
  listImports,
  postImportFile,
  postImportJson,
  startImport,
} from '../support/import-requests';
import { listAllObjects, listObjectEvents } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

// Jobs run in process and wait for DynamoDB Local, which is slow once the tier has filled it.
jest.setTimeout(120_000);

const csv = (rows: (string | number)[][]) =>
  stringify(
    rows.map((row) => row.map(String)),
    { record_delimiter: '\r\n', quoted_match: /[\r\n]/ },
  );

/** Every object of the company, every status, oldest first. */
const allObjects = (principal: Principal) =>
  listAllObjects(principal, { status: 'all', sort: 'createdAt:asc' });

describe('import', () => {
  it('responds 202 with the job and its Location, then writes every row with its ledger event', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const file = csv([
      [
        'externalId',
        'name',
        'description',
        'summary',
        'owner',
        'subcategoryId',
        'metadata.color',
        'metadata',
      ],
      ['VIN-1', 'Truck', 'A truck', 'Big', 'Fleet', place.subcategoryId, 'red', '{"year":2020}'],
      ['VIN-2', 'Van', '', '', '', place.subcategoryId, '', ''],
    ]);
    // Act
    const created = await postImportFile(principal, `\ufeff${file}`);
    await settleBackgroundJobs();
    const job = await getImport(principal, created.body.id);
    const objects = await allObjects(principal);
    // Assess
    expect(created.statusCode).toBe(202);
    expect(created.headers.Location).toBe(`/test/v2/imports/${created.body.id}`);
    expect(created.body).toMatchObject({ status: 'running', format: 'csv', mode: 'create' });
    expect(job.body).toMatchObject({
      status: 'completed',
      counts: { total: 2, created: 2, updated: 0, skipped: 0, failed: 0 },
      errorCount: 0,
    });
    expect(objects).toHaveLength(2);
    expect(objects[0]).toMatchObject({
      externalId: 'VIN-1',
      name: 'Truck',
      description: 'A truck',
      summary: 'Big',
      owner: 'Fleet',
      categoryId: place.categoryId,
      subcategoryId: place.subcategoryId,
      metadata: { year: 2020, color: 'red' },
      blockchain: { eventCount: 1 },
    });
    expect(objects[1]).toMatchObject({ externalId: 'VIN-2', summary: null, description: '', metadata: {} });
    const events = await listObjectEvents(principal, objects[0]!.id as string);
    expect(events.body.data[0]).toMatchObject({
      action: 'create',
      eventDescription: `Import ${created.body.id}, row 2`,
    });
  });

  it('creates exactly the valid rows of 10,000 and reports exactly the bad ones by row number', async () => {
    // Prepare: 1% bad rows of every kind, spread through the file.
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const header = 'externalId,name,description,owner,subcategoryId';
    const lines: string[] = [header];
    const expectedBad = new Map<number, string>();
    const kinds: [string, (n: number) => string][] = [
      ['REQUIRED', (n) => `E-${n},,desc,owner,${place.subcategoryId}`],
      ['LENGTH_INVALID', (n) => `E-${n},${'x'.repeat(201)},desc,owner,${place.subcategoryId}`],
      ['DUPLICATE_EXTERNAL_ID', () => `E-1,Duplicate,desc,owner,${place.subcategoryId}`],
      ['SUBCATEGORY_NOT_FOUND', (n) => `E-${n},Name,desc,owner,00000000-0000-4000-8000-000000000000`],
      ['CSV_SYNTAX_INVALID', (n) => `E-${n},"broken"quote,desc,owner,${place.subcategoryId}`],
      ['COLUMN_COUNT_INVALID', (n) => `E-${n},Name,desc`],
      ['ENCODING_INVALID', (n) => `E-${n},NA_BAD_BYTE_ME,desc,owner,${place.subcategoryId}`],
    ];
    const rowCount = 10_000;
    for (let n = 1; n <= rowCount; n++) {
      const row = n + 1; // the header is row 1
      const kind = n % 100 === 50 ? kinds[Math.floor(n / 100) % kinds.length]! : undefined;
      if (kind) {
        lines.push(kind[1](n));
        expectedBad.set(row, kind[0]);
      } else lines.push(`E-${n},Name ${n},desc,owner,${place.subcategoryId}`);
    }
    // Invalid UTF-8: a lone byte 0xff instead of the marker.
    const file = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    const withBadBytes = Buffer.from(
      file.toString('latin1').replaceAll('NA_BAD_BYTE_ME', 'Na\xffme'),
      'latin1',
    );
    // Act
    const job = await importAndWait(principal, withBadBytes);
    const errors = await allImportErrors(principal, job.id);
    const objects = await allObjects(principal);
    // Assess
    expect(job.counts).toEqual({
      total: rowCount,
      created: rowCount - expectedBad.size,
      updated: 0,
      skipped: 0,
      failed: expectedBad.size,
    });
    expect(new Map(errors.map((error) => [error.row, error.code]))).toEqual(expectedBad);
    expect(objects).toHaveLength(rowCount - expectedBad.size);
    expect(new Set(objects.map((object) => object.externalId)).size).toBe(objects.length);
  }, 900_000);

  it('creates nothing twice when the same file runs again, and reports the existing externalIds', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const file = csv([
      ['externalId', 'name', 'category', 'subcategory'],
      ['A-1', 'One', place.categoryName, place.subcategoryName],
      ['A-2', 'Two', place.categoryName, place.subcategoryName],
    ]);
    await importAndWait(principal, file);
    // Act
    const again = await importAndWait(principal, file);
    const errors = await allImportErrors(principal, again.id);
    // Assess
    expect(again.counts).toEqual({ total: 2, created: 0, updated: 0, skipped: 2, failed: 0 });
    expect(errors.map((error) => [error.row, error.code, error.outcome])).toEqual([
      [2, 'EXTERNAL_ID_EXISTS', 'skipped'],
      [3, 'EXTERNAL_ID_EXISTS', 'skipped'],
    ]);
    expect(await allObjects(principal)).toHaveLength(2);
  });

  it('finds an externalId given twice even when one cell carries a formula guard', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const file = csv([
      ['externalId', 'name', 'subcategoryId'],
      ["'=X", 'Guarded', place.subcategoryId],
      ['=X', 'Plain', place.subcategoryId],
    ]);
    // Act
    const job = await importAndWait(principal, file);
    const errors = await allImportErrors(principal, job.id);
    // Assess
    expect(job.counts).toMatchObject({ created: 1, failed: 1, skipped: 0 });
    expect(errors.map((error) => [error.row, error.code])).toEqual([[3, 'DUPLICATE_EXTERNAL_ID']]);
  });

  it('updates existing objects in upsert mode, with an event naming the import, and skips unchanged rows', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const header = ['externalId', 'name', 'owner', 'subcategoryId'];
    await importAndWait(
      principal,
      csv([header, ['U-1', 'Old', 'Ann', place.subcategoryId], ['U-2', 'Same', 'Bob', place.subcategoryId]]),
    );
    // Act
    const job = await importAndWait(
      principal,
      csv([
        header,
        ['U-1', 'New', 'Ann', place.subcategoryId],
        ['U-2', 'Same', 'Bob', place.subcategoryId],
        ['U-3', 'Fresh', '', place.subcategoryId],
      ]),
      'text/csv',
      { mode: 'upsert' },
    );
    const objects = await allObjects(principal);
    const updated = objects.find((object) => object.externalId === 'U-1')!;
    const events = await listObjectEvents(principal, updated.id as string);
    // Assess
    expect(job.counts).toEqual({ total: 3, created: 1, updated: 1, skipped: 1, failed: 0 });
    expect(updated).toMatchObject({ name: 'New', blockchain: { eventCount: 2 } });
    expect(events.body.data[1]).toMatchObject({
      action: 'update',
      eventDescription: `Import ${job.id}, row 2`,
      changes: { name: { from: 'Old', to: 'New' } },
    });
    expect(objects.find((object) => object.externalId === 'U-2')).toMatchObject({
      blockchain: { eventCount: 1 },
    });
  });

  it('reads JSON Lines, with metadata as objects', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const file = [
      JSON.stringify({
        externalId: 'J-1',
        name: 'Json',
        metadata: { n: 1, tags: ['a'] },
        subcategoryId: place.subcategoryId,
      }),
      '',
      'not json',
      JSON.stringify({ externalId: 'J-2', name: 'x', subcategoryId: place.subcategoryId }),
    ].join('\n');
    // Act
    const job = await importAndWait(principal, file, 'application/x-ndjson');
    const errors = await allImportErrors(principal, job.id);
    // Assess
    expect(job.counts).toEqual({ total: 3, created: 1, updated: 0, skipped: 0, failed: 2 });
    expect(errors.map((error) => [error.row, error.field, error.code])).toEqual([
      [3, 'row', 'JSON_INVALID'],
      [4, 'name', 'LENGTH_INVALID'],
    ]);
    expect((await allObjects(principal))[0]).toMatchObject({
      externalId: 'J-1',
      metadata: { n: 1, tags: ['a'] },
    });
  });

  it('fails the whole job with a clear error when the header is unusable', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const job = await importAndWait(principal, 'externalId,name,name\r\nA,B,C\r\n');
    // Assess
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({ code: 'HEADER_INVALID', message: 'The column "name" appears twice' });
  });

  it('gives the error entries as a CSV download too', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const job = await importAndWait(
      principal,
      csv([
        ['externalId', 'name', 'subcategoryId'],
        ['B-1', 'x', place.subcategoryId],
      ]),
    );
    // Act
    const download = await importErrorsCsv(principal, job.id);
    // Assess
    expect(download.statusCode).toBe(200);
    expect(download.headers['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(parse(download.text)).toEqual([
      ['row', 'field', 'code', 'message', 'outcome'],
      ['2', 'name', 'LENGTH_INVALID', expect.any(String), 'failed'],
    ]);
  });

  it('takes a large file through a presigned upload, started once the file is there', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const file = csv([
      ['externalId', 'name', 'subcategoryId'],
      ['P-1', 'Presigned', place.subcategoryId],
    ]);
    const created = await postImportJson(principal, {
      size: Buffer.byteLength(file),
      fileName: 'objects.csv',
    });
    const tooEarly = await startImport(principal, created.body.id);
    const form = new FormData();
    for (const [name, value] of Object.entries(created.body.upload.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([file], { type: 'text/csv' }), 'objects.csv');
    const uploaded = await fetch(created.body.upload.url, { method: 'POST', body: form });
    // Act
    const started = await startImport(principal, created.body.id);
    const again = await startImport(principal, created.body.id);
    await settleBackgroundJobs();
    const job = await getImport(principal, created.body.id);
    // Assess
    expect(created.statusCode).toBe(202);
    expect(created.body).toMatchObject({
      status: 'pending',
      fileName: 'objects.csv',
      upload: { method: 'POST' },
    });
    expect(tooEarly.body.code).toBe('UPLOAD_NOT_RECEIVED');
    expect(uploaded.status).toBeLessThan(300);
    expect(started.statusCode).toBe(202);
    expect(again.body.code).toBe('IMPORT_ALREADY_STARTED');
    expect(job.body).toMatchObject({ status: 'completed', counts: { created: 1 } });
  });

  it('lists the company’s jobs newest first, and shows another company none of them', async () => {
    // Prepare
    const principal = companyPrincipal();
    const other = companyPrincipal();
    const first = await importAndWait(principal, 'externalId,name\r\n');
    const second = await importAndWait(principal, 'externalId,name\r\n');
    // Act
    const list = await listImports(principal);
    const foreignList = await listImports(other);
    const foreignJob = await getImport(other, first.id);
    // Assess
    expect(list.body.data.map((job: { id: string }) => job.id)).toEqual([second.id, first.id]);
    expect(list.body.pagination).toMatchObject({ total: 2, hasNext: false, nextCursor: null });
    expect(foreignList.body.data).toEqual([]);
    expect(foreignJob.statusCode).toBe(404);
    expect(foreignJob.body.code).toBe('IMPORT_NOT_FOUND');
  });

  it("never writes into another company's subcategory", async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const place = await givenSubcategoryPath(owner);
    // Act
    const job = await importAndWait(
      intruder,
      csv([
        ['externalId', 'name', 'categoryId', 'subcategoryId'],
        ['X-1', 'Intruder', place.categoryId, place.subcategoryId],
      ]),
    );
    // Assess
    expect(job.counts).toMatchObject({ created: 0, failed: 1 });
    expect(await allObjects(owner)).toEqual([]);
    expect(await allObjects(intruder)).toEqual([]);
  });

  it('refuses a request without a file with 400 FILE_REQUIRED', async () => {
    // Act
    const response = await postImportJson(companyPrincipal(), { mode: 'create' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('FILE_REQUIRED');
  });

  it('places rows by names: unknown names are reported, and created with createMissing', async () => {
    // Prepare
    const principal = companyPrincipal();
    const file = csv([
      ['externalId', 'name', 'category', 'subcategory'],
      ['N-1', 'Named', 'Vehicles', 'Trucks'],
      ['N-2', 'Named too', 'vehicles', 'TRUCKS'],
    ]);
    // Act
    const refused = await importAndWait(principal, file);
    const refusedErrors = await allImportErrors(principal, refused.id);
    const created = await importAndWait(principal, file, 'text/csv', { createMissing: 'true' });
    const objects = await allObjects(principal);
    // Assess
    expect(refused.counts).toMatchObject({ created: 0, failed: 2 });
    expect(refusedErrors.map((error) => [error.row, error.field, error.code])).toEqual([
      [2, 'subcategory', 'SUBCATEGORY_NOT_FOUND'],
      [3, 'subcategory', 'SUBCATEGORY_NOT_FOUND'],
    ]);
    expect(created.counts).toMatchObject({ created: 2, failed: 0 });
    expect(new Set(objects.map((object) => object.subcategoryId)).size).toBe(1);
  });

  it('refuses a file in the request above 4 MiB with 413 FILE_TOO_LARGE', async () => {
    // Act
    const response = await postImportFile(companyPrincipal(), Buffer.alloc(4 * 1024 * 1024 + 1, 'a'));
    // Assess
    expect(response.statusCode).toBe(413);
    expect(response.body.code).toBe('FILE_TOO_LARGE');
  });

  it('round-trips: an export imports back into an empty company as the same objects', async () => {
    // Prepare
    const source = companyPrincipal();
    const target = companyPrincipal();
    const place = await givenSubcategoryPath(source);
    await importAndWait(
      source,
      csv([
        ['externalId', 'name', 'description', 'summary', 'owner', 'subcategoryId', 'metadata'],
        [
          'R-1',
          '=SUM(A1)',
          'line one\nline two',
          'a "quoted" summary',
          '-owner',
          place.subcategoryId,
          '{"n":1,"deep":{"x":[1,2]}}',
        ],
        ['R-2', "'+not a formula", '@at', '', "''=x", place.subcategoryId, '{}'],
      ]),
    );
    const exported = await exportObjects(source, { format: 'csv', sort: 'name:asc' });
    // Act
    const job = await importAndWait(target, exported.text);
    // Assess
    const fields = (object: Record<string, unknown>) => ({
      externalId: object.externalId,
      name: object.name,
      description: object.description,
      summary: object.summary,
      owner: object.owner,
      metadata: object.metadata,
    });
    expect(job.counts).toMatchObject({ total: 2, created: 2, failed: 0 });
    const byExternalId = (objects: Record<string, unknown>[]) =>
      objects.map(fields).sort((a, b) => String(a.externalId).localeCompare(String(b.externalId)));
    expect(byExternalId(await allObjects(target))).toEqual(byExternalId(await allObjects(source)));
  });
});
