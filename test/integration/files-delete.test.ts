/**
 * Delete a file (spec 4.18): 204, the record and the bytes gone for good, a `file_delete` event
 * in the object's ledger chain, and the access rules.
 */
import { randomUUID } from 'node:crypto';
import {
  deleteFile,
  download,
  errorBody,
  fileKeyOf,
  listFiles,
  readStoredObject,
  storedFileKeys,
  uploadSampleOk,
  verifyObject,
} from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { getObject, listObjectEvents } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';

async function givenUploadedFile() {
  const principal = companyPrincipal();
  const object = await givenObject(principal, await givenSubcategoryPath(principal));
  const file = await uploadSampleOk(principal, object.id, sample('manual.pdf'));
  return { principal, objectId: object.id as string, file };
}

describe('delete (spec 4.18)', () => {
  it('204 with an empty body; the record and the bytes are gone; a second delete is 404 FILE_NOT_FOUND', async () => {
    // Prepare
    const { principal, objectId, file } = await givenUploadedFile();
    const kept = await uploadSampleOk(principal, objectId, sample('photo.png'));
    const storedBefore = await readStoredObject(fileKeyOf(principal.tenantId, file.id));
    // Act
    const deleted = await deleteFile(principal, file.id);
    const downloaded = await download(principal, file.id);
    const listed = await listFiles(principal, objectId);
    const again = await deleteFile(principal, file.id);
    // Assess
    expect(storedBefore?.content.equals(sample('manual.pdf').content)).toBe(true);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.rawBody).toBe('');
    expect(downloaded.statusCode).toBe(404);
    expect(downloaded.json).toEqual(errorBody('FILE_NOT_FOUND'));
    expect(await readStoredObject(fileKeyOf(principal.tenantId, file.id))).toBeUndefined();
    expect(await storedFileKeys(principal.tenantId)).toEqual([fileKeyOf(principal.tenantId, kept.id)]);
    expect(listed.body.data.map((each: { id: string }) => each.id)).toEqual([kept.id]);
    expect(listed.body.pagination.total).toBe(1);
    expect(again.statusCode).toBe(404);
    expect(again.body).toEqual(errorBody('FILE_NOT_FOUND'));
  });

  it('appends a file_delete event naming the file; the chain still verifies', async () => {
    // Prepare
    const { principal, objectId, file } = await givenUploadedFile();
    // Act
    await deleteFile(principal, file.id);
    const events = await listObjectEvents(principal, objectId);
    const objectAfter = await getObject(principal, objectId);
    const verification = await verifyObject(principal, objectId);
    // Assess
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual([
      'create',
      'file_upload',
      'file_delete',
    ]);
    expect(events.body.data[2]).toMatchObject({
      sequence: 3,
      principal: `apiKey:${principal.keyId}`,
      prevHash: events.body.data[1].hash,
      changes: {
        file: {
          from: {
            id: file.id,
            fileName: file.fileName,
            originalFileName: 'manual.pdf',
            checksum: file.checksum,
            size: file.size,
          },
          to: null,
        },
      },
    });
    expect(objectAfter.body.blockchain.eventCount).toBe(3);
    expect(objectAfter.body.blockchain.lastTxId).toBe(events.body.data[2].hash);
    expect(verification.body).toMatchObject({ valid: true, eventCount: 3, problems: [] });
  });

  it('403 FILE_DELETE_DENIED for a key without files:write; the file stays', async () => {
    // Prepare
    const { principal, file } = await givenUploadedFile();
    const readOnly = companyPrincipal(['files:read', 'objects:read', 'objects:write'], principal.tenantId);
    // Act
    const response = await deleteFile(readOnly, file.id);
    const downloaded = await download(principal, file.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual(errorBody('FILE_DELETE_DENIED'));
    expect(downloaded.statusCode).toBe(200);
  });

  it('403 FILE_DELETE_DENIED for another company’s companyId in the path; the file stays', async () => {
    // Prepare
    const { principal, file } = await givenUploadedFile();
    const other = companyPrincipal();
    // Act
    const response = await deleteFile(other, file.id, { companyId: principal.tenantId });
    const downloaded = await download(principal, file.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual(errorBody('FILE_DELETE_DENIED'));
    expect(downloaded.statusCode).toBe(200);
  });

  it('404 FILE_NOT_FOUND for another company’s file under one’s own companyId, and for an unknown id', async () => {
    // Prepare
    const { principal, file } = await givenUploadedFile();
    const other = companyPrincipal();
    // Act
    const foreign = await deleteFile(other, file.id);
    const unknown = await deleteFile(principal, randomUUID());
    const downloaded = await download(principal, file.id);
    // Assess
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toEqual(errorBody('FILE_NOT_FOUND'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toEqual(errorBody('FILE_NOT_FOUND'));
    expect(downloaded.statusCode).toBe(200);
  });

  it('two deletes at once: one 204, one 404, one file_delete event', async () => {
    // Prepare
    const { principal, objectId, file } = await givenUploadedFile();
    // Act
    const responses = await Promise.all([deleteFile(principal, file.id), deleteFile(principal, file.id)]);
    const events = await listObjectEvents(principal, objectId);
    const listed = await listFiles(principal, objectId);
    // Assess
    expect(responses.map((response) => response.statusCode).sort()).toEqual([204, 404]);
    expect(
      events.body.data.filter((event: { action: string }) => event.action === 'file_delete'),
    ).toHaveLength(1);
    expect(listed.body.pagination.total).toBe(0);
  });
});
