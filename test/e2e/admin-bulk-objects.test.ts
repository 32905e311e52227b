/**
 * `npm run --silent admin -- import` and `export` in local mode, as the README's users run them:
 * against a running `npm start` found through its data folder. The file's rows come back
 * through the HTTP API and through the export, which imports into another company as the same
 * objects.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalServer, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(240_000);

describe('admin CLI import and export (local mode)', () => {
  let server: LocalServer;
  let dataDirectory: string;
  let files: string;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-bulk-'));
    files = mkdtempSync(join(tmpdir(), 'asset-registry-bulk-files-'));
    server = await startLocalServer({ dataDirectory });
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  const settings = () => ({ port: server.port, dataDirectory });
  const admin = async (args: string[]) => {
    const result = await runAdmin(args, settings());
    if (result.exitCode !== 0)
      throw new Error(`admin ${args.join(' ')}: ${result.exitCode} ${result.stderr}`);
    return result.stdout;
  };
  const objectsOf = async (apiKey: string) => {
    const response = await fetch(`${server.baseUrl}/v2/objects?status=all&sort=name:asc&limit=100`, {
      headers: { 'X-API-Key': apiKey },
    });
    return ((await response.json()) as { data: Record<string, unknown>[] }).data;
  };

  it('imports a file into a company and exports it into a file that imports into another as the same objects', async () => {
    // Prepare
    const source = JSON.parse(await admin(['create-company', '--name', 'Source']));
    const target = JSON.parse(await admin(['create-company', '--name', 'Target']));
    const file = join(files, 'laptops.csv');
    writeFileSync(
      file,
      'externalId,name,owner,category,subcategory,metadata.cpu\r\n' +
        'L-1,ThinkPad,Ann,IT,Laptops,arm\r\n' +
        'L-2,"MacBook, 14""",=Bob,IT,Laptops,x86\r\n' +
        'L-3,z,Carl,IT,Laptops,x86\r\n',
    );
    const exported = join(files, 'export.csv');
    // Act
    const imported = JSON.parse(
      await admin(['import', file, '--company', source.companyId, '--create-missing']),
    );
    const written = JSON.parse(
      await admin(['export', '--company', source.companyId, '--sort', 'name:asc', '--out', exported]),
    );
    const reimported = JSON.parse(await admin(['import', exported, '--company', target.companyId]));
    // Assess
    expect(imported).toMatchObject({
      status: 'completed',
      counts: { total: 3, created: 2, failed: 1 },
      errors: [{ row: 4, field: 'name', code: 'LENGTH_INVALID', outcome: 'failed' }],
    });
    expect(written).toMatchObject({ file: exported, format: 'csv', rowCount: 2 });
    expect(readFileSync(exported, 'utf8')).toContain(`,"MacBook, 14""",`);
    expect(readFileSync(exported, 'utf8')).toContain(`,'=Bob,`);
    expect(reimported).toMatchObject({
      status: 'completed',
      counts: { total: 2, created: 2 },
      errorCount: 0,
    });
    const fields = (object: Record<string, unknown>) => [
      object.externalId,
      object.name,
      object.owner,
      object.metadata,
    ];
    const sourceObjects = await objectsOf(source.apiKey);
    expect(sourceObjects.map(fields)).toEqual([
      ['L-2', 'MacBook, 14"', '=Bob', { cpu: 'x86' }],
      ['L-1', 'ThinkPad', 'Ann', { cpu: 'arm' }],
    ]);
    expect((await objectsOf(target.apiKey)).map(fields)).toEqual(sourceObjects.map(fields));
  });
});
