/**
 * Subcategories end to end (spec 4.8-4.10): `npm start`, the admin CLI, and HTTP calls with
 * fetch, whose FormData builds the multipart bodies independently of the test helpers. The
 * tests of this file run in order and share the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalServer, processesMentioning, runAdmin, startLocalServer } from '../support/local-server';
import { GIF_1X1, PNG_1X1, TEXT_SAMPLE } from '../support/subcategory-images';
import { multipartBody } from '../support/subcategory-multipart';

jest.setTimeout(180_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

describe('subcategories over HTTP against npm start', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-subcategories-'));
  let server: LocalServer | undefined;
  let companyId = '';
  let apiKey = '';
  let categoryId = '';
  let subcategoryId = '';
  let firstImageId = '';

  const detailPath = () => `/api/v2/object/${companyId}/category/${categoryId}/subcategory/${subcategoryId}`;

  async function call(
    path: string,
    options: {
      method?: string;
      json?: unknown;
      form?: FormData;
      raw?: { body: Buffer; contentType: string };
    } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'X-API-Key': apiKey };
    let body: NonNullable<Parameters<typeof fetch>[1]>['body'];
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form; // fetch sets multipart/form-data with its own boundary
    } else if (options.raw) {
      headers['Content-Type'] = options.raw.contentType;
      body = options.raw.body;
    }
    const response = await fetch(`${server?.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    server = await startLocalServer({ dataDirectory });
    const created = await runAdmin(['create-company', '--name', 'Subcategory Co'], {
      port: server.port,
      dataDirectory,
    });
    if (created.exitCode !== 0) throw new Error(`create-company: ${created.stderr}`);
    ({ companyId, apiKey } = JSON.parse(created.stdout));
    const category = await call('/v2/categories', { method: 'POST', json: { name: 'Vehicles' } });
    if (category.status !== 201) throw new Error(`category: ${JSON.stringify(category.body)}`);
    categoryId = category.body.id;
  });

  afterAll(async () => {
    await server?.kill();
    for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('creates a subcategory with a base64 PNG: 200 { status, data: { id }, timestamp }', async () => {
    // Act
    const response = await call(`/v2/categories/${categoryId}/subcategories`, {
      method: 'POST',
      json: { name: 'Trucks', description: 'Heavy', image: PNG_1X1.toString('base64') },
    });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: { id: expect.stringMatching(UUID) },
      timestamp: expect.stringMatching(ISO_UTC),
    });
    subcategoryId = response.body.data.id;
  });

  it('reads the detail at /api/v2/object/...: path, imageId and the PNG file', async () => {
    // Act
    const response = await call(detailPath());
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: subcategoryId,
      path: 'Vehicles/Trucks',
      status: 'active',
      files: [expect.objectContaining({ mimeType: 'image/png' })],
    });
    firstImageId = response.body.data.imageId;
    expect(response.body.data.files[0].id).toBe(firstImageId);
  });

  it('updates with a multipart body from FormData: name, description and a GIF', async () => {
    // Prepare
    const form = new FormData();
    form.set('name', 'Lorries');
    form.set('action', 'CHANGE');
    form.set('description', 'Heavier');
    form.set('file', new Blob([GIF_1X1], { type: 'image/gif' }), 'lorry.gif');
    // Act
    const response = await call(detailPath(), { method: 'PUT', form });
    const detail = await call(detailPath());
    // Assess
    expect(response.status).toBe(200);
    const imageId = response.body.data.imageId;
    expect(response.body).toEqual({
      status: 'success',
      data: { imageId },
      changes: {
        name: { from: 'Trucks', to: 'Lorries' },
        description: { from: 'Heavy', to: 'Heavier' },
        imageId: { from: firstImageId, to: imageId },
      },
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data.path).toBe('Vehicles/Lorries');
    expect(
      detail.body.data.files.map((file: { title: string; mimeType: string }) => [file.title, file.mimeType]),
    ).toEqual([
      ['image.png', 'image/png'],
      ['lorry.gif', 'image/gif'],
    ]);
  });

  it('responds 415 UNSUPPORTED_FILE_TYPE for a text file sent as the image', async () => {
    // Prepare
    const form = new FormData();
    form.set('name', 'Lorries');
    form.set('file', new Blob([TEXT_SAMPLE], { type: 'text/plain' }), 'notes.txt');
    // Act
    const response = await call(detailPath(), { method: 'PUT', form });
    // Assess
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('responds 400 INVALID_ACTION with details.action for an unknown action', async () => {
    // Prepare
    const form = new FormData();
    form.set('name', 'Lorries');
    form.set('action', 'ARCHIVE');
    // Act
    const response = await call(detailPath(), { method: 'PUT', form });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_ACTION');
    expect(Object.keys(response.body.details)).toEqual(['action']);
  });

  it('DEACTIVATE through JSON delists it, and a new object there gets 409 SUBCATEGORY_NOT_ACTIVE', async () => {
    // Act
    const deactivation = await call(detailPath(), {
      method: 'PUT',
      json: { name: 'Lorries', action: 'DEACTIVATE' },
    });
    const object = await call(`/v2/categories/${categoryId}/subcategories/${subcategoryId}/objects`, {
      method: 'POST',
      json: { externalId: 'LATE-1', name: 'Late lorry' },
    });
    const category = await call(`/v2/categories/${categoryId}`);
    // Assess
    expect(deactivation.status).toBe(200);
    expect(deactivation.body.changes).toEqual({});
    expect(object.status).toBe(409);
    expect(object.body.code).toBe('SUBCATEGORY_NOT_ACTIVE');
    expect(category.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 0 });
    expect(category.body.subcategories[0]).toMatchObject({ id: subcategoryId, status: 'delisted' });
  });

  it('responds 400 to a multipart body cut off inside the file, and keeps serving', async () => {
    // Prepare
    const boundary = 'e2e-truncated-boundary';
    const whole = multipartBody(
      [
        { name: 'name', value: 'Lorries' },
        { name: 'file', fileName: 'cut.png', contentType: 'image/png', content: PNG_1X1 },
      ],
      boundary,
    );
    const truncated = whole.subarray(0, whole.length - 30);
    // Act
    let response: ApiResponse | Error;
    try {
      response = await call(detailPath(), {
        method: 'PUT',
        raw: { body: truncated, contentType: `multipart/form-data; boundary=${boundary}` },
      });
    } catch (error) {
      response = error as Error;
    }
    let afterwards: ApiResponse | Error;
    try {
      afterwards = await call(detailPath());
    } catch (error) {
      afterwards = error as Error;
    }
    const serverOutput = server?.output() ?? '';
    // Assess
    expect(serverOutput).not.toContain("Unhandled 'error' event");
    expect(response).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(afterwards).toMatchObject({ status: 200 });
  });
});
