/**
 * Export of objects (extension) through the handlers, against DynamoDB Local and s3rver: the
 * CSV's header, RFC 4180 quoting and formula guards, the JSON Lines entity, the filters and
 * sorts of spec 4.1 against what `GET /v2/objects` lists, tenant isolation, and the large
 * export that becomes a job with a presigned link.
 */
import { parse } from 'csv-parse/sync';
import type { Principal } from '../../lambdas/shared/principal';
import { settleBackgroundJobs } from '../support/background-jobs';
import { givenCategory, givenSubcategory } from '../support/fixtures';
import { exportObjects, getExport, importAndWait } from '../support/import-requests';
import {
  createObjectOk,
  createObjectsInOrder,
  getObject,
  listAllObjects,
  type ObjectBody,
  type ObjectPlace,
  updateObjectOk,
} from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(120_000);

const HEADER = [
  'id',
  'externalId',
  'name',
  'description',
  'summary',
  'owner',
  'status',
  'categoryId',
  'category',
  'subcategoryId',
  'subcategory',
  'metadata',
  'createdAt',
  'updatedAt',
  'txId',
  'lastTxId',
  'eventCount',
];

/** A place with the names the export writes next to the ids. */
interface NamedPlace extends ObjectPlace {
  categoryName: string;
  subcategoryName: string;
}

async function givenPlaces(principal: Principal, categoryName: string, subcategoryNames: string[]) {
  const category = await givenCategory(principal, categoryName);
  const places: NamedPlace[] = [];
  for (const name of subcategoryNames) {
    const subcategory = await givenSubcategory(principal, category.id, name);
    places.push({
      categoryId: category.id,
      subcategoryId: subcategory.id,
      categoryName,
      subcategoryName: name,
    });
  }
  return places;
}

/** The ids `GET /v2/objects` lists for the query, in order. */
const listedIds = async (principal: Principal, query: Record<string, string>): Promise<string[]> =>
  (await listAllObjects(principal, query)).map((object) => object.id);

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ObjectBody & { category: string | null; subcategory: string | null });

async function exportOk(principal: Principal, query: Record<string, string>) {
  const response = await exportObjects(principal, query);
  if (response.statusCode !== 200) throw new Error(`export ${response.statusCode}: ${response.text}`);
  return response;
}

