/**
 * Upload sessions (extension for files above API Gateway's request cap): a presigned POST
 * straight to S3 (s3rver here, on loopback), then a completion in which the server itself checks
 * size, type and checksum of the stored bytes and deletes what it refuses.
 */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tenantPartition } from '../../lambdas/repositories/tenant-keys';
import { dynamoDb, filesBucketName, tableName } from '../../lambdas/shared/clients';
import { functionsS3Endpoint } from '../support/bundled-function';
import {
  completeUploadSession,
  createUploadSession,
  download,
  errorBody,
  fileKeyOf,
  listFiles,
  readStoredObject,
  sha256Hex,
  stagingKeyOf,
  storedCompanyKeys,
  verifyObject,
} from '../support/file-requests';
import { buildCompoundFile, buildJpeg, buildPng, largePdf, sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { ISO_UTC, listObjectEvents, UUID_V4 } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { localS3 } from '../support/s3-client';

jest.setTimeout(60_000);

const FIFTY_MIB = 52_428_800;

interface UploadSessionBody {
  uploadId: string;
  method: 'POST';
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
  maxBytes: number;
  completePath: string;
}

/** POSTs the bytes to the presigned address as a browser form would: the fields, then `file`. */
async function postToPresignedAddress(session: UploadSessionBody, content: Buffer, fileName = 'upload.bin') {
  const form = new FormData();
  for (const [name, value] of Object.entries(session.fields)) form.append(name, value);
  form.append('file', new Blob([content], { type: session.fields['Content-Type'] }), fileName);
  const response = await fetch(session.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  return response.status;
}

/** Moves a session's expiry into the past, as if its 15 minutes had run out. */
async function expireSession(companyId: string, uploadId: string): Promise<void> {
  await dynamoDb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `${tenantPartition(companyId)}#UPLOAD#${uploadId}`, sk: 'UPLOAD' },
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 60_000).toISOString() },
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

async function givenCompanyObject() {
  const principal = companyPrincipal();
  const object = (await givenObject(principal, await givenSubcategoryPath(principal))) as {
    id: string;
    externalId: string;
  };
  return { principal, object };
}

async function createSessionOk(
  principal: ReturnType<typeof companyPrincipal>,
  objectRef: string,
  body: Record<string, unknown>,
): Promise<UploadSessionBody> {
  const response = await createUploadSession(principal, objectRef, body);
  if (response.statusCode !== 201)
    throw new Error(`session: ${response.statusCode} ${JSON.stringify(response.body)}`);
  return response.body as UploadSessionBody;
}

