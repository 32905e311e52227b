/**
 * The OpenAPI document against live behaviour: `npm start`, `GET /v2/openapi.json` without a
 * key, then a realistic flow over HTTP (a company from the admin CLI, categories,
 * subcategories, objects, events and verification, files, an App with wallets, a login and
 * calls with the wallet's Bearer token), every call made by operationId through the document's
 * own method and path, and every response checked against the document: a documented status and
 * a body valid against its schema. The tests of this file run in order and share the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenApiDocument } from '../../lambdas/openapi/openapi-document';
import { eventually, type LocalServer, runAdmin, startLocalServer } from '../support/local-server';
import { OpenApiClient, type OperationResponse } from '../support/openapi-client';
import { officialSchemaProblems } from '../support/openapi-validator';
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
const PASSWORD = 'a wallet password';

function formWith(fields: Record<string, string>, file?: { name: string; type: string; content: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file.content], { type: file.type }), file.name);
  return form;
}

describe('OpenAPI document against the live API (npm start)', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-openapi-'));
  let server: LocalServer | undefined;
  let client: OpenApiClient;

  // Shared between the ordered tests below.
  let companyId = '';
  let companyKey = '';
  let noPermissionKey = '';
  let appKey = '';
  let appId = '';
  let categoryId = '';
  let subcategoryId = '';
  let objectId = '';
  let externalId = '';
  let fileId = '';
  let walletId = '';
  let token = '';

  /** Asserts the status, and that the response is as the document says. */
  function expectResponse(response: OperationResponse, status: number): void {
    expect({ status: response.status, problems: response.problems }).toEqual({
      status,
      problems: [],
    });
  }

  const admin = async (args: string[]) => {
    const result = await runAdmin(args, { port: server!.port, dataDirectory });
    if (result.exitCode !== 0) throw new Error(`admin ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  beforeAll(async () => {
    // Exports over 1.5 KB become jobs on this server, so that both responses are seen.
    server = await startLocalServer({ dataDirectory, context: { exportInlineMaxBytes: '1536' } });
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('serves GET /v2/openapi.json without a key: 200, valid OpenAPI 3.1, with a relative server', async () => {
    // Act
    const response = await fetch(`${server?.baseUrl}/v2/openapi.json`);
    const document = (await response.json()) as OpenApiDocument;
    client = new OpenApiClient(server!.baseUrl, document);
    const again = await client.call('openapi');
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(officialSchemaProblems(document)).toEqual([]);
    // Relative (no stage prefix locally): resolved against where the document was read.
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expectResponse(again, 200);
  });

  it('sets up a company, a key without permissions and an App with the admin CLI', async () => {
    // Act
    const company = await admin(['create-company', '--name', 'OpenAPI Co']);
    const bare = await admin([
      'create-key',
      '--company',
      company.companyId,
      '--permissions',
      '',
      '--label',
      'No permission',
    ]);
    const app = await admin(['create-app', '--name', 'OpenAPI App']);
    companyId = company.companyId;
    companyKey = company.apiKey;
    noPermissionKey = bare.apiKey;
    appId = app.appId;
    appKey = app.apiKey;
    // Assess
    expect([companyKey, noPermissionKey, appKey].every((key) => key.startsWith('ark_'))).toBe(true);
  });

  it('categories: create, conflict, invalid, list, get, update, Idempotency-Key, 401, 403, 404', async () => {
    // Act
    const created = await client.call('createCategory', {
      apiKey: companyKey,
      json: { name: 'Vehicles', description: 'Cars and trucks', metadata: { region: 'EU' } },
    });
    categoryId = created.body?.id;
    const duplicate = await client.call('createCategory', { apiKey: companyKey, json: { name: 'vehicles' } });
    const invalid = await client.call('createCategory', {
      apiKey: companyKey,
      json: { name: 'V', metadata: [] },
    });
    const malformed = await client.call('createCategory', {
      apiKey: companyKey,
      raw: { body: '{"name":', contentType: 'application/json' },
    });
    const listed = await client.call('listCategories', {
      apiKey: companyKey,
      query: { limit: '5', sort: 'name:asc' },
    });
    const badQuery = await client.call('listCategories', {
      apiKey: companyKey,
      query: { limit: '0', status: 'x' },
    });
    const read = await client.call('getCategory', { apiKey: companyKey, path: { categoryId } });
    const updated = await client.call('updateCategory', {
      apiKey: companyKey,
      path: { categoryId },
      json: { description: 'Road vehicles', status: 'inactive' },
    });
    const withoutKey = await client.call('listCategories');
    const badKey = await client.call('listCategories', { apiKey: 'ark_not_a_key' });
    const forbidden = await client.call('createCategory', {
      apiKey: noPermissionKey,
      json: { name: 'Nope' },
    });
    const appForbidden = await client.call('listCategories', { apiKey: appKey });
    const idempotent = { apiKey: companyKey, headers: { 'Idempotency-Key': 'e2e-trailers' } };
    const first = await client.call('createCategory', { ...idempotent, json: { name: 'Trailers' } });
    const retry = await client.call('createCategory', { ...idempotent, json: { name: 'Trailers' } });
    const reused = await client.call('createCategory', { ...idempotent, json: { name: 'Boats' } });
    const unknown = await client.call('getCategory', {
      apiKey: companyKey,
      path: { categoryId: crypto.randomUUID() },
    });
    const notUuid = await client.call('getCategory', {
      apiKey: companyKey,
      path: { categoryId: 'not-a-uuid' },
    });
    // Assess
    expectResponse(created, 201);
    expect(created.headers.get('location')).toBe(`/v2/categories/${categoryId}`);
    expectResponse(duplicate, 409);
    expect(duplicate.body.code).toBe('CATEGORY_NAME_EXISTS');
    expectResponse(invalid, 400);
    expect(invalid.body.validationErrors.length).toBe(2);
    expectResponse(malformed, 400);
    expectResponse(listed, 200);
    expectResponse(badQuery, 400);
    expectResponse(read, 200);
    expectResponse(updated, 200);
    expect(updated.body.status).toBe('inactive');
    expectResponse(withoutKey, 401);
    expectResponse(badKey, 401);
    expectResponse(forbidden, 403);
    expectResponse(appForbidden, 403);
    expectResponse(first, 201);
    expectResponse(retry, 201);
    expect(retry.body.id).toBe(first.body.id);
    expectResponse(reused, 409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expectResponse(unknown, 404);
    expectResponse(notUuid, 400);
  });

  it('subcategories: create (with image), invalid, detail, multipart update, actions, 404', async () => {
    // Act
    const created = await client.call('createSubcategory', {
      apiKey: companyKey,
      path: { categoryId },
      json: {
        name: 'Trucks',
        description: 'Heavy',
        image: `data:image/png;base64,${PNG.toString('base64')}`,
      },
    });
    subcategoryId = created.body?.data?.id;
    const detailPath = () => ({ companyId, categoryId, subcategoryId });
    const duplicate = await client.call('createSubcategory', {
      apiKey: companyKey,
      path: { categoryId },
      json: { name: 'trucks' },
    });
    const invalid = await client.call('createSubcategory', {
      apiKey: companyKey,
      path: { categoryId },
      json: { name: 'T', description: 7 },
    });
    const badImage = await client.call('createSubcategory', {
      apiKey: companyKey,
      path: { categoryId },
      json: { name: 'Pictures', image: 'not base64!' },
    });
    const noCategory = await client.call('createSubcategory', {
      apiKey: companyKey,
      path: { categoryId: crypto.randomUUID() },
      json: { name: 'Orphans' },
    });
    const detail = await client.call('getSubcategory', { apiKey: companyKey, path: detailPath() });
    const withImage = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      form: formWith(
        { name: 'Trucks', description: 'Heavy trucks', action: 'CHANGE' },
        { name: 'truck.png', type: 'image/png', content: PNG },
      ),
    });
    const notAnImage = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      form: formWith({ name: 'Trucks' }, { name: 'notes.csv', type: 'text/csv', content: CSV }),
    });
    const badAction = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      json: { action: 'EXPLODE' },
    });
    const deactivated = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      json: { action: 'deactivate' },
    });
    const objectInDelisted = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      json: { externalId: 'VIN-0', name: 'Too early' },
    });
    const activated = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      json: { action: 'ACTIVATE' },
    });
    const activatedAgain = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath(),
      json: { action: 'ACTIVATE' },
    });
    const otherCompany = await client.call('getSubcategory', {
      apiKey: companyKey,
      path: { ...detailPath(), companyId: crypto.randomUUID() },
    });
    const unknown = await client.call('getSubcategory', {
      apiKey: companyKey,
      path: { ...detailPath(), subcategoryId: crypto.randomUUID() },
    });
    const categoryWithSubcategory = await client.call('getCategory', {
      apiKey: companyKey,
      path: { categoryId },
    });
    // Assess
    expectResponse(created, 200);
    expectResponse(duplicate, 409);
    expectResponse(invalid, 400);
    expect(Object.keys(invalid.body.details).sort()).toEqual(['description', 'name']);
    expectResponse(badImage, 400);
    expect(Object.keys(badImage.body.details)).toEqual(['image']);
    expectResponse(noCategory, 404);
    expectResponse(detail, 200);
    expect(detail.body.data.files).toHaveLength(1);
    expectResponse(withImage, 200);
    expect(withImage.body.changes).toHaveProperty('imageId');
    expectResponse(notAnImage, 415);
    expectResponse(badAction, 400);
    expect(badAction.body.code).toBe('INVALID_ACTION');
    expectResponse(deactivated, 200);
    expectResponse(objectInDelisted, 409);
    expect(objectInDelisted.body.code).toBe('SUBCATEGORY_NOT_ACTIVE');
    expectResponse(activated, 200);
    expectResponse(activatedAgain, 409);
    expectResponse(otherCompany, 403);
    expectResponse(unknown, 404);
    expectResponse(categoryWithSubcategory, 200);
    expect(categoryWithSubcategory.body.subcategories).toHaveLength(1);
  });

  it('objects: create, conflict, lists, get, update actions, events, verify', async () => {
    // Act
    externalId = `VIN-${crypto.randomUUID().slice(0, 8)}`;
    const created = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      json: { externalId, name: 'Truck 1', summary: 'blue', owner: 'Fleet A', metadata: { axles: 3 } },
    });
    objectId = created.body?.id;
    const second = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      json: { externalId: `${externalId}-2`, name: 'Truck 2' },
    });
    const duplicate = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      json: { externalId, name: 'Truck again' },
    });
    const invalid = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      json: { name: 42, metadata: 'x' },
    });
    const noSubcategory = await client.call('createObject', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId: crypto.randomUUID() },
      json: { externalId: 'VIN-X', name: 'Nowhere' },
    });
    const listed = await client.call('listObjects', { apiKey: companyKey });
    const filtered = await client.call('listObjects', {
      apiKey: companyKey,
      query: { status: 'all', name: 'truck', owner: 'fleet', sort: 'name:desc', categoryId },
    });
    const byExternalId = await client.call('listObjects', { apiKey: companyKey, query: { externalId } });
    const ofSubcategory = await client.call('listSubcategoryObjects', {
      apiKey: companyKey,
      path: { categoryId, subcategoryId },
      query: { limit: '1', offset: '1' },
    });
    const read = await client.call('getObject', { apiKey: companyKey, path: { objectId } });
    const atLocation = await client.call('getCompanyObject', {
      apiKey: companyKey,
      path: { companyId, objectId },
    });
    const updated = await client.call('updateObject', {
      apiKey: companyKey,
      path: { objectId },
      json: { action: 'update', description: 'Repainted', metadata: { color: 'red', axles: null } },
    });
    const transferred = await client.call('updateObject', {
      apiKey: companyKey,
      path: { objectId },
      json: { action: 'transfer', owner: 'Fleet B', performedBy: 'ops' },
    });
    const transferWithoutOwner = await client.call('updateObject', {
      apiKey: companyKey,
      path: { objectId },
      json: { action: 'transfer' },
    });
    const stolen = await client.call('updateObject', {
      apiKey: companyKey,
      path: { objectId },
      json: { action: 'report_stolen', eventDescription: 'Gone from the yard' },
    });
    const events = await client.call('listObjectEvents', { apiKey: companyKey, path: { objectId } });
    const verified = await client.call('verifyObject', { apiKey: companyKey, path: { objectId } });
    // The object as it stood after its second event, and the events of a time range.
    const asOfSequence = await client.call('getObject', {
      apiKey: companyKey,
      path: { objectId },
      query: { atSequence: '2' },
    });
    const asOfInstant = await client.call('getCompanyObject', {
      apiKey: companyKey,
      path: { companyId, objectId },
      query: { asOf: asOfSequence.body?.asOf ?? '2000-01-01T00:00:00Z' },
    });
    const beforeCreation = await client.call('getObject', {
      apiKey: companyKey,
      path: { objectId },
      query: { asOf: '2000-01-01T00:00:00Z' },
    });
    const eventsInRange = await client.call('listObjectEvents', {
      apiKey: companyKey,
      path: { objectId },
      query: { since: asOfSequence.body?.asOf ?? '2000-01-01T00:00:00Z', limit: '2' },
    });
    const invertedRange = await client.call('listObjectEvents', {
      apiKey: companyKey,
      path: { objectId },
      query: { since: '2001-01-01T00:00:00Z', until: '2000-01-01T00:00:00Z' },
    });
    // The company's activity: the object's events among the company's, newest first.
    const activity = await client.call('listCompanyEvents', {
      apiKey: companyKey,
      query: { action: 'report_stolen', limit: '1' },
    });
    const badActivity = await client.call('listCompanyEvents', {
      apiKey: companyKey,
      query: { action: 'explode' },
    });
    // The transparency log: its public parts, and the proof of the object's first event.
    for (const operationId of ['getLedgerCheckpoint', 'getLedgerKey']) {
      await client.call(operationId, { apiKey: companyKey });
    }
    await client.call('getLedgerConsistency', { apiKey: companyKey, query: { from: '0', to: '0' } });
    await client.call('getLedgerTile', { apiKey: companyKey, path: { tilePath: 'tile/0/000' } });
    await client.call('getEventProof', { apiKey: companyKey, path: { objectId, sequence: '1' } });
    await client.call('getObjectBundle', { apiKey: companyKey, path: { objectId } });
    await client.call('getObjectBundle', {
      apiKey: companyKey,
      path: { objectId },
      query: { atSequence: '1' },
    });
    const unknown = await client.call('getObject', {
      apiKey: companyKey,
      path: { objectId: crypto.randomUUID() },
    });
    const unknownEvents = await client.call('listObjectEvents', {
      apiKey: companyKey,
      path: { objectId: crypto.randomUUID() },
    });
    // Assess
    expectResponse(created, 201);
    expectResponse(second, 201);
    expectResponse(duplicate, 409);
    expectResponse(invalid, 400);
    expectResponse(noSubcategory, 404);
    expectResponse(listed, 200);
    expect(listed.body.pagination.total).toBe(2);
    expectResponse(filtered, 200);
    expectResponse(byExternalId, 200);
    expectResponse(ofSubcategory, 200);
    expect(ofSubcategory.body.pagination).toMatchObject({ hasPrevious: true, hasNext: false });
    expectResponse(read, 200);
    expectResponse(atLocation, 200);
    expectResponse(updated, 200);
    expectResponse(transferred, 200);
    expectResponse(transferWithoutOwner, 400);
    expectResponse(stolen, 200);
    expect(stolen.body.status).toBe('stolen');
    expectResponse(events, 200);
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual([
      'create',
      'update',
      'transfer',
      'report_stolen',
    ]);
    expectResponse(verified, 200);
    expect(verified.body.valid).toBe(true);
    expectResponse(asOfSequence, 200);
    expect(asOfSequence.body).toMatchObject({ description: 'Repainted', asOfEvent: { sequence: 2 } });
    expectResponse(asOfInstant, 200);
    expect(asOfInstant.body).toEqual(asOfSequence.body);
    expectResponse(beforeCreation, 404);
    expectResponse(eventsInRange, 200);
    expect(eventsInRange.body.data.map((event: { sequence: number }) => event.sequence)).toEqual([2, 3]);
    expect(eventsInRange.body.pagination).toMatchObject({ total: 3, hasNext: true });
    expectResponse(invertedRange, 400);
    expectResponse(activity, 200);
    expect(activity.body.data).toMatchObject([{ objectId, action: 'report_stolen', sequence: 4 }]);
    expect(activity.body.pagination).toMatchObject({ total: null });
    expectResponse(badActivity, 400);
    expectResponse(unknown, 404);
    expectResponse(unknownEvents, 404);
  });

  it('files: upload, refusals, list, download, 304, delete, upload sessions', async () => {
    // Act
    const uploaded = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId },
      form: formWith(
        { description: 'Inventory', tags: 'csv, inventory' },
        { name: 'inventory.csv', type: 'text/csv', content: CSV },
      ),
    });
    fileId = uploaded.body?.id;
    const byExternalId = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId: externalId },
      form: formWith({}, { name: 'photo.png', type: 'image/png', content: PNG }),
    });
    const withoutFile = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId },
      form: formWith({ description: 'nothing attached' }),
    });
    const notMultipart = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId },
      json: { file: 'x' },
    });
    const unsupported = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId },
      form: formWith(
        {},
        { name: 'tool.exe', type: 'application/octet-stream', content: Buffer.from('MZ\x90\x00') },
      ),
    });
    const noObject = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId, objectId: crypto.randomUUID() },
      form: formWith({}, { name: 'a.csv', type: 'text/csv', content: CSV }),
    });
    const otherCompany = await client.call('uploadFile', {
      apiKey: companyKey,
      path: { companyId: crypto.randomUUID(), objectId },
      form: formWith({}, { name: 'a.csv', type: 'text/csv', content: CSV }),
    });
    const listed = await client.call('listFiles', { apiKey: companyKey, path: { companyId, objectId } });
    const downloaded = await client.call('downloadFile', {
      apiKey: companyKey,
      path: { companyId, fileId },
      query: { download: 'true' },
    });
    const notModified = await client.call('downloadFile', {
      apiKey: companyKey,
      path: { companyId, fileId },
      headers: { 'If-None-Match': downloaded.headers.get('etag') ?? '' },
    });
    const forbiddenDownload = await client.call('downloadFile', {
      apiKey: noPermissionKey,
      path: { companyId, fileId },
    });
    const forbiddenDelete = await client.call('deleteFile', {
      apiKey: noPermissionKey,
      path: { companyId, fileId },
    });
    const deleted = await client.call('deleteFile', { apiKey: companyKey, path: { companyId, fileId } });
    const goneDownload = await client.call('downloadFile', {
      apiKey: companyKey,
      path: { companyId, fileId },
    });
    const goneDelete = await client.call('deleteFile', { apiKey: companyKey, path: { companyId, fileId } });
    const session = await client.call('createUploadSession', {
      apiKey: companyKey,
      path: { companyId, objectId },
      json: { fileName: 'manual.csv', mimeType: 'text/csv', size: CSV.length, tags: 'manual' },
    });
    const earlyComplete = await client.call('completeUploadSession', {
      apiKey: companyKey,
      path: { companyId, objectId, uploadId: session.body?.uploadId },
    });
    const presignedForm = formWith(session.body?.fields ?? {}, {
      name: 'manual.csv',
      type: 'text/csv',
      content: CSV,
    });
    const posted = await fetch(session.body?.url, { method: 'POST', body: presignedForm });
    await posted.arrayBuffer();
    const completed = await client.call('completeUploadSession', {
      apiKey: companyKey,
      path: { companyId, objectId, uploadId: session.body?.uploadId },
    });
    const unsupportedSession = await client.call('createUploadSession', {
      apiKey: companyKey,
      path: { companyId, objectId },
      json: { fileName: 'tool.exe', mimeType: 'application/x-msdownload', size: 10 },
    });
    const unknownSession = await client.call('completeUploadSession', {
      apiKey: companyKey,
      path: { companyId, objectId, uploadId: crypto.randomUUID() },
    });
    // Assess
    expectResponse(uploaded, 201);
    expect(uploaded.headers.get('location')).toBe(uploaded.body.url);
    expectResponse(byExternalId, 201);
    expectResponse(withoutFile, 400);
    expect(withoutFile.body.code).toBe('FILE_REQUIRED');
    expectResponse(notMultipart, 400);
    expectResponse(unsupported, 415);
    expectResponse(noObject, 404);
    expectResponse(otherCompany, 403);
    expectResponse(listed, 200);
    expect(listed.body.pagination.total).toBe(2);
    expectResponse(downloaded, 200);
    expect(downloaded.text).toBe(CSV.toString('utf8'));
    expect(downloaded.headers.get('content-disposition')).toMatch(/^attachment/);
    expectResponse(notModified, 304);
    expectResponse(forbiddenDownload, 403);
    expect(forbiddenDownload.body.code).toBe('FILE_ACCESS_DENIED');
    expectResponse(forbiddenDelete, 403);
    expect(forbiddenDelete.body.code).toBe('FILE_DELETE_DENIED');
    expectResponse(deleted, 204);
    expectResponse(goneDownload, 404);
    expectResponse(goneDelete, 404);
    expectResponse(session, 201);
    expectResponse(earlyComplete, 409);
    expect(earlyComplete.body.code).toBe('UPLOAD_NOT_RECEIVED');
    expect(posted.status).toBeLessThan(300);
    expectResponse(completed, 201);
    expectResponse(unsupportedSession, 415);
    expectResponse(unknownSession, 404);
  });

  it('imports and exports: a CSV as a form part, as the body, JSON Lines, a presigned upload, errors, CSV and JSONL exports, an export job', async () => {
    // Prepare
    const csvFile = Buffer.from(
      `externalId,name,subcategoryId,colour\r\nIMP-1,Imported one,${subcategoryId},red\r\nIMP-2,,${subcategoryId},blue\r\n`,
    );
    const presignedFile = Buffer.from(`externalId,name\nIMP-5,Uploaded five\nIMP-6,Uploaded six\n`);
    const target = { categoryId, subcategoryId };
    const jobOf = (importId: string) => client.call('getImport', { apiKey: companyKey, path: { importId } });
    const finished = async (importId: string) => {
      let job = await jobOf(importId);
      await eventually(async () => {
        job = await jobOf(importId);
        return job.body?.status === 'completed' || job.body?.status === 'failed';
      }, 30_000);
      return job;
    };
    // Act
    const asForm = await client.call('createImport', {
      apiKey: companyKey,
      form: formWith({ mode: 'create' }, { name: 'vehicles.csv', type: 'text/csv', content: csvFile }),
    });
    const asBody = await client.call('createImport', {
      apiKey: companyKey,
      query: { ...target, fileName: 'raw.csv' },
      raw: { body: Buffer.from('externalId,name\nIMP-3,Raw three\n'), contentType: 'text/csv' },
    });
    const bodyJob = await finished(asBody.body?.id);
    // Upserts IMP-3, which the job above created.
    const asLines = await client.call('createImport', {
      apiKey: companyKey,
      query: { mode: 'upsert' },
      raw: {
        body: Buffer.from(
          `${JSON.stringify({ externalId: 'IMP-4', name: 'Line four', subcategoryId })}\n\n${JSON.stringify({ externalId: 'IMP-3', name: 'Raw three, renamed', subcategoryId })}\n`,
        ),
        contentType: 'application/x-ndjson',
      },
    });
    const noFile = await client.call('createImport', { apiKey: companyKey, json: { mode: 'create' } });
    const badOption = await client.call('createImport', {
      apiKey: companyKey,
      json: { mode: 'merge', size: 0 },
    });
    const forbidden = await client.call('createImport', {
      apiKey: noPermissionKey,
      raw: { body: csvFile, contentType: 'text/csv' },
    });
    const presigned = await client.call('createImport', {
      apiKey: companyKey,
      json: { ...target, size: presignedFile.length, fileName: 'uploaded.csv' },
    });
    const presignedId = presigned.body?.id as string;
    const early = await client.call('startImport', { apiKey: companyKey, path: { importId: presignedId } });
    const uploadForm = formWith(presigned.body?.upload?.fields ?? {}, {
      name: 'uploaded.csv',
      type: 'text/csv',
      content: presignedFile,
    });
    const uploaded = await fetch(presigned.body?.upload?.url, { method: 'POST', body: uploadForm });
    await uploaded.arrayBuffer();
    const started = await client.call('startImport', { apiKey: companyKey, path: { importId: presignedId } });
    const startedAgain = await client.call('startImport', {
      apiKey: companyKey,
      path: { importId: presignedId },
    });
    const startUnknown = await client.call('startImport', {
      apiKey: companyKey,
      path: { importId: crypto.randomUUID() },
    });
    const formJob = await finished(asForm.body?.id);
    const linesJob = await finished(asLines.body?.id);
    const presignedJob = await finished(presignedId);
    const listed = await client.call('listImports', { apiKey: companyKey, query: { limit: '2' } });
    const nextPage = await client.call('listImports', {
      apiKey: companyKey,
      query: { limit: '2', cursor: listed.body?.pagination?.nextCursor ?? '' },
    });
    const unknownJob = await client.call('getImport', {
      apiKey: companyKey,
      path: { importId: crypto.randomUUID() },
    });
    const notUuid = await client.call('getImport', { apiKey: companyKey, path: { importId: 'x' } });
    const errors = await client.call('listImportErrors', {
      apiKey: companyKey,
      path: { importId: asForm.body?.id },
      query: { limit: '10' },
    });
    const errorsCsv = await client.call('listImportErrors', {
      apiKey: companyKey,
      path: { importId: asForm.body?.id },
      query: { format: 'csv' },
    });
    const unknownErrors = await client.call('listImportErrors', {
      apiKey: companyKey,
      path: { importId: crypto.randomUUID() },
    });
    const exportedCsv = await client.call('exportObjects', {
      apiKey: companyKey,
      query: { format: 'csv', externalId: 'IMP-1' },
    });
    const exportedLines = await client.call('exportObjects', {
      apiKey: companyKey,
      query: { format: 'jsonl', name: 'three', sort: 'name:asc' },
    });
    const badExport = await client.call('exportObjects', { apiKey: companyKey, query: { format: 'xlsx' } });
    const unreadable = await client.call('exportObjects', { apiKey: noPermissionKey });
    // Everything: larger than this server's EXPORT_INLINE_MAX_BYTES, so a job writes it.
    const exportJob = await client.call('exportObjects', {
      apiKey: companyKey,
      query: { status: 'all', sort: 'createdAt:asc' },
    });
    const exportId = exportJob.body?.id as string;
    let exportRead = await client.call('getExport', { apiKey: companyKey, path: { exportId } });
    await eventually(async () => {
      exportRead = await client.call('getExport', { apiKey: companyKey, path: { exportId } });
      return exportRead.body?.status !== 'running';
    }, 30_000);
    const exportFile = await fetch(exportRead.body?.url);
    const exportText = await exportFile.text();
    const unknownExport = await client.call('getExport', {
      apiKey: companyKey,
      path: { exportId: crypto.randomUUID() },
    });
    // Assess
    expectResponse(asForm, 202);
    expect(asForm.headers.get('location')).toBe(`/v2/imports/${asForm.body.id}`);
    expect(asForm.body).toMatchObject({ status: 'running', format: 'csv', fileName: 'vehicles.csv' });
    expectResponse(asBody, 202);
    expectResponse(asLines, 202);
    expect(asLines.body).toMatchObject({ format: 'jsonl', mode: 'upsert' });
    expectResponse(noFile, 400);
    expect(noFile.body.code).toBe('FILE_REQUIRED');
    expectResponse(badOption, 400);
    expect(badOption.body.code).toBe('VALIDATION_ERROR');
    expectResponse(forbidden, 403);
    expectResponse(presigned, 202);
    expect(presigned.body).toMatchObject({ status: 'pending', upload: { method: 'POST' } });
    expect(presigned.body.upload.startPath).toBe(`/v2/imports/${presignedId}/start`);
    expectResponse(early, 409);
    expect(early.body.code).toBe('UPLOAD_NOT_RECEIVED');
    expect(uploaded.status).toBeLessThan(300);
    expectResponse(started, 202);
    expect(started.body.status).toBe('running');
    expectResponse(startedAgain, 409);
    expect(startedAgain.body.code).toBe('IMPORT_ALREADY_STARTED');
    expectResponse(startUnknown, 404);
    expectResponse(formJob, 200);
    expect(formJob.body).toMatchObject({
      status: 'completed',
      counts: { total: 2, created: 1, updated: 0, skipped: 0, failed: 1 },
      errorCount: 1,
      ignoredColumns: ['colour'],
    });
    expect(bodyJob.body).toMatchObject({ status: 'completed', counts: { created: 1 } });
    expect(linesJob.body).toMatchObject({
      status: 'completed',
      counts: { total: 2, created: 1, updated: 1 },
    });
    expect(presignedJob.body).toMatchObject({ status: 'completed', counts: { total: 2, created: 2 } });
    expectResponse(listed, 200);
    expect(listed.body.pagination).toMatchObject({ total: 4, hasNext: true });
    expectResponse(nextPage, 200);
    expect(nextPage.body.data).toHaveLength(2);
    expectResponse(unknownJob, 404);
    expect(unknownJob.body.code).toBe('IMPORT_NOT_FOUND');
    expectResponse(notUuid, 400);
    expectResponse(errors, 200);
    expect(errors.body.data).toEqual([
      expect.objectContaining({ row: 3, field: 'name', code: 'REQUIRED', outcome: 'failed' }),
    ]);
    expectResponse(errorsCsv, 200);
    expect(errorsCsv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(errorsCsv.text.split('\r\n')[0]).toBe('row,field,code,message,outcome');
    expectResponse(unknownErrors, 404);
    expectResponse(exportedCsv, 200);
    expect(exportedCsv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exportedCsv.headers.get('content-disposition')).toMatch(/^attachment; filename="objects-/);
    expect(exportedCsv.text.trimEnd().split('\r\n')).toHaveLength(2);
    expect(exportedCsv.text).toContain('IMP-1,Imported one');
    expectResponse(exportedLines, 200);
    expect(exportedLines.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(
      exportedLines.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).name),
    ).toEqual(['Raw three, renamed']);
    expectResponse(badExport, 400);
    expectResponse(unreadable, 403);
    expectResponse(exportJob, 202);
    expect(exportJob.headers.get('location')).toBe(`/v2/exports/${exportId}`);
    expectResponse(exportRead, 200);
    expect(exportRead.body).toMatchObject({ status: 'completed', format: 'csv', rowCount: 7 });
    expect(exportFile.status).toBe(200);
    expect(exportText.split('\r\n').filter(Boolean)).toHaveLength(8);
    expectResponse(unknownExport, 404);
    expect(unknownExport.body.code).toBe('EXPORT_NOT_FOUND');
  });

  it('wallets: create, conflict, list, get, update, login, Bearer calls, delete', async () => {
    // Act
    const created = await client.call('createWallet', {
      apiKey: appKey,
      json: { username: 'scanner-01', password: PASSWORD, metadata: { site: 'dock 4' } },
    });
    walletId = created.body?.id;
    const duplicate = await client.call('createWallet', {
      apiKey: appKey,
      json: { username: 'SCANNER-01', password: PASSWORD },
    });
    const invalid = await client.call('createWallet', {
      apiKey: appKey,
      json: { username: 'ab', password: 'short' },
    });
    const companyOnWallets = await client.call('listWallets', { apiKey: companyKey });
    const listed = await client.call('listWallets', {
      apiKey: appKey,
      query: { status: 'all', username: 'scan' },
    });
    const read = await client.call('getWallet', { apiKey: appKey, path: { walletId } });
    const updated = await client.call('updateWallet', {
      apiKey: appKey,
      path: { walletId },
      json: { metadata: { site: 'dock 5' } },
    });
    const badUpdate = await client.call('updateWallet', {
      apiKey: appKey,
      path: { walletId },
      json: { status: 'gone', password: 'short' },
    });
    const login = await client.call('walletLogin', {
      json: { username: `scanner-01@${appId}`, password: PASSWORD },
    });
    token = login.body?.token;
    const wrongPassword = await client.call('walletLogin', {
      json: { username: `scanner-01@${appId}`, password: 'not the password' },
    });
    const loginInvalid = await client.call('walletLogin', { json: { username: 7 } });
    const asWallet = await client.call('getWallet', { bearer: token, path: { walletId } });
    const listAsWallet = await client.call('listWallets', { bearer: token });
    const updateAsWallet = await client.call('updateWallet', { bearer: token, path: { walletId }, json: {} });
    const walletMe = await client.call('getMe', { bearer: token });
    const deleted = await client.call('deleteWallet', { apiKey: appKey, path: { walletId } });
    const afterDelete = await client.call('getWallet', { apiKey: appKey, path: { walletId } });
    const deleteAgain = await client.call('deleteWallet', { apiKey: appKey, path: { walletId } });
    const tokenAfterDelete = await client.call('getWallet', { bearer: token, path: { walletId } });
    // Assess
    expectResponse(created, 201);
    expectResponse(duplicate, 409);
    expectResponse(invalid, 400);
    expectResponse(companyOnWallets, 403);
    expectResponse(listed, 200);
    expectResponse(read, 200);
    expectResponse(updated, 200);
    expectResponse(badUpdate, 400);
    expectResponse(login, 200);
    expectResponse(wrongPassword, 401);
    expectResponse(loginInvalid, 400);
    expectResponse(asWallet, 200);
    expect(asWallet.body.stats.apiCallCount).toBeGreaterThanOrEqual(1);
    expectResponse(listAsWallet, 200);
    expectResponse(updateAsWallet, 403);
    expect(updateAsWallet.body.code).toBe('APP_ACCESS_DENIED');
    expectResponse(walletMe, 200);
    expect(walletMe.body).toMatchObject({ kind: 'wallet', id: walletId, appId, keyId: null });
    expectResponse(deleted, 204);
    expectResponse(afterDelete, 404);
    expectResponse(deleteAgain, 404);
    expectResponse(tokenAfterDelete, 401);
  });

  it('webhooks: create, refused address, list, get, update, rotate, deliveries, retry, dead letters, delete', async () => {
    // Prepare
    const receiver = await webhookReceiver();
    try {
      // Act
      const created = await client.call('createWebhook', { apiKey: companyKey, json: { url: receiver.url } });
      const webhookId = created.body.id as string;
      const privateAddress = await client.call('createWebhook', {
        apiKey: companyKey,
        json: { url: 'https://169.254.169.254/latest' },
      });
      const forbidden = await client.call('listWebhooks', { apiKey: noPermissionKey });
      const listed = await client.call('listWebhooks', { apiKey: companyKey });
      const read = await client.call('getWebhook', { apiKey: companyKey, path: { webhookId } });
      const unknown = await client.call('getWebhook', {
        apiKey: companyKey,
        path: { webhookId: '00000000-0000-4000-8000-000000000000' },
      });
      const updated = await client.call('updateWebhook', {
        apiKey: companyKey,
        path: { webhookId },
        json: { description: 'ERP', events: ['object.repaired'] },
      });
      const rotated = await client.call('rotateWebhookSecret', { apiKey: companyKey, path: { webhookId } });
      await client.call('updateObject', {
        apiKey: companyKey,
        path: { objectId },
        json: { action: 'repair' },
      });
      await eventually(() => receiver.received.length >= 1, 30_000);
      const deliveries = await client.call('listWebhookDeliveries', {
        apiKey: companyKey,
        path: { webhookId },
      });
      const deliveryId = deliveries.body.data[0]?.id as string;
      const retried = await client.call('retryWebhookDelivery', {
        apiKey: companyKey,
        path: { webhookId, deliveryId },
      });
      const unknownDelivery = await client.call('retryWebhookDelivery', {
        apiKey: companyKey,
        path: { webhookId, deliveryId: '00000000-0000-4000-8000-000000000000' },
      });
      const deadLetters = await client.call('listWebhookDeadLetters', {
        apiKey: companyKey,
        path: { webhookId },
      });
      const replayed = await client.call('replayWebhookDeadLetters', {
        apiKey: companyKey,
        path: { webhookId },
      });
      const deleted = await client.call('deleteWebhook', { apiKey: companyKey, path: { webhookId } });
      // Assess
      expectResponse(created, 201);
      expect(created.body.secret).toMatch(/^whsec_/);
      expectResponse(privateAddress, 400);
      expectResponse(forbidden, 403);
      expectResponse(listed, 200);
      expectResponse(read, 200);
      expect(read.text).not.toContain(created.body.secret);
      expectResponse(unknown, 404);
      expectResponse(updated, 200);
      expectResponse(rotated, 200);
      expectResponse(deliveries, 200);
      expect(deliveries.body.data[0]).toMatchObject({ eventType: 'object.repaired', status: 'succeeded' });
      expectResponse(retried, 202);
      expectResponse(unknownDelivery, 404);
      expectResponse(deadLetters, 200);
      expectResponse(replayed, 202);
      expectResponse(deleted, 204);
    } finally {
      await receiver.stop();
    }
  });

  it('removes the subcategory, after which it responds 404', async () => {
    // Act
    const detailPath = { companyId, categoryId, subcategoryId };
    const removed = await client.call('updateSubcategory', {
      apiKey: companyKey,
      path: detailPath,
      json: { action: 'REMOVE' },
    });
    const gone = await client.call('getSubcategory', { apiKey: companyKey, path: detailPath });
    const objectGone = await client.call('getObject', { apiKey: companyKey, path: { objectId } });
    // Assess
    expectResponse(removed, 200);
    expectResponse(gone, 404);
    expectResponse(objectGone, 404);
  });

  it('the ledger log: checkpoint, key, a tile, a proof (JSON and tlog-proof), consistency', async () => {
    // The object was removed above: its proof is 404 as documented (the typed client's test proves a live one).
    const proof = await client.call('getEventProof', {
      apiKey: companyKey,
      path: { objectId, sequence: '1' },
    });
    const text = await client.call('getEventProof', {
      apiKey: companyKey,
      path: { objectId, sequence: '1' },
      query: { format: 'tlog-proof' },
    });
    expect([proof.status, text.status]).toEqual([404, 404]);
    const checkpoint = await client.call('getLedgerCheckpoint', { apiKey: appKey });
    expect(checkpoint.status).toBe(200);
    const treeSize = checkpoint.text.split('\n')[1] ?? '0';
    expect((await client.call('getLedgerKey', { apiKey: companyKey })).status).toBe(200);
    // Who is calling: any key may ask, whatever its permissions.
    const me = await client.call('getMe', { apiKey: noPermissionKey });
    const appMe = await client.call('getMe', { apiKey: appKey });
    expectResponse(me, 200);
    expect(me.body).toMatchObject({
      kind: 'company',
      id: companyId,
      label: 'No permission',
      permissions: [],
    });
    expect(me.body.keyLabels).toEqual([{ keyId: me.body.keyId, label: 'No permission' }]);
    expectResponse(appMe, 200);
    expect(appMe.body).toMatchObject({ kind: 'app', id: appId, label: null, keyLabels: [] });
    expect(
      (await client.call('getLedgerTile', { apiKey: companyKey, path: { tilePath: '9/999' } })).status,
    ).toBe(404);
    const consistency = await client.call('getLedgerConsistency', {
      apiKey: companyKey,
      query: { from: treeSize, to: treeSize },
    });
    expect(consistency.status).toBe(200);
  });

  it("the company's access, as an admin person: keys and identity providers; refused to a key", async () => {
    // Prepare: a provider of the test's own, registered for the company, and an admin's token.
    const provider = await startTestIdentityProvider();
    const audience = TEST_PROVIDER_AUDIENCE;
    try {
      await admin(addIdentityProviderArguments(companyId, provider.issuer));
      const bearer = await provider.mintTestToken({
        claims: { aud: audience, sub: 'openapi-admin', name: 'Ada Admin', roles: ['admin'] },
      });
      const otherIssuer = `https://idp-${Date.now()}.example`;
      // Act
      const created = await client.call('createApiKey', {
        bearer,
        json: { permissions: ['objects:read'], label: 'Made by Ada' },
      });
      const byKey = await client.call('createApiKey', { apiKey: companyKey, json: { permissions: [] } });
      const badPermission = await client.call('createApiKey', {
        bearer,
        json: { permissions: ['wallets:read'] },
      });
      const revoked = await client.call('revokeApiKey', { bearer, path: { keyId: created.body?.keyId } });
      const unknownKey = await client.call('revokeApiKey', {
        bearer,
        path: { keyId: '0123456789abcdef01234567' },
      });
      const added = await client.call('addIdentityProvider', {
        bearer,
        json: { issuer: otherIssuer, audience },
      });
      const conflict = await client.call('addIdentityProvider', {
        bearer,
        json: { issuer: provider.issuer, audience },
      });
      const untrusted = await client.call('addIdentityProvider', {
        bearer,
        json: { issuer: 'http://idp.example.com', audience },
      });
      const listed = await client.call('listIdentityProviders', { bearer });
      const removed = await client.call('removeIdentityProvider', { bearer, query: { issuer: otherIssuer } });
      const unknownProvider = await client.call('removeIdentityProvider', {
        bearer,
        query: { issuer: otherIssuer },
      });
      // Assess
      expectResponse(created, 201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      expectResponse(byKey, 403);
      expect(byKey.body.code).toBe('COMPANY_ACCESS_DENIED');
      expectResponse(badPermission, 400);
      expectResponse(revoked, 204);
      expectResponse(unknownKey, 404);
      expect(unknownKey.body.code).toBe('API_KEY_NOT_FOUND');
      expectResponse(added, 201);
      expectResponse(conflict, 409);
      expect(conflict.body.code).toBe('ISSUER_ALREADY_REGISTERED');
      expectResponse(untrusted, 400);
      expectResponse(listed, 200);
      expect(listed.body.data.map((each: { issuer: string }) => each.issuer).sort()).toEqual(
        [provider.issuer, otherIssuer].sort(),
      );
      expectResponse(removed, 204);
      expectResponse(unknownProvider, 404);
      expect(unknownProvider.body.code).toBe('IDENTITY_PROVIDER_NOT_FOUND');
    } finally {
      await provider.close();
    }
  });

  it('called every operation of the document, and every response was as documented', () => {
    // Prepare
    const documented = Object.values(client.document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    // Act
    const called = new Set(client.calls.map((call) => call.operationId));
    // Assess
    expect(documented.filter((operationId) => !called.has(operationId))).toEqual([]);
    expect(client.problems).toEqual([]);
    expect(client.calls.length).toBeGreaterThan(80);
  });
});