describe('CSV export', () => {
  it('writes the header row and quotes fields with commas, quotes and line breaks (RFC 4180, CRLF)', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [place] = await givenPlaces(principal, 'Fleet, "north"', ['Vans']);
    const object = await createObjectOk(principal, place!, {
      externalId: 'Q-1',
      name: 'Van, long',
      description: 'He said "hi"\nthen left',
      summary: 'line one\r\nline two',
      owner: 'Ann, Bob',
      metadata: { note: 'a,b', quote: '"', nested: { list: [1, 2] } },
    });
    // Act
    const response = await exportOk(principal, { format: 'csv' });
    // Assess
    expect(response.headers['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['Content-Disposition']).toMatch(
      /^attachment; filename="objects-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.text.startsWith(`${HEADER.join(',')}\r\n`)).toBe(true);
    expect(response.text.endsWith('\r\n')).toBe(true);
    expect(response.text).toContain(
      `${object.id},Q-1,"Van, long","He said ""hi""\nthen left","line one\r\nline two","Ann, Bob",active,${place!.categoryId},"Fleet, ""north""",${place!.subcategoryId},Vans,`,
    );
    const rows = parse(response.text) as string[][];
    expect(rows).toEqual([
      HEADER,
      [
        object.id,
        'Q-1',
        'Van, long',
        'He said "hi"\nthen left',
        'line one\r\nline two',
        'Ann, Bob',
        'active',
        place!.categoryId,
        'Fleet, "north"',
        place!.subcategoryId,
        'Vans',
        JSON.stringify(object.metadata),
        object.createdAt,
        object.updatedAt,
        object.blockchain.txId,
        object.blockchain.lastTxId,
        '1',
      ],
    ]);
  });

  it('writes the header row alone when nothing matches', async () => {
    // Act
    const response = await exportOk(companyPrincipal(), { format: 'csv' });
    // Assess
    expect(response.text).toBe(`${HEADER.join(',')}\r\n`);
  });

  it.each([
    ['=', '=SUM(A1:A9)'],
    ['+', '+1+cmd|calc'],
    ['-', '-2+3'],
    ['@', '@SUM(1)'],
  ])('neutralises a cell starting with %s with a leading apostrophe (OWASP)', async (_label, value) => {
    // Prepare
    const principal = companyPrincipal();
    const [place] = await givenPlaces(principal, value, [`${value} sub`]);
    const object = await createObjectOk(principal, place!, {
      externalId: value,
      name: value,
      description: value,
      summary: value,
      owner: value,
    });
    // Act
    const response = await exportOk(principal, { format: 'csv' });
    // Assess
    const [, row] = parse(response.text) as string[][];
    const cell = (column: string) => row![HEADER.indexOf(column)];
    for (const column of ['externalId', 'name', 'description', 'summary', 'owner', 'category']) {
      expect([column, cell(column)]).toEqual([column, `'${value}`]);
    }
    expect(cell('subcategory')).toBe(`'${value} sub`);
    expect(cell('id')).toBe(object.id);
  });

  it.each([
    ['a tab', '\tTabbed'],
    ['a carriage return', '\rReturned'],
    ['a line feed', '\nFed'],
  ])(
    'neutralises a free-text cell starting with %s (names hold no control characters)',
    async (_label, value) => {
      // Prepare
      const principal = companyPrincipal();
      const [place] = await givenPlaces(principal, 'Tools', ['Hand']);
      await createObjectOk(principal, place!, { externalId: value, description: value, summary: value });
      // Act
      const response = await exportOk(principal, { format: 'csv' });
      // Assess
      const [, row] = parse(response.text) as string[][];
      const cell = (column: string) => row![HEADER.indexOf(column)];
      for (const column of ['externalId', 'description', 'summary']) {
        expect([column, cell(column)]).toEqual([column, `'${value}`]);
      }
    },
  );

  it('leaves cells alone that a spreadsheet would not run, and guards an apostrophe before a formula once more', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [place] = await givenPlaces(principal, 'Tools', ['Hand']);
    await createObjectOk(principal, place!, {
      externalId: 'a=b',
      name: "'plain",
      description: ' =not at the start',
      summary: "'=quoted formula",
      owner: 'x-y',
      metadata: { formula: '=1+1' },
    });
    // Act
    const response = await exportOk(principal, { format: 'csv' });
    // Assess
    const [, row] = parse(response.text) as string[][];
    const cell = (column: string) => row![HEADER.indexOf(column)];
    expect(cell('externalId')).toBe('a=b');
    expect(cell('name')).toBe("'plain");
    expect(cell('description')).toBe(' =not at the start');
    expect(cell('summary')).toBe("''=quoted formula");
    expect(cell('owner')).toBe('x-y');
    expect(cell('metadata')).toBe('{"formula":"=1+1"}');
  });
});

