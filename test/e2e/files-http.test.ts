/**
 * Files end to end (spec 4.16-4.18): `npm start`, the admin CLI, and HTTP calls with fetch,
 * whose FormData builds the multipart bodies independently of the test helpers. Large uploads
 * stream through the local gateway; the server's memory (VmRSS / VmHWM of the `npm start`
 * node process) is measured and printed, not asserted. The tests run in order and share the server.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJpeg, buildPng, largePdf } from '../support/file-samples';
import { type LocalServer, readStackStateFile, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(300_000);

const MIB = 1024 * 1024;
const FIFTY_MIB = 50 * MIB;

interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON responses of every shape
  body: any;
}

const sha256Hex = (content: Buffer | Uint8Array) => createHash('sha256').update(content).digest('hex');

/** Ids of running processes whose command line contains `text` (the DynamoDB Local this file started). */
function processesMentioning(text: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, state, ...args]) => state !== undefined && !state.startsWith('Z') && args.join(' ').includes(text),
    )
    .map(([pid]) => Number(pid));
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc), or undefined elsewhere. */
function memoryOf(pid: number | undefined): { rssMiB: number; peakMiB: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}

describe('files over HTTP against npm start', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-files-'));
  let server: LocalServer | undefined;
  let serverPid: number | undefined;
  let companyId = '';
  let apiKey = '';
  let objectId = '';
  let externalId = '';
  let objectsPath = '';
  const measurements: Record<string, unknown> = {};

  async function call(
    path: string,
    options: { method?: string; json?: unknown; form?: FormData; redirect?: 'follow' | 'manual' } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'X-API-Key': apiKey };
    let body: FormData | string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form; // fetch sets multipart/form-data, its boundary and Content-Length
    }
    const response = await fetch(`${server?.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      redirect: options.redirect ?? 'manual',
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  const fileForm = (content: Buffer, fileName: string, type: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([content], { type }), fileName);
    return form;
  };
  const filesPath = (objectRef = objectId) => `/v2/companies/${companyId}/objects/${objectRef}/files`;

  beforeAll(async () => {
    server = await startLocalServer({ dataDirectory });
    serverPid = readStackStateFile(dataDirectory)?.pid;
    const created = await runAdmin(['create-company', '--name', 'Files Co'], {
      port: server.port,
      dataDirectory,
    });
    if (created.exitCode !== 0) throw new Error(`create-company: ${created.stderr}`);
    ({ companyId, apiKey } = JSON.parse(created.stdout));
    const category = await call('/v2/categories', { method: 'POST', json: { name: 'Machines' } });
    const subcategory = await call(`/v2/categories/${category.body.id}/subcategories`, {
      method: 'POST',
      json: { name: 'Cranes' },
    });
    externalId = `CRANE-${Date.now()}`;
    objectsPath = `/v2/categories/${category.body.id}/subcategories/${subcategory.body.data.id}/objects`;
    const object = await call(objectsPath, { method: 'POST', json: { externalId, name: 'Tower crane' } });
    if (object.status !== 201) throw new Error(`object: ${JSON.stringify(object.body)}`);
    objectId = object.body.id;
    measurements.afterStart = memoryOf(serverPid);
  });

  afterAll(async () => {
    measurements.atEnd = memoryOf(serverPid);
    console.log(
      `files e2e: npm start node process ${serverPid} memory (MiB): ${JSON.stringify(measurements)}`,
    );
    await server?.kill();
    for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('uploads a PNG with FormData (by externalId): 201 with the record; downloads the same bytes', async () => {
    // Prepare
    const png = buildPng();
    // Act
    const uploaded = await call(filesPath(externalId), {
      method: 'POST',
      form: fileForm(png, 'photo.png', 'image/png', { description: 'Side view', tags: 'a, b' }),
    });
    const downloaded = await fetch(`${server?.baseUrl}/v2/companies/${companyId}/files/${uploaded.body.id}`, {
      headers: { 'X-API-Key': apiKey },
    });
    const bytes = Buffer.from(await downloaded.arrayBuffer());
    // Assess
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      originalFileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
      description: 'Side view',
      tags: ['a', 'b'],
      url: `/v2/companies/${companyId}/files/${uploaded.body.id}`,
      checksum: `sha256:${sha256Hex(png)}`,
    });
    expect(uploaded.headers.get('location')).toBe(uploaded.body.url);
    expect(downloaded.status).toBe(200);
    expect(bytes.equals(png)).toBe(true);
    expect(downloaded.headers.get('content-type')).toBe('image/png');
    expect(downloaded.headers.get('content-length')).toBe(String(png.length));
    expect(downloaded.headers.get('etag')).toBe(`"${sha256Hex(png)}"`);
  });

  it('takes an externalId with a space and non-ASCII letters, percent-encoded in the path', async () => {
    // Prepare
    const special = `Kran Nr. 7 ü ${Date.now()}`;
    const object = await call(objectsPath, {
      method: 'POST',
      json: { externalId: special, name: 'Crawler crane' },
    });
    // Act
    const uploaded = await call(filesPath(encodeURIComponent(special)), {
      method: 'POST',
      form: fileForm(buildPng(), 'photo.png', 'image/png'),
    });
    const listed = await call(filesPath(encodeURIComponent(special)));
    // Assess
    expect(object.status).toBe(201);
    expect(uploaded.status).toBe(201);
    expect(listed.body.data.map((file: { id: string }) => file.id)).toEqual([uploaded.body.id]);
  });

  it('refuses a renamed file over HTTP: 415 UNSUPPORTED_FILE_TYPE', async () => {
    // Act
    const response = await call(filesPath(), {
      method: 'POST',
      form: fileForm(buildJpeg(), 'photo.png', 'image/png'),
    });
    // Assess
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('a 45 MB PDF: uploaded with FormData, downloaded through the redirect, byte-exact', async () => {
    // Prepare
    const pdf = largePdf(45 * MIB);
    const before = memoryOf(serverPid);
    const startedAt = Date.now();
    // Act
    const uploaded = await call(filesPath(), {
      method: 'POST',
      form: fileForm(pdf, 'scan.pdf', 'application/pdf'),
    });
    const uploadMs = Date.now() - startedAt;
    const afterUpload = memoryOf(serverPid);
    const redirect = await call(`/v2/companies/${companyId}/files/${uploaded.body.id}`);
    const followed = await fetch(`${server?.baseUrl}/v2/companies/${companyId}/files/${uploaded.body.id}`, {
      headers: { 'X-API-Key': apiKey },
    });
    const bytes = Buffer.from(await followed.arrayBuffer());
    measurements.upload45MB = { before, afterUpload, uploadMs };
    // Assess
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.size).toBe(pdf.length);
    expect(uploaded.body.checksum).toBe(`sha256:${sha256Hex(pdf)}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
    expect(bytes.length).toBe(pdf.length);
    expect(sha256Hex(bytes)).toBe(sha256Hex(pdf));
    expect(followed.headers.get('content-type')).toBe('application/pdf');
    expect(followed.headers.get('content-disposition')).toBe(
      `inline; filename="scan.pdf"; filename*=UTF-8''scan.pdf`,
    );
  });

  it('an oversize upload (55 MB sent with its Content-Length): 413 FILE_TOO_LARGE, nothing recorded', async () => {
    // Prepare
    const before = await call(filesPath());
    const oversize = largePdf(55 * MIB);
    // Act
    const response = await call(filesPath(), {
      method: 'POST',
      form: fileForm(oversize, 'huge.pdf', 'application/pdf'),
    });
    const after = await call(filesPath());
    measurements.oversize55MB = memoryOf(serverPid);
    // Assess
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('FILE_TOO_LARGE');
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
  });

  it('an oversize upload streamed without Content-Length (50 MiB + 1 byte file, chunked): 413 FILE_TOO_LARGE', async () => {
    // Prepare: a multipart body sent in 1 MiB chunks, so that the server cannot know its length up front.
    const boundary = 'files-e2e-chunked';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(MIB, 'a');
    let remaining = FIFTY_MIB + 1;
    let sentHead = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sentHead) {
          sentHead = true;
          controller.enqueue(head);
        } else if (remaining > 0) {
          const size = Math.min(remaining, chunk.length);
          remaining -= size;
          controller.enqueue(chunk.subarray(0, size));
        } else {
          controller.enqueue(tail);
          controller.close();
        }
      },
    });
    const before = await call(filesPath());
    // Act
    const response = await fetch(`${server?.baseUrl}${filesPath()}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    const refusal = (await response.json()) as { code: string };
    const after = await call(filesPath());
    measurements.oversizeChunked = memoryOf(serverPid);
    // Assess
    expect(response.status).toBe(413);
    expect(refusal.code).toBe('FILE_TOO_LARGE');
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
  });

  it('keeps serving after the refusals: list, download and a new upload work', async () => {
    // Act
    const listed = await call(filesPath());
    const uploaded = await call(filesPath(), {
      method: 'POST',
      form: fileForm(Buffer.from('still here\n'), 'after.txt', 'text/plain'),
    });
    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(2);
    expect(uploaded.status).toBe(201);
  });

  it('ten concurrent 45 MB uploads complete; the server’s peak memory is measured', async () => {
    // Prepare
    const pdf = largePdf(45 * MIB);
    const blob = new Blob([pdf], { type: 'application/pdf' });
    const before = memoryOf(serverPid);
    const startedAt = Date.now();
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => {
        const form = new FormData();
        form.append('file', blob, `scan-${index}.pdf`);
        return call(filesPath(), { method: 'POST', form });
      }),
    );
    const after = memoryOf(serverPid);
    measurements.tenConcurrent45MB = { before, after, elapsedMs: Date.now() - startedAt };
    // Assess
    expect(responses.map((response) => response.status)).toEqual(new Array(10).fill(201));
    for (const response of responses) expect(response.body.checksum).toBe(`sha256:${sha256Hex(pdf)}`);
  });

  it('the presigned upload session works through the local gateway and s3rver', async () => {
    // Prepare
    const png = buildPng([1, 2, 3, 255]);
    // Act
    const session = await call(`${filesPath()}/uploads`, {
      method: 'POST',
      json: { fileName: 'direct.png', mimeType: 'image/png', size: png.length },
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(session.body.fields as Record<string, string>))
      form.append(name, value);
    form.append('file', new Blob([png], { type: 'image/png' }), 'direct.png');
    const posted = await fetch(session.body.url, { method: 'POST', body: form });
    await posted.arrayBuffer();
    const completed = await call(session.body.completePath, { method: 'POST' });
    const downloaded = await fetch(`${server?.baseUrl}${completed.body.url}`, {
      headers: { 'X-API-Key': apiKey },
    });
    // Assess
    expect(session.status).toBe(201);
    expect(posted.status).toBe(204);
    expect(completed.status).toBe(201);
    expect(completed.body.checksum).toBe(`sha256:${sha256Hex(png)}`);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(png)).toBe(true);
  });

  it('deletes a file over HTTP: 204, then 404 FILE_NOT_FOUND', async () => {
    // Prepare
    const listed = await call(filesPath(), { method: 'GET' });
    const fileId = listed.body.data[0].id as string;
    // Act
    const deleted = await fetch(`${server?.baseUrl}/v2/companies/${companyId}/files/${fileId}`, {
      method: 'DELETE',
      headers: { 'X-API-Key': apiKey },
    });
    const deletedBody = await deleted.text();
    const again = await call(`/v2/companies/${companyId}/files/${fileId}`, { method: 'DELETE' });
    // Assess
    expect(deleted.status).toBe(204);
    expect(deletedBody).toBe('');
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('FILE_NOT_FOUND');
  });

  it('401 without an API key', async () => {
    // Act
    const response = await fetch(`${server?.baseUrl}${filesPath()}`);
    const refusal = (await response.json()) as { code: string };
    // Assess
    expect(response.status).toBe(401);
    expect(refusal.code).toBe('UNAUTHORIZED');
  });
});
