/**
 * Download a file (spec 4.17): the bytes with their headers, 304 for the current ETag, a
 * redirect to a presigned S3 GET above 4 MB, and the access rules.
 */
import { randomUUID } from 'node:crypto';
import { functionsS3Endpoint } from '../support/bundled-function';
import {
  download,
  errorBody,
  type FileRecordBody,
  sha256Hex,
  uploadParts,
  uploadSampleOk,
} from '../support/file-requests';
import { buildPdf, largePdf, sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { companyPrincipal } from '../support/principals';

jest.setTimeout(60_000);

const FOUR_MIB = 4 * 1024 * 1024;

describe('download (spec 4.17)', () => {
  const principal = companyPrincipal();
  const png = sample('photo.png');
  let objectId = '';
  let file: FileRecordBody;

  beforeAll(async () => {
    objectId = (await givenObject(principal, await givenSubcategoryPath(principal))).id;
    file = await uploadSampleOk(principal, objectId, png);
  });

  it('returns the exact bytes, base64-encoded, with Content-Type, Content-Length, Content-Disposition, Cache-Control and ETag', async () => {
    // Act
    const response = await download(principal, file.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.isBase64Encoded).toBe(true);
    expect(response.content.equals(png.content)).toBe(true);
    expect(response.headers).toEqual({
      'Content-Type': 'image/png',
      'Content-Length': String(png.content.length),
      'Content-Disposition': `inline; filename="photo.png"; filename*=UTF-8''photo.png`,
      'Cache-Control': 'private, max-age=300',
      ETag: `"${sha256Hex(png.content)}"`,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('download=true returns Content-Disposition attachment; download=false inline', async () => {
    // Act
    const attachment = await download(principal, file.id, { query: { download: 'true' } });
    const inline = await download(principal, file.id, { query: { download: 'false' } });
    // Assess
    expect(attachment.statusCode).toBe(200);
    expect(attachment.headers['Content-Disposition']).toBe(
      `attachment; filename="photo.png"; filename*=UTF-8''photo.png`,
    );
    expect(attachment.content.equals(png.content)).toBe(true);
    expect(inline.headers['Content-Disposition']).toBe(
      `inline; filename="photo.png"; filename*=UTF-8''photo.png`,
    );
  });

  it('encodes a non-ASCII original name: an ASCII fallback and the RFC 5987 UTF-8 form', async () => {
    // Prepare
    const uploaded = await uploadParts(principal, objectId, [
      { name: 'file', fileName: 'résumé €.pdf', contentType: 'application/pdf', content: buildPdf() },
    ]);
    // Act
    const inline = await download(principal, uploaded.body.id);
    const attachment = await download(principal, uploaded.body.id, { query: { download: 'true' } });
    // Assess
    expect(uploaded.statusCode).toBe(201);
    expect(uploaded.body.originalFileName).toBe('résumé €.pdf');
    expect(inline.headers['Content-Disposition']).toBe(
      `inline; filename="r_sum_ _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.pdf`,
    );
    expect(attachment.headers['Content-Disposition']).toBe(
      `attachment; filename="r_sum_ _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.pdf`,
    );
    // Every header value is ASCII, as HTTP requires.
    expect(/^[\x20-\x7e]*$/.test(String(inline.headers['Content-Disposition']))).toBe(true);
  });

  it('If-None-Match with the current ETag: 304 with no body; weak and listed forms match too', async () => {
    // Prepare
    const etag = `"${sha256Hex(png.content)}"`;
    // Act
    const exact = await download(principal, file.id, { headers: { 'If-None-Match': etag } });
    const weak = await download(principal, file.id, { headers: { 'if-none-match': `W/${etag}` } });
    const listed = await download(principal, file.id, { headers: { 'If-None-Match': `"stale", ${etag}` } });
    // Assess
    for (const response of [exact, weak, listed]) {
      expect(response.statusCode).toBe(304);
      expect(response.rawBody).toBe('');
      expect(response.headers.ETag).toBe(etag);
    }
    expect(exact.headers['Cache-Control']).toBe('private, max-age=300');
    expect(exact.headers['X-Content-Type-Options']).toBe('nosniff');
  });

  it('a stale ETag: 200 with the bytes', async () => {
    // Act
    const response = await download(principal, file.id, {
      headers: { 'If-None-Match': `"${'0'.repeat(64)}"` },
    });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.content.equals(png.content)).toBe(true);
  });

  it('returns exactly 4 MiB inline', async () => {
    // Prepare
    const content = largePdf(FOUR_MIB);
    const uploaded = await uploadParts(principal, objectId, [
      { name: 'file', fileName: 'four.pdf', contentType: 'application/pdf', content },
    ]);
    // Act
    const response = await download(principal, uploaded.body.id);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Length']).toBe(String(FOUR_MIB));
    expect(sha256Hex(response.content)).toBe(sha256Hex(content));
  });

  it('above 4 MiB: 302 to a presigned S3 GET that returns the same bytes and headers', async () => {
    // Prepare
    const content = largePdf(FOUR_MIB + 1);
    const uploaded = await uploadParts(principal, objectId, [
      { name: 'file', fileName: 'résumé big.pdf', contentType: 'application/pdf', content },
    ]);
    // Act
    const redirect = await download(principal, uploaded.body.id);
    const location = String(redirect.headers.Location);
    const fetched = await fetch(location);
    const bytes = Buffer.from(await fetched.arrayBuffer());
    const attachmentRedirect = await download(principal, uploaded.body.id, { query: { download: 'true' } });
    const attachment = await fetch(String(attachmentRedirect.headers.Location));
    await attachment.arrayBuffer();
    // Assess
    expect(uploaded.statusCode).toBe(201);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.rawBody).toBe('');
    expect(location.startsWith(`${functionsS3Endpoint()}/`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(redirect.headers.ETag).toBe(`"${sha256Hex(content)}"`);
    expect(redirect.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(fetched.status).toBe(200);
    expect(bytes.length).toBe(FOUR_MIB + 1);
    expect(sha256Hex(bytes)).toBe(sha256Hex(content));
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.headers.get('content-disposition')).toBe(
      `inline; filename="r_sum_ big.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20big.pdf`,
    );
    expect(fetched.headers.get('cache-control')).toBe('private, max-age=300');
    expect(attachment.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ big.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20big.pdf`,
    );
  });

  it('If-None-Match with the ETag of a large file: 304, no redirect', async () => {
    // Prepare
    const content = largePdf(FOUR_MIB + 10);
    const uploaded = await uploadParts(principal, objectId, [
      { name: 'file', fileName: 'big.pdf', contentType: 'application/pdf', content },
    ]);
    // Act
    const response = await download(principal, uploaded.body.id, {
      headers: { 'If-None-Match': `"${sha256Hex(content)}"` },
    });
    // Assess
    expect(response.statusCode).toBe(304);
    expect(response.headers.Location).toBeUndefined();
  });

  it('403 FILE_ACCESS_DENIED for another company’s companyId in the path', async () => {
    // Prepare
    const other = companyPrincipal();
    // Act
    const response = await download(other, file.id, { companyId: principal.tenantId });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual(errorBody('FILE_ACCESS_DENIED'));
  });

  it('404 FILE_NOT_FOUND for another company’s file id under one’s own companyId', async () => {
    // Prepare
    const other = companyPrincipal();
    // Act
    const response = await download(other, file.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.json).toEqual(errorBody('FILE_NOT_FOUND'));
  });

  it('404 FILE_NOT_FOUND for an unknown file id', async () => {
    // Act
    const response = await download(principal, randomUUID());
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.json).toEqual(errorBody('FILE_NOT_FOUND'));
  });

  it('403 FILE_ACCESS_DENIED for a key without files:read', async () => {
    // Prepare
    const limited = companyPrincipal(['objects:read', 'files:write'], principal.tenantId);
    // Act
    const response = await download(limited, file.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.json).toEqual(errorBody('FILE_ACCESS_DENIED'));
  });

  it('a key with only files:read may download', async () => {
    // Prepare
    const readOnly = companyPrincipal(['files:read'], principal.tenantId);
    // Act
    const response = await download(readOnly, file.id);
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('400 VALIDATION_ERROR for download=maybe and for a file id that is not a UUID', async () => {
    // Act
    const maybe = await download(principal, file.id, { query: { download: 'maybe' } });
    const notUuid = await download(principal, 'not-a-uuid');
    // Assess
    expect(maybe.statusCode).toBe(400);
    expect(maybe.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      validationErrors: [expect.objectContaining({ field: 'download' })],
    });
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json.code).toBe('VALIDATION_ERROR');
  });

  it('401 UNAUTHORIZED without a principal', async () => {
    // Act
    const response = await download(undefined, file.id, { companyId: principal.tenantId });
    // Assess
    expect(response.statusCode).toBe(401);
  });
});