describe('JSON Lines export', () => {
  it('writes each object as its entity with its category’s and subcategory’s names, one per line', async () => {
    // Prepare
    const principal = companyPrincipal();
    const [first, second] = await givenPlaces(principal, 'Machines', ['Pumps', 'Valves']);
    const objects = await createObjectsInOrder(principal, [
      { place: first!, body: { name: 'Pump', metadata: { power: 3, tags: ['a'] }, summary: '=raw' } },
      { place: second!, body: { name: 'Valve, line', description: 'two\nlines', owner: 'Ann' } },
    ]);
    // Act
    const response = await exportOk(principal, { format: 'jsonl', sort: 'createdAt:asc' });
    // Assess
    expect(response.headers['Content-Type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.text.endsWith('\n')).toBe(true);
    expect(response.text.split('\n')).toHaveLength(3);
    const entities = await Promise.all(
      objects.map(async (object) => (await getObject(principal, object.id)).body),
    );
    expect(jsonLines(response.text)).toEqual([
      { ...entities[0], category: 'Machines', subcategory: 'Pumps' },
      { ...entities[1], category: 'Machines', subcategory: 'Valves' },
    ]);
  });
});

describe('export filters and sorts (spec 4.1)', () => {
  const principal = companyPrincipal();
  const other = companyPrincipal();
  let places: NamedPlace[];
  let objects: ObjectBody[];

  beforeAll(async () => {
    places = [
      ...(await givenPlaces(principal, 'Plant', ['Pumps', 'Valves'])),
      ...(await givenPlaces(principal, 'Office', ['Desks'])),
    ];
    const [pumps, valves, desks] = places as [NamedPlace, NamedPlace, NamedPlace];
    objects = await createObjectsInOrder(principal, [
      { place: pumps, body: { externalId: 'F-1', name: 'Pump Alpha', owner: 'Ann' } },
      { place: pumps, body: { externalId: 'F-2', name: 'pump beta', owner: 'Joanna' } },
      { place: valves, body: { externalId: 'F-3', name: 'Valve', owner: 'Bob' } },
      { place: valves, body: { externalId: 'F-4', name: 'Valve', owner: 'ann' } },
      { place: desks, body: { externalId: 'F-5', name: 'Desk with pump', owner: 'Carl' } },
      { place: desks, body: { externalId: 'F-6', name: 'Ünïcode Désk', owner: 'Dana' } },
      { place: pumps, body: { externalId: 'F-7', name: 'Zeta pump', owner: 'Ann' } },
      { place: valves, body: { externalId: 'F-8', name: 'Alpha valve', owner: 'Eve' } },
      { place: desks, body: { externalId: 'F-9', name: 'desk', owner: 'Frank' } },
      { place: pumps, body: { externalId: 'F-10', name: 'Pump Alpha', owner: 'Gus' } },
    ]);
    // Inactive ones, in every category.
    for (const externalId of ['F-2', 'F-4', 'F-6', 'F-7']) {
      const object = objects.find((each) => each.externalId === externalId)!;
      await updateObjectOk(principal, object.id, { action: 'report_stolen' });
    }
    // Another company with the same names, in places of its own.
    const [foreign] = await givenPlaces(other, 'Plant', ['Pumps']);
    await createObjectsInOrder(other, [
      { place: foreign!, body: { externalId: 'F-1', name: 'Pump Alpha', owner: 'Ann' } },
      { place: foreign!, body: { externalId: 'F-11', name: 'Valve', owner: 'Bob' } },
    ]);
  });

  const queries: [string, () => Record<string, string>][] = [
    ['no filter (active, newest first)', () => ({})],
    ['status=all', () => ({ status: 'all' })],
    ['status=inactive', () => ({ status: 'inactive' })],
    ['status=active', () => ({ status: 'active' })],
    ['name (partial, any case)', () => ({ status: 'all', name: 'PUMP' })],
    ['name with accents', () => ({ status: 'all', name: 'désk' })],
    ['owner (partial, any case)', () => ({ owner: 'ANN' })],
    ['owner, status=all', () => ({ status: 'all', owner: 'ann' })],
    ['categoryId', () => ({ categoryId: places[0]!.categoryId })],
    ['categoryId, status=all', () => ({ status: 'all', categoryId: places[0]!.categoryId })],
    ['subcategoryId', () => ({ status: 'all', subcategoryId: places[1]!.subcategoryId })],
    [
      'categoryId and subcategoryId',
      () => ({ categoryId: places[2]!.categoryId, subcategoryId: places[2]!.subcategoryId }),
    ],
    [
      'a subcategoryId of another category',
      () => ({ categoryId: places[2]!.categoryId, subcategoryId: places[0]!.subcategoryId }),
    ],
    ['externalId', () => ({ externalId: 'F-3' })],
    ['externalId of an inactive object, default status', () => ({ externalId: 'F-2' })],
    ['externalId of an inactive object, status=all', () => ({ externalId: 'F-2', status: 'all' })],
    ['an unknown externalId', () => ({ externalId: 'F-404', status: 'all' })],
    ['sort=createdAt:asc', () => ({ status: 'all', sort: 'createdAt:asc' })],
    ['sort=createdAt:desc', () => ({ status: 'all', sort: 'createdAt:desc' })],
    ['sort=name:asc', () => ({ status: 'all', sort: 'name:asc' })],
    ['sort=name:desc', () => ({ sort: 'name:desc' })],
    [
      'sort=name:asc within a category',
      () => ({ status: 'all', sort: 'name:asc', categoryId: places[0]!.categoryId }),
    ],
    [
      'sort=name:desc within a subcategory, inactive',
      () => ({ status: 'inactive', sort: 'name:desc', subcategoryId: places[1]!.subcategoryId }),
    ],
    ['sort=name:asc with name and owner', () => ({ status: 'all', sort: 'name:asc', name: 'p', owner: 'a' })],
    [
      'sort=createdAt:asc within a category, by owner',
      () => ({ sort: 'createdAt:asc', owner: 'a', categoryId: places[0]!.categoryId }),
    ],
  ];

  it.each(queries)('exports exactly what GET /v2/objects lists, in its order: %s', async (_label, query) => {
    // Act
    const [csv, jsonl, listed] = await Promise.all([
      exportOk(principal, { ...query(), format: 'csv' }),
      exportOk(principal, { ...query(), format: 'jsonl' }),
      listedIds(principal, query()),
    ]);
    // Assess
    const csvIds = (parse(csv.text) as string[][]).slice(1).map((row) => row[0]);
    const jsonlIds = jsonLines(jsonl.text).map((object) => object.id);
    expect(jsonlIds).toEqual(listed);
    expect(csvIds).toEqual(listed);
  });

  it('gives the filters something to tell apart (the queries above are not all empty or all alike)', async () => {
    // Assess
    expect(await listedIds(principal, { status: 'all' })).toHaveLength(objects.length);
    expect(await listedIds(principal, { status: 'inactive' })).toHaveLength(4);
    expect(await listedIds(principal, { status: 'all', name: 'pump' })).toHaveLength(5);
  });

  it("never shows another company's objects, even for its ids and names", async () => {
    // Prepare
    const foreignIds = await listedIds(other, { status: 'all' });
    const foreignPlace = (
      await exportOk(other, { format: 'jsonl' }).then((response) => jsonLines(response.text))
    )[0]!;
    // Act
    const all = jsonLines((await exportOk(principal, { format: 'jsonl', status: 'all' })).text);
    const byForeignCategory = await exportOk(principal, {
      format: 'csv',
      status: 'all',
      categoryId: foreignPlace.categoryId,
    });
    const byForeignSubcategory = await exportOk(principal, {
      format: 'jsonl',
      status: 'all',
      subcategoryId: foreignPlace.subcategoryId,
    });
    const byForeignOnlyExternalId = await exportOk(principal, {
      format: 'jsonl',
      status: 'all',
      externalId: 'F-11',
    });
    const bySharedExternalId = jsonLines(
      (await exportOk(principal, { format: 'jsonl', status: 'all', externalId: 'F-1' })).text,
    );
    // Assess
    expect(foreignIds).toHaveLength(2);
    expect(all.map((object) => object.id).filter((id) => foreignIds.includes(id))).toEqual([]);
    expect(new Set(all.map((object) => object.categoryId))).toEqual(
      new Set([places[0]!.categoryId, places[2]!.categoryId]),
    );
    expect(byForeignCategory.text).toBe(`${HEADER.join(',')}\r\n`);
    expect(byForeignSubcategory.text).toBe('');
    expect(byForeignOnlyExternalId.text).toBe('');
    expect(bySharedExternalId.map((object) => object.id)).toEqual([objects[0]!.id]);
  });
});

describe('a large export', () => {
  const principal = companyPrincipal();
  const previous = process.env.EXPORT_INLINE_MAX_BYTES;
  let inline: { csv: string; jsonl: string };

  beforeAll(async () => {
    const [place] = await givenPlaces(principal, 'Warehouse', ['Shelves']);
    for (let n = 1; n <= 30; n++) {
      await createObjectOk(principal, place!, {
        externalId: `L-${n}`,
        name: `Shelf ${n}, "quoted"`,
        description: n % 3 === 0 ? '=formula' : `line\r\n${n}`,
        metadata: { n },
      });
    }
    inline = {
      csv: (await exportOk(principal, { format: 'csv', sort: 'name:asc' })).text,
      jsonl: (await exportOk(principal, { format: 'jsonl', sort: 'name:asc' })).text,
    };
    process.env.EXPORT_INLINE_MAX_BYTES = '2000';
  });

  afterAll(() => {
    if (previous === undefined) delete process.env.EXPORT_INLINE_MAX_BYTES;
    else process.env.EXPORT_INLINE_MAX_BYTES = previous;
  });

  it.each(['csv', 'jsonl'] as const)(
    'becomes a job (202, Location), completed with its row count and a presigned link to the whole file (%s)',
    async (format) => {
      // Act
      const started = await exportObjects(principal, { format, sort: 'name:asc' });
      const body = JSON.parse(started.text);
      const running = await getExport(principal, body.id);
      await settleBackgroundJobs();
      const done = await getExport(principal, body.id);
      const file = await fetch(done.body.url);
      const fileText = await file.text();
      // Assess
      expect(started.statusCode).toBe(202);
      expect(started.headers.Location).toBe(`/test/v2/exports/${body.id}`);
      expect(body).toMatchObject({ status: 'running', format, url: null, rowCount: null });
      expect(running.statusCode).toBe(200);
      expect(done.statusCode).toBe(200);
      expect(done.body).toMatchObject({
        id: body.id,
        status: 'completed',
        format,
        rowCount: 30,
        size: Buffer.byteLength(inline[format]),
        error: null,
        parameters: expect.objectContaining({ format, sort: 'name:asc' }),
      });
      expect(done.headers['Cache-Control']).toBe('private, no-store');
      expect(file.status).toBe(200);
      expect(fileText).toBe(inline[format]);
    },
  );

  it("responds 404 EXPORT_NOT_FOUND for another company's export and for an unknown id", async () => {
    // Prepare
    const started = await exportObjects(principal, { format: 'csv' });
    const { id } = JSON.parse(started.text);
    await settleBackgroundJobs();
    // Act
    const foreign = await getExport(companyPrincipal(), id);
    const unknown = await getExport(principal, '00000000-0000-4000-8000-000000000000');
    const own = await getExport(principal, id);
    // Assess
    expect(started.statusCode).toBe(202);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body.code).toBe('EXPORT_NOT_FOUND');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.code).toBe('EXPORT_NOT_FOUND');
    expect(own.body.status).toBe('completed');
  });
});