describe('upload sessions: create', () => {
  it('201 with uploadId, method POST, url, fields, expiresAt, maxBytes and completePath', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const before = Date.now();
    // Act
    const response = await createUploadSession(principal, object.externalId, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: 1234,
      description: 'Front',
      tags: 'a, b',
    });
    // Assess
    expect(response.statusCode).toBe(201);
    const session = response.body as UploadSessionBody;
    expect(session).toEqual({
      uploadId: expect.stringMatching(UUID_V4),
      method: 'POST',
      url: `${functionsS3Endpoint()}/${process.env.FILES_BUCKET_NAME}`,
      fields: expect.objectContaining({
        key: stagingKeyOf(principal.tenantId, session.uploadId),
        'Content-Type': 'image/png',
        Policy: expect.any(String),
        'X-Amz-Signature': expect.any(String),
      }),
      expiresAt: expect.stringMatching(ISO_UTC),
      maxBytes: FIFTY_MIB,
      completePath: `/test/v2/companies/${principal.tenantId}/objects/${object.id}/files/uploads/${session.uploadId}/complete`,
    });
    const expiresIn = Date.parse(session.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(899_000);
    expect(expiresIn).toBeLessThan(905_000);
    const policy = JSON.parse(Buffer.from(session.fields.Policy ?? '', 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1234, 1234],
        ['eq', '$Content-Type', 'image/png'],
      ]),
    );
  });

  it.each([
    ['an unsupported extension', { fileName: 'setup.exe', mimeType: 'application/octet-stream' }],
    ['an .svg', { fileName: 'logo.svg', mimeType: 'image/svg+xml' }],
    ['a type contradicting the extension', { fileName: 'photo.png', mimeType: 'image/jpeg' }],
    ['no extension and a generic type', { fileName: 'photo', mimeType: 'application/octet-stream' }],
  ])('415 UNSUPPORTED_FILE_TYPE for %s', async (_case, body) => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await createUploadSession(principal, object.id, { ...body, size: 10 });
    // Assess
    expect(response.statusCode).toBe(415);
    expect(response.body).toEqual(errorBody('UNSUPPORTED_FILE_TYPE'));
  });

  it.each([
    ['0', 0],
    ['52428801', FIFTY_MIB + 1],
    ['-1', -1],
    ['1.5', 1.5],
  ])('400 VALIDATION_ERROR for size %s', async (_case, size) => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await createUploadSession(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size,
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      validationErrors: [expect.objectContaining({ field: 'size' })],
    });
  });

  it('accepts exactly 52428800 announced bytes', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await createUploadSession(principal, object.id, {
      fileName: 'big.pdf',
      mimeType: 'application/pdf',
      size: FIFTY_MIB,
    });
    // Assess
    expect(response.statusCode).toBe(201);
  });

  it('400 VALIDATION_ERROR without fileName, mimeType and size; 400 for a description of 501 characters', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const empty = await createUploadSession(principal, object.id, {});
    const longDescription = await createUploadSession(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: 10,
      description: 'd'.repeat(501),
    });
    // Assess
    expect(empty.statusCode).toBe(400);
    expect(empty.body.validationErrors.map((issue: { field: string }) => issue.field).sort()).toEqual([
      'fileName',
      'mimeType',
      'size',
    ]);
    expect(longDescription.statusCode).toBe(400);
    expect(longDescription.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'description', code: 'LENGTH_INVALID' }),
    ]);
  });

  it('404 OBJECT_NOT_FOUND, 403 COMPANY_ACCESS_DENIED for another company’s path and without files:write', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const other = companyPrincipal();
    const readOnly = companyPrincipal(['files:read', 'objects:read'], principal.tenantId);
    const body = { fileName: 'photo.png', mimeType: 'image/png', size: 10 };
    // Act
    const unknown = await createUploadSession(principal, randomUUID(), body);
    const foreignPath = await createUploadSession(other, object.id, body, { companyId: principal.tenantId });
    const denied = await createUploadSession(readOnly, object.id, body);
    // Assess
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toEqual(errorBody('OBJECT_NOT_FOUND'));
    expect(foreignPath.statusCode).toBe(403);
    expect(foreignPath.body).toEqual(errorBody('COMPANY_ACCESS_DENIED'));
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toEqual(errorBody('COMPANY_ACCESS_DENIED'));
  });
});

