/**
 * The whole API through the generated client (`client/`), as a TypeScript user drives it
 * against `npm start`: every operation of the served document at least once, without a cast;
 * files sent as Blob/File, downloads read as bytes, errors read by their typed `code`. Every
 * response is also checked against the document. The tests run in order and share the server.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AssetRegistryClient,
  type AssetRegistryClientOptions,
  type components,
  createAssetRegistryClient,
} from '../../client/asset-registry-client';
import type { OpenApiDocument } from '../../lambdas/openapi/openapi-document';
import {
  eventually,
  type LocalServer,
  projectRoot,
  runAdmin,
  startLocalServer,
} from '../support/local-server';
import { ResponseValidator } from '../support/openapi-validator';
import {
  addIdentityProviderArguments,
  startTestIdentityProvider,
  TEST_PROVIDER_AUDIENCE,
} from '../support/test-identity-provider';
import { webhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const CSV = Buffer.from('serial,site\nA-1,dock 4\n', 'utf8');

describe('the typed client against npm start', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-client-'));
  let server: LocalServer;
  let validator: ResponseValidator;
  /** `GET /v2/categories`, ...: every operation the clients called, by method and path template. */
  const called = new Set<string>();
  /** Differences between live responses and the document. */
  const problems: string[] = [];
  const operationIds = new Map<string, string>();

  /** A client whose every call is recorded and checked against the document. */
  function client(credentials: Omit<AssetRegistryClientOptions, 'baseUrl'> = {}): AssetRegistryClient {
    const api = createAssetRegistryClient({ baseUrl: server.baseUrl, ...credentials });
    api.use({
      async onResponse({ request, response, schemaPath }) {
        const route = `${request.method} ${schemaPath}`;
        called.add(route);
        const operationId = operationIds.get(route);
        if (!operationId) return;
        const text = await response.clone().text();
        problems.push(
          ...validator.problemsOf(operationId, {
            status: response.status,
            contentType: response.headers.get('content-type'),
            text,
          }),
        );
      },
    });
    return api;
  }

  const admin = async (args: string[]) => {
    const result = await runAdmin(args, { port: server.port, dataDirectory });
    if (result.exitCode !== 0) throw new Error(`admin ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  // Shared between the ordered tests below.
  let company: AssetRegistryClient;
  let companyId = '';
  let categoryId = '';
  let subcategoryId = '';
  let objectId = '';

  beforeAll(async () => {
    // Exports over 1.5 KB become jobs on this server, so that both responses are seen.
    server = await startLocalServer({ dataDirectory, context: { exportInlineMaxBytes: '1536' } });
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('reads the document without a key, and knows its operations', async () => {
    // Act
    const { data, error } = await client().GET('/v2/openapi.json');
    // Assess
    expect(error).toBeUndefined();
    expect(data?.openapi).toBe('3.1.0');
    const document = data as unknown as OpenApiDocument;
    validator = new ResponseValidator(document);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operationIds.set(`${method.toUpperCase()} ${path}`, operation.operationId);
      }
    }
    called.add('GET /v2/openapi.json');
  });

  it('was generated from the document this server serves (npm run client -- --from <url> --check)', () => {
    // Act
    const result = spawnSync(
      join(projectRoot, 'node_modules', '.bin', 'tsx'),
      ['scripts/generate-client.ts', '--from', `${server.baseUrl}/v2/openapi.json`, '--check'],
      {
        cwd: projectRoot,
        encoding: 'utf8',
        env: { ...process.env },
      },
    );
    // Assess
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('manages categories and subcategories, an image sent as a data URL and as a File', async () => {
    // Prepare
    const created = await admin(['create-company', '--name', 'Typed Co']);
    companyId = created.companyId;
    company = client({ apiKey: created.apiKey });
    // Act
    const category = await company.POST('/v2/categories', { body: { name: 'Vehicles', metadata: null } });
    categoryId = category.data?.id ?? '';
    const duplicate = await company.POST('/v2/categories', { body: { name: 'vehicles' } });
    const listed = await company.GET('/v2/categories', { params: { query: { status: 'all', limit: 10 } } });
    const read = await company.GET('/v2/categories/{categoryId}', { params: { path: { categoryId } } });
    const updated = await company.PUT('/v2/categories/{categoryId}', {
      params: { path: { categoryId } },
      body: { description: 'Cars and vans', status: 'active' },
    });
    const subcategory = await company.POST('/v2/categories/{categoryId}/subcategories', {
      params: { path: { categoryId } },
      body: { name: 'Vans', image: `data:image/png;base64,${PNG.toString('base64')}` },
    });
    subcategoryId = subcategory.data?.data.id ?? '';
    const detailPath = { companyId, categoryId, subcategoryId };
    const changed = await company.PUT(
      '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
      {
        params: { path: detailPath },
        body: { action: 'CHANGE', name: 'Vans', file: new File([PNG], 'van.png', { type: 'image/png' }) },
      },
    );
    const detail = await company.GET(
      '/api/v2/object/{companyId}/category/{categoryId}/subcategory/{subcategoryId}',
      { params: { path: detailPath } },
    );
    // Assess
    expect(category.response.status).toBe(201);
    expect(category.data?.status).toBe('active');
    expect(duplicate.error?.code).toBe('CATEGORY_NAME_EXISTS');
    expect(listed.data?.pagination.total).toBe(1);
    expect(read.data?.name).toBe('Vehicles');
    expect(updated.data?.description).toBe('Cars and vans');
    expect(subcategory.data?.status).toBe('success');
    expect(changed.data?.changes.imageId).toBeDefined();
    expect(detail.data?.data.files).toHaveLength(2);
    expect(detail.data?.data.imageId).toBe(changed.data?.data.imageId);
  });

  it('creates an object, applies every action, and reads its events and verdict', async () => {
    // Act
    const created = await company.POST('/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects', {
      params: { path: { categoryId, subcategoryId } },
      body: { externalId: 'VAN-1', name: 'Blue van', summary: null, metadata: { colour: 'blue' } },
    });
    objectId = created.data?.id ?? '';
    const path = { params: { path: { objectId } } };
    const actions = [
      await company.PUT('/v2/objects/{objectId}', {
        ...path,
        body: { action: 'update', name: 'Blue van (2019)' },
      }),
      await company.PUT('/v2/objects/{objectId}', {
        ...path,
        body: { action: 'transfer', owner: 'Fleet B' },
      }),
      await company.PUT('/v2/objects/{objectId}', {
        ...path,
        body: { action: 'report_stolen', eventDescription: 'gone' },
      }),
      await company.PUT('/v2/objects/{objectId}', {
        ...path,
        body: { action: 'repair', performedBy: 'Garage' },
      }),
    ];
    const transferWithoutOwner = await company.PUT('/v2/objects/{objectId}', {
      ...path,
      body: { action: 'transfer' },
    });
    const one = await company.GET('/v2/objects/{objectId}', path);
    const atCompany = await company.GET('/v2/companies/{companyId}/objects/{objectId}', {
      params: { path: { companyId, objectId } },
    });
    const listed = await company.GET('/v2/objects', { params: { query: { externalId: 'VAN-1' } } });
    const inSubcategory = await company.GET(
      '/v2/categories/{categoryId}/subcategories/{subcategoryId}/objects',
      {
        params: { path: { categoryId, subcategoryId }, query: { limit: 5 } },
      },
    );
    const events = await company.GET('/v2/objects/{objectId}/events', path);
    const verdict = await company.GET('/v2/objects/{objectId}/verify', path);
    // The transparency log: its public parts, and the proof of the object's first event. The
    // first checkpoint is published once the sequencer has run for the first events.
    await eventually(
      async () => (await company.GET('/v2/ledger/checkpoint', { parseAs: 'text' })).response.ok,
    );
    const checkpoint = await company.GET('/v2/ledger/checkpoint', { parseAs: 'text' });
    const verifierKey = await company.GET('/v2/ledger/key', { parseAs: 'text' });
    const treeSize = Number(String(checkpoint.data).split('\n')[1]);
    const consistency = await company.GET('/v2/ledger/consistency', {
      params: { query: { from: treeSize, to: treeSize } },
    });
    const tile = await company.GET('/v2/ledger/tile/{tilePath}', {
      params: { path: { tilePath: 'tile/0/000' } },
      parseAs: 'arrayBuffer',
    });
    const proof = await company.GET('/v2/objects/{objectId}/events/{sequence}/proof', {
      params: { path: { objectId, sequence: '1' } },
    });
    const unknown = await company.GET('/v2/objects/{objectId}', {
      params: { path: { objectId: crypto.randomUUID() } },
    });
    const me = await company.GET('/v2/me');
    const activity = await company.GET('/v2/events', { params: { query: { action: 'transfer', limit: 5 } } });
    // Assess
    expect(me.data).toMatchObject({ kind: 'company', id: companyId, keyLabels: [] });
    expect(activity.data?.data.every((event) => event.action === 'transfer')).toBe(true);
    expect(created.response.status).toBe(201);
    expect(actions.map((response) => response.data?.blockchain.eventCount)).toEqual([2, 3, 4, 5]);
    expect(actions.map((response) => response.data?.status)).toEqual([
      'active',
      'active',
      'stolen',
      'active',
    ]);
    const refusal = transferWithoutOwner.error;
    // Narrowed by its code, the 400 body carries its typed validationErrors.
    expect(refusal?.code === 'VALIDATION_ERROR' ? refusal.validationErrors : refusal).toEqual([
      expect.objectContaining({ field: 'owner', code: 'REQUIRED' }),
    ]);
    expect(one.data?.owner).toBe('Fleet B');
    expect(atCompany.data?.id).toBe(objectId);
    expect(listed.data?.data.map((item) => item.id)).toEqual([objectId]);
    expect(inSubcategory.data?.pagination.total).toBe(1);
    expect(events.data?.data.map((event) => event.action)).toEqual([
      'create',
      'update',
      'transfer',
      'report_stolen',
      'repair',
    ]);
    expect(verdict.data?.valid).toBe(true);
    expect(checkpoint.response.status).toBe(200);
    expect(verifierKey.response.status).toBe(200);
    expect(consistency.response.status).toBe(200);
    expect([200, 404]).toContain(tile.response.status); // a tile exists once 256 entries are logged
    expect([200, 409]).toContain(proof.response.status); // 409 until the event is in a checkpoint
    // The code is a literal union: a code this operation cannot return would not compile here.
    if (unknown.error?.code !== 'OBJECT_NOT_FOUND')
      throw new Error(`expected OBJECT_NOT_FOUND: ${unknown.error}`);
  });

  it('reads the transparency log: checkpoint, key, a tile, an event proof (JSON and tlog-proof), consistency', async () => {
    // Prepare: the sequencer inside npm start publishes the object's first event within a second or so.
    const proofPath = { params: { path: { objectId, sequence: '1' } } };
    let proof = await company.GET('/v2/objects/{objectId}/events/{sequence}/proof', proofPath);
    for (let attempt = 0; attempt < 40 && proof.response.status === 409; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      proof = await company.GET('/v2/objects/{objectId}/events/{sequence}/proof', proofPath);
    }
    const proofBody = proof.data as { treeSize: number } | undefined;
    const treeSize = proofBody?.treeSize ?? 0;
    // Act
    const tlogProof = await company.GET('/v2/objects/{objectId}/events/{sequence}/proof', {
      params: { path: { objectId, sequence: '1' }, query: { format: 'tlog-proof' } },
      parseAs: 'text',
    });
    const checkpoint = await company.GET('/v2/ledger/checkpoint', { parseAs: 'text' });
    const key = await company.GET('/v2/ledger/key', { parseAs: 'text' });
    const width = treeSize % 256 || 256;
    const tile = await company.GET('/v2/ledger/tile/{tilePath}', {
      params: { path: { tilePath: width === 256 ? '0/000' : `0/000.p/${width}` } },
      parseAs: 'arrayBuffer',
    });
    const consistency = await company.GET('/v2/ledger/consistency', {
      params: { query: { from: treeSize, to: treeSize } },
    });
    const bundle = await company.GET('/v2/objects/{objectId}/bundle', {
      params: { path: { objectId }, query: { atSequence: 1 } },
    });
    // Assess
    expect(proof.response.status).toBe(200);
    expect(bundle.data?.format).toBe('asset-registry-ledger-bundle@v1');
    expect(bundle.data?.events.map((event) => event.sequence)).toEqual([1]);
    expect(tlogProof.data).toMatch(/^c2sp\.org\/tlog-proof@v1\n/);
    expect(checkpoint.data).toMatch(/^asset-registry\.local\/ledger\n\d+\n/);
    expect(key.data).toMatch(/^asset-registry\.local\/ledger\+[0-9a-f]{8}\+/);
    expect((tile.data as ArrayBuffer | undefined)?.byteLength).toBe(32 * width);
    expect(consistency.data?.to).toBe(treeSize);
  });

  it('uploads files as File, downloads bytes (GET and HEAD), lists, deletes, and completes a presigned upload', async () => {
    // Prepare
    const filesPath = { params: { path: { companyId, objectId } } };
    // Act
    const uploaded = await company.POST('/v2/companies/{companyId}/objects/{objectId}/files', {
      ...filesPath,
      body: {
        file: new File([PNG], 'front.png', { type: 'image/png' }),
        description: 'front',
        tags: 'photo',
      },
    });
    const fileId = uploaded.data?.id ?? '';
    const filePath = { params: { path: { companyId, fileId } } };
    const downloaded = await company.GET('/v2/companies/{companyId}/files/{fileId}', {
      ...filePath,
      parseAs: 'arrayBuffer',
    });
    const head = await fetch(`${server.baseUrl}/v2/companies/${companyId}/files/${fileId}`, {
      method: 'HEAD',
      headers: {
        'X-API-Key': (await admin(['create-key', '--company', companyId, '--permissions', 'files:read']))
          .apiKey,
      },
    });
    const unsupported = await company.POST('/v2/companies/{companyId}/objects/{objectId}/files', {
      ...filesPath,
      body: { file: new File([PNG], 'tool.exe', { type: 'application/x-msdownload' }) },
    });
    const listed = await company.GET('/v2/companies/{companyId}/objects/{objectId}/files', filesPath);
    const deleted = await company.DELETE('/v2/companies/{companyId}/files/{fileId}', filePath);
    const session = await company.POST('/v2/companies/{companyId}/objects/{objectId}/files/uploads', {
      ...filesPath,
      body: { fileName: 'sites.csv', mimeType: 'text/csv', size: CSV.length },
    });
    const presigned = new FormData();
    for (const [name, value] of Object.entries(session.data?.fields ?? {})) presigned.append(name, value);
    presigned.append('file', new File([CSV], 'sites.csv', { type: 'text/csv' }));
    const posted = await fetch(session.data?.url ?? '', { method: 'POST', body: presigned });
    await posted.arrayBuffer();
    const completed = await company.POST(
      '/v2/companies/{companyId}/objects/{objectId}/files/uploads/{uploadId}/complete',
      { params: { path: { companyId, objectId, uploadId: session.data?.uploadId ?? '' } } },
    );
    // Assess
    expect(uploaded.response.status).toBe(201);
    expect(uploaded.data?.originalFileName).toBe('front.png');
    expect(Buffer.from(downloaded.data ?? new ArrayBuffer(0)).equals(PNG)).toBe(true);
    expect(downloaded.response.headers.get('etag')).toBe(head.headers.get('etag'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(unsupported.error?.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(listed.data?.pagination.total).toBe(1);
    expect(deleted.response.status).toBe(204);
    expect(completed.data?.checksum).toMatch(/^sha256:/);
  });

  it('imports a CSV sent as a Blob, follows the job, reads its errors (JSON and CSV), exports CSV and JSON Lines and an export job', async () => {
    // Prepare
    const file = new Blob(
      [
        `externalId,name,subcategoryId,colour\nIMP-1,Imported one,${subcategoryId},red\nIMP-2,,${subcategoryId},\n`,
      ],
      { type: 'text/csv' },
    );
    const finished = async (importId: string) => {
      const path = { params: { path: { importId } } };
      let job = await company.GET('/v2/imports/{importId}', path);
      await eventually(async () => {
        job = await company.GET('/v2/imports/{importId}', path);
        return job.data?.status === 'completed' || job.data?.status === 'failed';
      }, 30_000);
      return job;
    };
    // Act
    const created = await company.POST('/v2/imports', { body: { file, mode: 'create' } });
    const importId = created.data?.id ?? '';
    const job = await finished(importId);
    // The file as the whole body, its type in Content-Type.
    const raw = await company.POST('/v2/imports', {
      params: { query: { categoryId, subcategoryId, mode: 'upsert' } },
      body: new Blob(['externalId,name\nIMP-3,Raw three\nIMP-1,"Imported one, renamed"\n']),
      headers: { 'Content-Type': 'text/csv' },
    });
    const rawJob = await finished(raw.data?.id ?? '');
    // A presigned upload of JSON Lines, then its start.
    const lines = `${JSON.stringify({ externalId: 'IMP-4', name: 'Line four', subcategoryId })}\n`;
    const presigned = await company.POST('/v2/imports', {
      body: { size: Buffer.byteLength(lines), fileName: 'objects.jsonl' },
    });
    const upload = new FormData();
    for (const [name, value] of Object.entries(presigned.data?.upload?.fields ?? {}))
      upload.append(name, value);
    upload.append('file', new File([lines], 'objects.jsonl', { type: 'application/x-ndjson' }));
    const uploaded = await fetch(presigned.data?.upload?.url ?? '', { method: 'POST', body: upload });
    await uploaded.arrayBuffer();
    const started = await company.POST('/v2/imports/{importId}/start', {
      params: { path: { importId: presigned.data?.id ?? '' } },
    });
    const presignedJob = await finished(presigned.data?.id ?? '');
    const startedAgain = await company.POST('/v2/imports/{importId}/start', {
      params: { path: { importId } },
    });
    const listed = await company.GET('/v2/imports', { params: { query: { limit: 10 } } });
    const errors = await company.GET('/v2/imports/{importId}/errors', {
      params: { path: { importId }, query: { limit: 5 } },
    });
    const errorsCsv = await company.GET('/v2/imports/{importId}/errors', {
      params: { path: { importId }, query: { format: 'csv' } },
      parseAs: 'text',
    });
    const csv = await company.GET('/v2/objects/export', {
      params: { query: { format: 'csv', externalId: 'IMP-1' } },
      parseAs: 'text',
    });
    const jsonl = await company.GET('/v2/objects/export', {
      params: { query: { format: 'jsonl', name: 'three' } },
      parseAs: 'text',
    });
    // Everything: over this server's EXPORT_INLINE_MAX_BYTES, so 202 with an export job.
    const large = await company.GET('/v2/objects/export', {
      params: { query: { status: 'all', sort: 'name:asc' } },
    });
    const exportJob = large.data as components['schemas']['ExportJob'] | undefined;
    const exportPath = { params: { path: { exportId: exportJob?.id ?? '' } } };
    let exported = await company.GET('/v2/exports/{exportId}', exportPath);
    await eventually(async () => {
      exported = await company.GET('/v2/exports/{exportId}', exportPath);
      return exported.data?.status !== 'running';
    }, 30_000);
    const exportFile = await fetch(exported.data?.url ?? '');
    const exportText = await exportFile.text();
    const unknownImport = await company.GET('/v2/imports/{importId}', {
      params: { path: { importId: crypto.randomUUID() } },
    });
    const unknownExport = await company.GET('/v2/exports/{exportId}', {
      params: { path: { exportId: crypto.randomUUID() } },
    });
    // Assess
    expect(created.response.status).toBe(202);
    expect(created.response.headers.get('location')).toBe(`/v2/imports/${importId}`);
    expect(job.data).toMatchObject({
      status: 'completed',
      counts: { total: 2, created: 1, failed: 1 },
      ignoredColumns: ['colour'],
    });
    expect(rawJob.data).toMatchObject({ status: 'completed', counts: { total: 2, created: 1, updated: 1 } });
    expect(presigned.data?.status).toBe('pending');
    expect(uploaded.status).toBeLessThan(300);
    expect(started.data?.status).toBe('running');
    expect(presignedJob.data).toMatchObject({ status: 'completed', format: 'jsonl', counts: { created: 1 } });
    expect(startedAgain.error?.code).toBe('IMPORT_ALREADY_STARTED');
    expect(listed.data?.pagination.total).toBe(3);
    // The response is JSON or (format=csv) text: the type says both, the JSON page is an object.
    expect(typeof errors.data === 'object' ? errors.data.data : errors.data).toEqual([
      { row: 3, field: 'name', code: 'REQUIRED', message: expect.any(String), outcome: 'failed' },
    ]);
    expect(errorsCsv.response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(errorsCsv.data?.split('\r\n')[1]).toMatch(/^3,name,REQUIRED,/);
    expect(csv.response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.data).toContain('"Imported one, renamed"');
    expect(jsonl.response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(JSON.parse(jsonl.data?.trim() ?? '{}')).toMatchObject({
      externalId: 'IMP-3',
      subcategory: 'Vans',
    });
    expect(large.response.status).toBe(202);
    expect(large.response.headers.get('location')).toBe(`/v2/exports/${exportJob?.id}`);
    expect(exported.data).toMatchObject({ status: 'completed', format: 'csv', rowCount: 4 });
    expect(exportText.split('\r\n').filter(Boolean)).toHaveLength(5);
    expect(unknownImport.error?.code).toBe('IMPORT_NOT_FOUND');
    expect(unknownExport.error?.code).toBe('EXPORT_NOT_FOUND');
  });

  it("manages an App's wallets, logs one in, and calls with its token", async () => {
    // Prepare
    const app = await admin(['create-app', '--name', 'Scanners']);
    const apps = client({ apiKey: app.apiKey });
    // Act
    const created = await apps.POST('/v2/wallets', {
      body: { username: 'scanner-1', password: 'a long password', metadata: { site: 'dock 4' } },
    });
    const walletId = created.data?.id ?? '';
    const walletPath = { params: { path: { walletId } } };
    const listed = await apps.GET('/v2/wallets', { params: { query: { username: 'scanner' } } });
    const updated = await apps.PUT('/v2/wallets/{walletId}', {
      ...walletPath,
      body: { metadata: { site: 'dock 5' } },
    });
    const login = await client().POST('/v2/wallets/login', {
      body: { username: `scanner-1@${app.appId}`, password: 'a long password' },
    });
    const wallet = client({ walletToken: login.data?.token ?? '' });
    const own = await wallet.GET('/v2/wallets/{walletId}', walletPath);
    const badToken = await client({ walletToken: `arw_${'A'.repeat(43)}` }).GET(
      '/v2/wallets/{walletId}',
      walletPath,
    );
    const deleted = await apps.DELETE('/v2/wallets/{walletId}', walletPath);
    const afterDelete = await apps.GET('/v2/wallets/{walletId}', walletPath);
    // Assess
    expect(created.data?.lastLoginAt).toBeNull();
    expect(listed.data?.data.map((item) => item.id)).toEqual([walletId]);
    expect(updated.data?.metadata).toEqual({ site: 'dock 5' });
    expect(login.data?.wallet.id).toBe(walletId);
    expect(own.data?.stats.apiCallCount).toBe(1);
    expect(badToken.error?.code).toBe('UNAUTHORIZED');
    expect(badToken.error?.error).toMatch(/wallet session token/);
    expect(deleted.response.status).toBe(204);
    expect(afterDelete.error?.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('manages webhooks: subscribe, read, change, rotate, deliveries, retry, dead letters, delete', async () => {
    // Prepare
    const receiver = await webhookReceiver();
    try {
      // Act
      const created = await company.POST('/v2/webhooks', {
        body: { url: receiver.url, events: ['object.repaired'] },
      });
      const webhookId = created.data?.id ?? '';
      const path = { params: { path: { webhookId } } };
      const refused = await company.POST('/v2/webhooks', { body: { url: 'https://10.0.0.1/in' } });
      const listed = await company.GET('/v2/webhooks', { params: { query: { limit: 5 } } });
      const read = await company.GET('/v2/webhooks/{webhookId}', path);
      const changed = await company.PUT('/v2/webhooks/{webhookId}', {
        ...path,
        body: { description: 'ERP' },
      });
      const rotated = await company.POST('/v2/webhooks/{webhookId}/rotate-secret', path);
      await company.PUT('/v2/objects/{objectId}', {
        params: { path: { objectId } },
        body: { action: 'repair', performedBy: 'Garage' },
      });
      await eventually(() => receiver.received.length >= 1, 30_000);
      const deliveries = await company.GET('/v2/webhooks/{webhookId}/deliveries', path);
      const deliveryId = deliveries.data?.data[0]?.id ?? '';
      const retried = await company.POST('/v2/webhooks/{webhookId}/deliveries/{deliveryId}/retry', {
        params: { path: { webhookId, deliveryId } },
      });
      const deadLetters = await company.GET('/v2/webhooks/{webhookId}/dead-letters', path);
      const replayed = await company.POST('/v2/webhooks/{webhookId}/dead-letters/replay', path);
      const deleted = await company.DELETE('/v2/webhooks/{webhookId}', path);
      // Assess
      expect(created.data?.secret).toMatch(/^whsec_/);
      expect(refused.error?.code).toBe('VALIDATION_ERROR');
      expect(listed.data?.data.map((webhook) => webhook.id)).toContain(webhookId);
      expect(read.data?.status).toBe('active');
      expect(changed.data?.description).toBe('ERP');
      expect(rotated.data?.secret).not.toBe(created.data?.secret);
      expect(deliveries.data?.data[0]).toMatchObject({ eventType: 'object.repaired', status: 'succeeded' });
      expect(retried.response.status).toBe(202);
      expect(deadLetters.data?.pagination.total).toBe(0);
      expect(replayed.data).toEqual({ replayed: 0, remaining: 0 });
      expect(deleted.response.status).toBe(204);
    } finally {
      await receiver.stop();
    }
  });

  it("manages the company's keys and identity providers as an admin person", async () => {
    // Prepare: a provider of the test's own, registered for the company, and an admin's token.
    const provider = await startTestIdentityProvider();
    const audience = TEST_PROVIDER_AUDIENCE;
    try {
      await admin(addIdentityProviderArguments(companyId, provider.issuer));
      const ada = client({
        personToken: await provider.mintTestToken({
          claims: { aud: audience, sub: 'client-admin', name: 'Ada Admin', roles: ['admin'] },
        }),
      });
      const issuer = `https://idp-${crypto.randomUUID()}.example`;
      // Act
      const created = await ada.POST('/v2/keys', {
        body: { permissions: ['objects:read'], label: 'Reader' },
      });
      const reader = client({ apiKey: created.data?.apiKey ?? '' });
      const asReader = await reader.GET('/v2/me');
      const revoked = await ada.DELETE('/v2/keys/{keyId}', {
        params: { path: { keyId: created.data?.keyId ?? '' } },
      });
      const added = await ada.POST('/v2/identity-providers', {
        body: { issuer, audience, roleMappings: { Auditors: 'auditor' } },
      });
      const listed = await ada.GET('/v2/identity-providers');
      const removed = await ada.DELETE('/v2/identity-providers', { params: { query: { issuer } } });
      // Assess
      expect(created.data).toMatchObject({ label: 'Reader', permissions: ['objects:read'] });
      expect(asReader.data?.label).toBe('Reader');
      expect(revoked.response.status).toBe(204);
      expect(added.data).toMatchObject({
        issuer,
        rolesClaim: 'roles',
        roleMappings: { Auditors: 'auditor' },
      });
      expect(listed.data?.data.map((each) => each.issuer)).toContain(issuer);
      expect(removed.response.status).toBe(204);
    } finally {
      await provider.close();
    }
  });

  it('called every operation of the document, and every response was as documented', () => {
    // Assess
    expect([...operationIds.keys()].filter((route) => !called.has(route))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
