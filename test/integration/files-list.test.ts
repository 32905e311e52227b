/** An object's files (extension GET /v2/companies/{companyId}/objects/{objectId}/files): newest first, paginated. */
import { randomUUID } from 'node:crypto';
import {
  deleteFile,
  errorBody,
  type FileRecordBody,
  listFiles,
  uploadSampleOk,
} from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';

describe('list an object’s files', () => {
  const principal = companyPrincipal();
  let object: { id: string; externalId: string };
  let otherObjectId = '';
  const uploaded: FileRecordBody[] = [];

  beforeAll(async () => {
    const place = await givenSubcategoryPath(principal);
    object = await givenObject(principal, place);
    otherObjectId = (await givenObject(principal, place)).id;
    for (const name of ['photo.png', 'manual.pdf', 'notes.txt']) {
      uploaded.push(await uploadSampleOk(principal, object.id, sample(name)));
    }
    await uploadSampleOk(principal, otherObjectId, sample('anim.gif'));
  });

  it('lists newest first with the full records and the pagination wrapper', async () => {
    // Act
    const response = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.data).toEqual([...uploaded].reverse());
    expect(response.body.pagination).toEqual({
      limit: 20,
      offset: 0,
      total: 3,
      hasNext: false,
      hasPrevious: false,
      nextCursor: null,
    });
  });

  it('pages with limit and offset, with the exact total', async () => {
    // Act
    const first = await listFiles(principal, object.id, { query: { limit: '2' } });
    const second = await listFiles(principal, object.id, { query: { limit: '2', offset: '2' } });
    const past = await listFiles(principal, object.id, { query: { offset: '10' } });
    // Assess
    expect(first.body.data.map((file: FileRecordBody) => file.id)).toEqual([
      uploaded[2]?.id,
      uploaded[1]?.id,
    ]);
    expect(first.body.pagination).toEqual({
      limit: 2,
      offset: 0,
      total: 3,
      hasNext: true,
      hasPrevious: false,
      nextCursor: expect.any(String),
    });
    expect(second.body.data.map((file: FileRecordBody) => file.id)).toEqual([uploaded[0]?.id]);
    expect(second.body.pagination).toEqual({
      limit: 2,
      offset: 2,
      total: 3,
      hasNext: false,
      hasPrevious: true,
      nextCursor: null,
    });
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(3);
  });

  it('takes the externalId as objectId', async () => {
    // Act
    const response = await listFiles(principal, object.externalId);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.data.map((file: FileRecordBody) => file.id)).toEqual(
      [...uploaded].reverse().map((file) => file.id),
    );
  });

  it('counts down after a delete', async () => {
    // Prepare
    const place = await givenSubcategoryPath(principal);
    const own = await givenObject(principal, place);
    const first = await uploadSampleOk(principal, own.id, sample('photo.png'));
    const second = await uploadSampleOk(principal, own.id, sample('photo.jpg'));
    // Act
    await deleteFile(principal, first.id);
    const response = await listFiles(principal, own.id);
    // Assess
    expect(response.body.data.map((file: FileRecordBody) => file.id)).toEqual([second.id]);
    expect(response.body.pagination.total).toBe(1);
  });

  it('an object without files: an empty page', async () => {
    // Prepare
    const empty = await givenObject(principal, await givenSubcategoryPath(principal));
    // Act
    const response = await listFiles(principal, empty.id);
    // Assess
    expect(response.body).toEqual({
      data: [],
      pagination: { limit: 20, offset: 0, total: 0, hasNext: false, hasPrevious: false, nextCursor: null },
    });
  });

  it('404 OBJECT_NOT_FOUND for an unknown object or another company’s object', async () => {
    // Prepare
    const other = companyPrincipal();
    // Act
    const unknown = await listFiles(principal, randomUUID());
    const foreign = await listFiles(other, object.id);
    const foreignExternal = await listFiles(other, object.externalId);
    // Assess
    for (const response of [unknown, foreign, foreignExternal]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toEqual(errorBody('OBJECT_NOT_FOUND'));
    }
  });

  it('403 FILE_ACCESS_DENIED for another company’s path and for a key without files:read', async () => {
    // Prepare
    const other = companyPrincipal();
    const withoutRead = companyPrincipal(['objects:read', 'files:write'], principal.tenantId);
    // Act
    const foreignPath = await listFiles(other, object.id, { companyId: principal.tenantId });
    const denied = await listFiles(withoutRead, object.id);
    // Assess
    expect(foreignPath.statusCode).toBe(403);
    expect(foreignPath.body).toEqual(errorBody('FILE_ACCESS_DENIED'));
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toEqual(errorBody('FILE_ACCESS_DENIED'));
  });

  it('400 VALIDATION_ERROR for limit 0, limit 101 and a negative offset', async () => {
    // Act
    const responses = await Promise.all([
      listFiles(principal, object.id, { query: { limit: '0' } }),
      listFiles(principal, object.id, { query: { limit: '101' } }),
      listFiles(principal, object.id, { query: { offset: '-1' } }),
    ]);
    // Assess
    for (const response of responses) {
      expect(response.statusCode).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });
});
