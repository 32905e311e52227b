/**
 * The bundles the stack deploys, not the TypeScript sources the other tests call: a handler
 * built as `cdk deploy` builds it (from packages' ES module builds, `lib/function-bundling.ts`)
 * responds as its source does, on its DynamoDB path, on its lazily loaded idempotency path, and
 * on its lazily loaded S3 paths (a streamed multipart upload and a download).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyEvent } from '../support/api-events';
import { bundleHandler, runBundledHandler } from '../support/bundled-handlers';
import { FILE_RESOURCE, filePath, sha256Hex, uploadEvent } from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';
import { multipartBody, newBoundary } from '../support/subcategory-multipart';

describe('bundled handlers', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'asset-registry-bundles-'));
  const bundles = new Map<string, string>();
  const principal = companyPrincipal();

  beforeAll(async () => {
    for (const handler of ['categories/create-category', 'files/upload-file', 'files/download-file']) {
      bundles.set(handler, await bundleHandler(handler, join(scratch, handler.replace('/', '-'))));
    }
  }, 120_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('creates a category, and responds to a repeated Idempotency-Key with the same category', async () => {
    // Prepare
    const event = proxyEvent({
      method: 'POST',
      path: '/v2/categories',
      principal,
      body: { name: `Bundled ${randomUUID().slice(0, 8)}` },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    // Act
    const first = await runBundledHandler(bundles.get('categories/create-category')!, event);
    const again = await runBundledHandler(bundles.get('categories/create-category')!, event);
    // Assess
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(JSON.parse(again.body).id).toBe(JSON.parse(first.body).id);
  });

  it('streams an upload into S3 and downloads the same bytes', async () => {
    // Prepare
    const object = await givenObject(principal, await givenSubcategoryPath(principal));
    const png = sample('photo.png');
    const boundary = newBoundary();
    const body = multipartBody(
      [{ name: 'file', fileName: png.fileName, contentType: png.mimeType, content: png.content }],
      boundary,
    );
    // Act
    const uploaded = await runBundledHandler(
      bundles.get('files/upload-file')!,
      uploadEvent(principal, object.id, body, boundary),
    );
    const fileId = JSON.parse(uploaded.body).id as string;
    const downloaded = await runBundledHandler(
      bundles.get('files/download-file')!,
      proxyEvent({
        method: 'GET',
        path: filePath(principal.tenantId, fileId),
        resource: FILE_RESOURCE,
        principal,
        pathParameters: { companyId: principal.tenantId, fileId },
      }),
    );
    // Assess
    expect(uploaded.statusCode).toBe(201);
    expect(JSON.parse(uploaded.body).checksum).toBe(`sha256:${sha256Hex(png.content)}`);
    expect(downloaded.statusCode).toBe(200);
    expect(Buffer.from(downloaded.body, 'base64').equals(png.content)).toBe(true);
  });
});