describe('upload sessions: upload and complete', () => {
  it('POST to the presigned address, then complete: 201 with the file record; its bytes download', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const png = buildPng([0, 128, 255, 255]);
    const session = await createSessionOk(principal, object.externalId, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
      description: 'Uploaded straight to S3',
      tags: 'big, s3, big',
    });
    // Act
    const posted = await postToPresignedAddress(session, png);
    const completed = await completeUploadSession(principal, object.externalId, session.uploadId);
    const downloaded = await download(principal, session.uploadId);
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(posted).toBe(204);
    expect(completed.statusCode).toBe(201);
    expect(completed.body).toEqual({
      id: session.uploadId,
      fileName: `${session.uploadId}.png`,
      originalFileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
      description: 'Uploaded straight to S3',
      tags: ['big', 's3'],
      uploadedAt: expect.stringMatching(ISO_UTC),
      uploadedBy: `apiKey:${principal.keyId}`,
      url: `/test/v2/companies/${principal.tenantId}/files/${session.uploadId}`,
      checksum: `sha256:${sha256Hex(png)}`,
    });
    expect(completed.headers.Location).toBe(completed.body.url);
    expect(downloaded.statusCode).toBe(200);
    expect(downloaded.content.equals(png)).toBe(true);
    expect(listed.body.data).toEqual([completed.body]);
  });

  it.each([
    ['an .xls workbook', buildCompoundFile(), 'application/vnd.ms-excel'],
    ['a CSV table', Buffer.from('a,b\n1,2\n'), 'text/csv'],
  ])(
    'a name without an extension, declared application/vnd.ms-excel (.xls or .csv): %s is told by its bytes',
    async (_case, content, mimeType) => {
      // Prepare
      const { principal, object } = await givenCompanyObject();
      const session = await createSessionOk(principal, object.id, {
        fileName: 'export',
        mimeType: 'application/vnd.ms-excel',
        size: content.length,
      });
      // Act
      const posted = await postToPresignedAddress(session, content);
      const completed = await completeUploadSession(principal, object.id, session.uploadId);
      // Assess
      expect(posted).toBe(204);
      expect(completed.statusCode).toBe(201);
      expect(completed.body).toMatchObject({ originalFileName: 'export', mimeType, size: content.length });
    },
  );

  it('records a file_upload event on completion; the chain verifies', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const pdf = sample('manual.pdf').content;
    const session = await createSessionOk(principal, object.id, {
      fileName: 'manual.pdf',
      mimeType: 'application/pdf',
      size: pdf.length,
    });
    await postToPresignedAddress(session, pdf);
    // Act
    const completed = await completeUploadSession(principal, object.id, session.uploadId);
    const events = await listObjectEvents(principal, object.id);
    const verification = await verifyObject(principal, object.id);
    // Assess
    expect(completed.statusCode).toBe(201);
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual([
      'create',
      'file_upload',
    ]);
    expect(events.body.data[1].changes.file.to).toEqual({
      id: session.uploadId,
      fileName: `${session.uploadId}.pdf`,
      originalFileName: 'manual.pdf',
      checksum: `sha256:${sha256Hex(pdf)}`,
      size: pdf.length,
    });
    expect(verification.body).toMatchObject({ valid: true, eventCount: 2 });
  });

  it('a 6 MB file through the session: recorded with its checksum, downloaded through the redirect', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const pdf = largePdf(6 * 1024 * 1024);
    const session = await createSessionOk(principal, object.id, {
      fileName: 'scan.pdf',
      mimeType: 'application/pdf',
      size: pdf.length,
    });
    await postToPresignedAddress(session, pdf);
    // Act
    const completed = await completeUploadSession(principal, object.id, session.uploadId);
    const redirect = await download(principal, session.uploadId);
    const fetched = Buffer.from(await (await fetch(String(redirect.headers.Location))).arrayBuffer());
    // Assess
    expect(completed.statusCode).toBe(201);
    expect(completed.body.checksum).toBe(`sha256:${sha256Hex(pdf)}`);
    expect(redirect.statusCode).toBe(302);
    expect(sha256Hex(fetched)).toBe(sha256Hex(pdf));
  });

  it('completing again: 404 UPLOAD_NOT_FOUND, and no second record or event', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    await postToPresignedAddress(session, png);
    await completeUploadSession(principal, object.id, session.uploadId);
    // Act
    const again = await completeUploadSession(principal, object.id, session.uploadId);
    const listed = await listFiles(principal, object.id);
    const events = await listObjectEvents(principal, object.id);
    // Assess
    expect(again.statusCode).toBe(404);
    expect(again.body).toEqual(errorBody('UPLOAD_NOT_FOUND'));
    expect(listed.body.pagination.total).toBe(1);
    expect(events.body.pagination.total).toBe(2);
  });

  it('completing before the bytes were sent: 409 UPLOAD_NOT_RECEIVED', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: 100,
    });
    // Act
    const response = await completeUploadSession(principal, object.id, session.uploadId);
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual(errorBody('UPLOAD_NOT_RECEIVED'));
  });

  it('bytes of another size than announced: 400 VALIDATION_ERROR, and the stored object is deleted', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length + 1,
    });
    // The local S3 refuses it as S3 does (content-length-range); a store that did not would keep
    // it, and the completion's own size check is what is tested here.
    const posted = await postToPresignedAddress(session, png);
    await localS3().send(
      new PutObjectCommand({
        Bucket: filesBucketName(),
        Key: stagingKeyOf(principal.tenantId, session.uploadId),
        Body: png,
        ContentType: 'image/png',
      }),
    );
    const storedBefore = await readStoredObject(stagingKeyOf(principal.tenantId, session.uploadId));
    // Act
    const response = await completeUploadSession(principal, object.id, session.uploadId);
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(posted).toBe(400);
    expect(storedBefore?.content.equals(png)).toBe(true);
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      ...errorBody('VALIDATION_ERROR'),
      validationErrors: [{ field: 'size', code: 'SIZE_INVALID', message: expect.any(String) }],
    });
    expect(await readStoredObject(stagingKeyOf(principal.tenantId, session.uploadId))).toBeUndefined();
    expect(await readStoredObject(fileKeyOf(principal.tenantId, session.uploadId))).toBeUndefined();
    expect(listed.body.pagination.total).toBe(0);
  });

  it('a renamed file (JPEG bytes announced as photo.png, image/png): 415, and the stored object is deleted', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const jpeg = buildJpeg();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: jpeg.length,
    });
    await postToPresignedAddress(session, jpeg, 'photo.png');
    // Act
    const response = await completeUploadSession(principal, object.id, session.uploadId);
    const listed = await listFiles(principal, object.id);
    const events = await listObjectEvents(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(415);
    expect(response.body).toEqual(errorBody('UNSUPPORTED_FILE_TYPE'));
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([]);
    expect(listed.body.pagination.total).toBe(0);
    expect(events.body.pagination.total).toBe(1);
  });

  it('bytes posted again to the presigned address after completion do not change the recorded file', async () => {
    // Prepare: a verified PNG, then other bytes of the same size sent with the same (still valid) form.
    const { principal, object } = await givenCompanyObject();
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    await postToPresignedAddress(session, png);
    const completed = await completeUploadSession(principal, object.id, session.uploadId);
    const replacement = Buffer.alloc(png.length, 0x4d); // 'MMMM...': not a PNG at all
    // Act
    await postToPresignedAddress(session, replacement);
    const downloaded = await download(principal, session.uploadId);
    // Assess
    expect(completed.statusCode).toBe(201);
    expect(downloaded.statusCode).toBe(200);
    expect(sha256Hex(downloaded.content)).toBe(completed.body.checksum.replace('sha256:', ''));
    expect(downloaded.content.equals(png)).toBe(true);
  });

  it('an expired session without bytes: 404 UPLOAD_NOT_FOUND', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: 100,
    });
    await expireSession(principal.tenantId, session.uploadId);
    // Act
    const response = await completeUploadSession(principal, object.id, session.uploadId);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual(errorBody('UPLOAD_NOT_FOUND'));
  });

  it('an expired session is 404 UPLOAD_NOT_FOUND even when bytes arrived (docs: "unknown, expired or completed")', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    await postToPresignedAddress(session, png);
    await expireSession(principal.tenantId, session.uploadId);
    // Act
    const response = await completeUploadSession(principal, object.id, session.uploadId);
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual(errorBody('UPLOAD_NOT_FOUND'));
    expect(listed.body.pagination.total).toBe(0);
  });

  it('404 UPLOAD_NOT_FOUND for an unknown upload id and for a session of another object', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const otherObject = await givenObject(principal, await givenSubcategoryPath(principal));
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    await postToPresignedAddress(session, png);
    // Act
    const unknown = await completeUploadSession(principal, object.id, randomUUID());
    const wrongObject = await completeUploadSession(principal, otherObject.id, session.uploadId);
    const stillOpen = await completeUploadSession(principal, object.id, session.uploadId);
    // Assess
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toEqual(errorBody('UPLOAD_NOT_FOUND'));
    expect(wrongObject.statusCode).toBe(404);
    expect(wrongObject.body).toEqual(errorBody('UPLOAD_NOT_FOUND'));
    expect(stillOpen.statusCode).toBe(201);
  });

  it('another company cannot complete the session: 403 on the path, 404 under its own company', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const other = companyPrincipal();
    const png = buildPng();
    const session = await createSessionOk(principal, object.id, {
      fileName: 'photo.png',
      mimeType: 'image/png',
      size: png.length,
    });
    await postToPresignedAddress(session, png);
    // Act
    const foreignPath = await completeUploadSession(other, object.id, session.uploadId, {
      companyId: principal.tenantId,
    });
    const ownPath = await completeUploadSession(other, object.id, session.uploadId);
    const readOnly = await completeUploadSession(
      companyPrincipal(['files:read'], principal.tenantId),
      object.id,
      session.uploadId,
    );
    // Assess
    expect(foreignPath.statusCode).toBe(403);
    expect(foreignPath.body).toEqual(errorBody('COMPANY_ACCESS_DENIED'));
    expect(ownPath.statusCode).toBe(404);
    expect(readOnly.statusCode).toBe(403);
  });
});