describe('an export over several index pages', () => {
  const principal = companyPrincipal();
  let places: NamedPlace[];
  const ROWS = 450;

  beforeAll(async () => {
    places = await givenPlaces(principal, 'Depot', ['Bins', 'Crates']);
    const lines = ['externalId,name,owner,subcategoryId'];
    for (let n = 1; n <= ROWS; n++) {
      lines.push(
        `M-${n},Item ${n % 37},${n % 2 ? 'odd owner' : 'even owner'},${places[n % 3 === 0 ? 1 : 0]!.subcategoryId}`,
      );
    }
    const job = await importAndWait(principal, `${lines.join('\r\n')}\r\n`);
    if (job.counts.created !== ROWS) throw new Error(`import: ${JSON.stringify(job)}`);
  });

  afterEach(() => {
    delete process.env.EXPORT_INLINE_MAX_BYTES;
  });

  it.each<[string, () => Record<string, string>]>([
    ['newest first', () => ({})],
    ['sort=name:asc', () => ({ sort: 'name:asc' })],
    ['owner, sort=name:desc', () => ({ owner: 'ODD', sort: 'name:desc' })],
    ['subcategoryId, sort=name:asc', () => ({ subcategoryId: places[1]!.subcategoryId, sort: 'name:asc' })],
    [
      'categoryId and owner, sort=createdAt:asc',
      () => ({ categoryId: places[0]!.categoryId, owner: 'even', sort: 'createdAt:asc' }),
    ],
    ['name, status=all', () => ({ name: 'item 1', status: 'all' })],
  ])('exports exactly what GET /v2/objects lists: %s', async (_label, query) => {
    // Act
    const [jsonl, listed] = await Promise.all([
      exportOk(principal, { ...query(), format: 'jsonl' }),
      listedIds(principal, query()),
    ]);
    // Assess
    expect(listed.length).toBeGreaterThan(50);
    expect(jsonLines(jsonl.text).map((object) => object.id)).toEqual(listed);
  });

  it('becomes a job whose file holds every matching row, when the rows pass the limit pages in', async () => {
    // Prepare
    const query = { format: 'csv', owner: 'odd', sort: 'name:asc' };
    const inline = await exportOk(principal, query);
    process.env.EXPORT_INLINE_MAX_BYTES = String(Math.floor(Buffer.byteLength(inline.text) * 0.9));
    // Act
    const started = await exportObjects(principal, query);
    await settleBackgroundJobs();
    const done = await getExport(principal, JSON.parse(started.text).id);
    const file = await (await fetch(done.body.url)).text();
    // Assess
    expect(started.statusCode).toBe(202);
    expect(done.body).toMatchObject({ status: 'completed', rowCount: ROWS / 2 });
    expect(file).toBe(inline.text);
    expect(parse(file)).toHaveLength(ROWS / 2 + 1);
  });
});
