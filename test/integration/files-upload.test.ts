/**
 * Upload a file to an object (spec 4.16, record 2.6): the handler in process against DynamoDB
 * Local and s3rver, with multipart bodies as API Gateway hands them over (base64).
 */
import { randomUUID } from 'node:crypto';
import {
  download,
  errorBody,
  type FileRecordBody,
  filePartOf,
  keysSeenWithin,
  listFiles,
  sha256Hex,
  storedCompanyKeys,
  uploadParts,
  uploadRaw,
  uploadSample,
  uploadSampleOk,
  verifyObject,
} from '../support/file-requests';
import {
  buildDocx,
  buildJpeg,
  buildPng,
  buildXlsx,
  type FileSample,
  SUPPORTED_SAMPLES,
  sample,
} from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { getObject, ISO_UTC, listObjectEvents, UUID_V4 } from '../support/object-requests';
import { appPrincipal, companyPrincipal } from '../support/principals';
import { multipartBody, newBoundary } from '../support/subcategory-multipart';

jest.setTimeout(120_000);

const FIFTY_MIB = 52_428_800;
const png = sample('photo.png');

/** A principal with one object in a fresh subcategory. */
async function givenCompanyObject(permissions?: Parameters<typeof companyPrincipal>[0]) {
  const principal = companyPrincipal();
  const object = await givenObject(principal, await givenSubcategoryPath(principal));
  const limited = permissions ? companyPrincipal(permissions, principal.tenantId) : principal;
  return { principal, limited, object: object as { id: string; externalId: string } };
}

describe('upload: the file record (spec 2.6)', () => {
  it('responds 201 with every field of the record and a Location at its url', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const startedAt = new Date().toISOString();
    // Act
    const response = await uploadSample(principal, object.id, png, {
      description: 'Front view',
      tags: ' red , front,, red ,  ,side ',
    });
    // Assess
    expect(response.statusCode).toBe(201);
    const record = response.body as FileRecordBody;
    expect(record.id).toMatch(UUID_V4);
    expect(record).toEqual({
      id: record.id,
      fileName: `${record.id}.png`,
      originalFileName: 'photo.png',
      mimeType: 'image/png',
      size: png.content.length,
      description: 'Front view',
      tags: ['red', 'front', 'side'],
      uploadedAt: expect.stringMatching(ISO_UTC),
      uploadedBy: `apiKey:${principal.keyId}`,
      url: `/test/v2/companies/${principal.tenantId}/files/${record.id}`,
      checksum: `sha256:${sha256Hex(png.content)}`,
    });
    expect(record.uploadedAt >= startedAt).toBe(true);
    expect(record.uploadedAt <= new Date().toISOString()).toBe(true);
    expect(response.headers.Location).toBe(record.url);
  });

  it('defaults description to "" and tags to [] when the form has only the file', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const record = await uploadSampleOk(principal, object.id, png);
    // Assess
    expect(record.description).toBe('');
    expect(record.tags).toEqual([]);
  });

  it('accepts a description of exactly 500 characters (emoji count as one)', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const description = `${'😀'.repeat(10)}${'d'.repeat(490)}`;
    // Act
    const response = await uploadSample(principal, object.id, png, { description });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.description).toBe(description);
  });

  it('takes the object by its externalId as well as by its UUID', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const byExternalId = await uploadSample(principal, object.externalId, png);
    const byId = await uploadSample(principal, object.id.toUpperCase(), sample('manual.pdf'));
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(byExternalId.statusCode).toBe(201);
    expect(byId.statusCode).toBe(201);
    expect(listed.body.pagination.total).toBe(2);
    expect(listed.body.data.map((file: FileRecordBody) => file.id).sort()).toEqual(
      [byExternalId.body.id, byId.body.id].sort(),
    );
  });

  it('works without a Content-Length header', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadSample(principal, object.id, png, {}, { contentLength: null });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.size).toBe(png.content.length);
  });
});

describe('upload: every supported type (spec 4.16 table) round-trips byte-exact', () => {
  let principal: ReturnType<typeof companyPrincipal>;
  let objectId = '';

  beforeAll(async () => {
    const given = await givenCompanyObject();
    principal = given.principal;
    objectId = given.object.id;
  });

  it.each(SUPPORTED_SAMPLES.map((each) => [each.fileName, each] as const))(
    '%s: recorded with its type, size and checksum, downloaded as the same bytes',
    async (_name, fileSample: FileSample) => {
      // Act
      const uploaded = await uploadSample(principal, objectId, fileSample);
      const downloaded = await download(principal, uploaded.body.id);
      // Assess
      expect(uploaded.statusCode).toBe(201);
      expect(uploaded.body).toMatchObject({
        originalFileName: fileSample.fileName,
        mimeType: fileSample.mimeType,
        size: fileSample.content.length,
        checksum: `sha256:${sha256Hex(fileSample.content)}`,
      });
      expect(downloaded.statusCode).toBe(200);
      expect(downloaded.isBase64Encoded).toBe(true);
      expect(downloaded.headers['Content-Type']).toBe(fileSample.mimeType);
      expect(downloaded.content.equals(fileSample.content)).toBe(true);
    },
  );

  it.each([
    ['photo.png', 'image/png', buildPng()],
    ['PHOTO.PNG', 'image/png', buildPng()],
    ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buildDocx()],
    ['notes.txt', 'text/plain', Buffer.from('plain words\n')],
  ])(
    'declared application/octet-stream, %s is judged by extension and bytes: 201 %s',
    async (fileName, mimeType, content) => {
      // Act
      const response = await uploadParts(principal, objectId, [
        { name: 'file', fileName, contentType: 'application/octet-stream', content },
      ]);
      // Assess
      expect(response.statusCode).toBe(201);
      expect(response.body.mimeType).toBe(mimeType);
      expect(response.body.originalFileName).toBe(fileName);
    },
  );
});

describe('upload: a name without an extension, and declared types clients use', () => {
  let principal: ReturnType<typeof companyPrincipal>;
  let objectId = '';

  beforeAll(async () => {
    const given = await givenCompanyObject();
    principal = given.principal;
    objectId = given.object.id;
  });

  it.each([
    // FormData names a nameless Blob "blob": the declared type and the bytes decide.
    ['blob', 'image/png', buildPng(), 'image/png'],
    ['scan', 'application/pdf', Buffer.from('%PDF-1.7\n'), 'application/pdf'],
    ['photo.jpg', 'image/jpg', buildJpeg(), 'image/jpeg'],
    ['prices.csv', 'text/plain', Buffer.from('a,b\n1,2\n'), 'text/csv'],
  ])('%s declared %s: 201 %s', async (fileName, contentType, content, mimeType) => {
    // Act
    const response = await uploadParts(principal, objectId, [
      { name: 'file', fileName, contentType, content },
    ]);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body).toMatchObject({ mimeType, originalFileName: fileName, size: content.length });
  });
});

describe('upload: the type check on three signals (415 UNSUPPORTED_FILE_TYPE)', () => {
  let principal: ReturnType<typeof companyPrincipal>;
  let objectId = '';

  beforeAll(async () => {
    const given = await givenCompanyObject();
    principal = given.principal;
    objectId = given.object.id;
  });

  it.each([
    ['a .png whose bytes are a JPEG', 'photo.png', 'image/png', buildJpeg()],
    [
      'a .png whose bytes are a JPEG, declared octet-stream',
      'photo.png',
      'application/octet-stream',
      buildJpeg(),
    ],
    ['a .jpg whose bytes are a PNG', 'photo.jpg', 'image/jpeg', buildPng()],
    ['a .pdf of text', 'manual.pdf', 'application/pdf', Buffer.from('not a pdf at all\n')],
    [
      'an .xlsx package named .docx',
      'letter.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buildXlsx(),
    ],
    ['a .txt with a NUL byte', 'notes.txt', 'text/plain', Buffer.from([0x68, 0x00, 0x69])],
    ['a .txt that is not UTF-8', 'notes.txt', 'text/plain', Buffer.from([0x68, 0xff, 0xfe, 0x69])],
    ['an .exe', 'setup.exe', 'application/octet-stream', Buffer.from('MZ\x90\x00\x03', 'latin1')],
    ['an .exe declared as a PNG', 'setup.exe', 'image/png', buildPng()],
    ['a .zip', 'archive.zip', 'application/zip', buildDocx()],
    ['an .svg', 'logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a name without extension, declared octet-stream', 'README', 'application/octet-stream', buildPng()],
    ['a name without extension whose bytes contradict the type', 'blob', 'image/png', buildJpeg()],
    ['a declared type contradicting the extension', 'photo.png', 'image/jpeg', buildPng()],
    ['a .csv declared as a PDF', 'prices.csv', 'application/pdf', Buffer.from('a,b\n1,2\n')],
  ])('refuses %s', async (_case, fileName, contentType, content) => {
    // Act
    const response = await uploadParts(principal, objectId, [
      { name: 'file', fileName, contentType, content },
    ]);
    // Assess
    expect(response.statusCode).toBe(415);
    expect(response.body).toEqual(errorBody('UNSUPPORTED_FILE_TYPE'));
  });

  it('stores nothing and records nothing for refused files', async () => {
    // Prepare
    const { principal: owner, object } = await givenCompanyObject();
    // Act
    const refused = await uploadParts(owner, object.id, [
      { name: 'file', fileName: 'photo.png', contentType: 'image/png', content: buildJpeg() },
    ]);
    const listed = await listFiles(owner, object.id);
    // Assess
    expect(refused.statusCode).toBe(415);
    expect(listed.body.pagination.total).toBe(0);
    expect(await keysSeenWithin(owner.tenantId)).toEqual([]);
  });
});

describe('upload: refusals', () => {
  it('400 FILE_REQUIRED when the form has no file part', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const onlyFields = await uploadParts(principal, object.id, [{ name: 'description', value: 'no file' }]);
    const otherName = await uploadParts(principal, object.id, [{ ...filePartOf(png), name: 'attachment' }]);
    // Assess
    expect(onlyFields.statusCode).toBe(400);
    expect(onlyFields.body).toEqual(errorBody('FILE_REQUIRED'));
    expect(otherName.statusCode).toBe(400);
    expect(otherName.body).toEqual(errorBody('FILE_REQUIRED'));
  });

  it('400 FILE_REQUIRED for a JSON body', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const json = Buffer.from(JSON.stringify({ description: 'no file' }));
    // Act
    const response = await uploadRaw(principal, object.id, json, '', { contentType: 'application/json' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(errorBody('FILE_REQUIRED'));
  });

  it('400 VALIDATION_ERROR for a description of 501 characters, and the stored bytes are removed', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadSample(principal, object.id, png, { description: 'd'.repeat(501) });
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      ...errorBody('VALIDATION_ERROR'),
      validationErrors: [{ field: 'description', code: 'LENGTH_INVALID', message: expect.any(String) }],
    });
    expect(listed.body.pagination.total).toBe(0);
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([]);
  });

  it('404 OBJECT_NOT_FOUND for an unknown object (UUID or externalId) or another company’s object', async () => {
    // Prepare
    const { principal } = await givenCompanyObject();
    const { object: foreignObject } = await givenCompanyObject();
    // Act
    const unknownId = await uploadSample(principal, randomUUID(), png);
    const unknownExternalId = await uploadSample(principal, 'no-such-external-id', png);
    const foreignById = await uploadSample(principal, foreignObject.id, png);
    const foreignByExternalId = await uploadSample(principal, foreignObject.externalId, png);
    // Assess
    for (const response of [unknownId, unknownExternalId, foreignById, foreignByExternalId]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toEqual(errorBody('OBJECT_NOT_FOUND'));
    }
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([]);
  });

  it('403 COMPANY_ACCESS_DENIED when the companyId in the path is not the key’s company', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const other = companyPrincipal();
    // Act
    const response = await uploadSample(other, object.id, png, {}, { companyId: principal.tenantId });
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual(errorBody('COMPANY_ACCESS_DENIED'));
    expect(listed.body.pagination.total).toBe(0);
  });

  it('403 for a key without files:write (COMPANY_ACCESS_DENIED) and for an App key', async () => {
    // Prepare
    const { principal, limited, object } = await givenCompanyObject([
      'objects:read',
      'objects:write',
      'files:read',
    ]);
    const app = appPrincipal();
    // Act
    const withoutWrite = await uploadSample(limited, object.id, png);
    const byApp = await uploadSample(app, object.id, png, {}, { companyId: principal.tenantId });
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(withoutWrite.statusCode).toBe(403);
    expect(withoutWrite.body).toEqual(errorBody('COMPANY_ACCESS_DENIED'));
    expect(byApp.statusCode).toBe(403);
    expect(listed.body.pagination.total).toBe(0);
  });

  it('401 UNAUTHORIZED without a principal', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadSample(undefined, object.id, png, {}, { companyId: principal.tenantId });
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual(errorBody('UNAUTHORIZED'));
  });

  it('400 VALIDATION_ERROR for a companyId that is not a UUID', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadSample(principal, object.id, png, {}, { companyId: 'not-a-uuid' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('upload: form details', () => {
  it('only the first part named file counts; the others are ignored', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadParts(principal, object.id, [
      filePartOf(png),
      filePartOf(sample('manual.pdf')),
      { name: 'description', value: 'two files sent' },
    ]);
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.originalFileName).toBe('photo.png');
    expect(response.body.description).toBe('two files sent');
    expect(listed.body.pagination.total).toBe(1);
    expect(await storedCompanyKeys(principal.tenantId)).toHaveLength(1);
  });

  it('a part named file without a filename is a text field: 400 FILE_REQUIRED', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadParts(principal, object.id, [{ name: 'file', value: 'hello' }]);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(errorBody('FILE_REQUIRED'));
  });

  it('51 tags or a tag of 101 characters: 400 VALIDATION_ERROR on tags, and the stored bytes are removed', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const tooMany = Array.from({ length: 51 }, (_, index) => `t${index}`).join(',');
    // Act
    const many = await uploadSample(principal, object.id, png, { tags: tooMany });
    const long = await uploadSample(principal, object.id, png, { tags: `ok, ${'x'.repeat(101)}` });
    const fifty = await uploadSample(principal, object.id, png, {
      tags: Array.from({ length: 50 }, (_, index) => `t${index}`).join(','),
    });
    // Assess
    for (const response of [many, long]) {
      expect(response.statusCode).toBe(400);
      expect(response.body.validationErrors).toEqual([
        expect.objectContaining({ field: 'tags', code: 'LENGTH_INVALID' }),
      ]);
    }
    expect(fifty.statusCode).toBe(201);
    expect(fifty.body.tags).toHaveLength(50);
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([
      `companies/${principal.tenantId}/files/${fifty.body.id}`,
    ]);
  });

  it('five uploads to one object at once: all 201, five records, five file_upload events, a valid chain', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const samples = ['photo.png', 'photo.jpg', 'anim.gif', 'manual.pdf', 'notes.txt'].map(sample);
    // Act
    const responses = await Promise.all(samples.map((each) => uploadSample(principal, object.id, each)));
    const listed = await listFiles(principal, object.id);
    const objectAfter = await getObject(principal, object.id);
    const verification = await verifyObject(principal, object.id);
    // Assess
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(listed.body.pagination.total).toBe(5);
    expect(objectAfter.body.blockchain.eventCount).toBe(6);
    expect(verification.body).toMatchObject({ valid: true, eventCount: 6 });
  });
});

describe('upload: the 50 MB limit (spec 8)', () => {
  it('413 FILE_TOO_LARGE for 52428800 + 1 bytes, and nothing is stored or recorded', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const before = await listFiles(principal, object.id);
    const content = Buffer.alloc(FIFTY_MIB + 1, 'a');
    // Act
    const response = await uploadParts(principal, object.id, [
      { name: 'file', fileName: 'big.txt', contentType: 'text/plain', content },
    ]);
    const after = await listFiles(principal, object.id);
    const objectAfter = await getObject(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(413);
    expect(response.body).toEqual(errorBody('FILE_TOO_LARGE'));
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
    expect(objectAfter.body.blockchain.eventCount).toBe(1);
    expect(await keysSeenWithin(principal.tenantId)).toEqual([]);
  });

  it('413 FILE_TOO_LARGE at once for a Content-Length far above the limit', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const boundary = newBoundary();
    const body = multipartBody([filePartOf(png)], boundary);
    // Act
    const response = await uploadRaw(principal, object.id, body, boundary, {
      contentLength: String(60 * 1024 * 1024),
    });
    // Assess
    expect(response.statusCode).toBe(413);
    expect(response.body).toEqual(errorBody('FILE_TOO_LARGE'));
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([]);
  });

  it('accepts exactly 52428800 bytes, with the exact size and checksum', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const content = Buffer.alloc(FIFTY_MIB, 'a');
    // Act
    const response = await uploadParts(principal, object.id, [
      { name: 'file', fileName: 'big.txt', contentType: 'text/plain', content },
    ]);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.size).toBe(FIFTY_MIB);
    expect(response.body.checksum).toBe(`sha256:${sha256Hex(content)}`);
    expect(await storedCompanyKeys(principal.tenantId)).toEqual([
      `companies/${principal.tenantId}/files/${response.body.id}`,
    ]);
  });
});

describe('upload: malformed multipart bodies are 400, never 500', () => {
  const boundary = 'files-test-boundary';
  const wholeBody = () =>
    multipartBody(
      [
        {
          name: 'file',
          fileName: 'notes.txt',
          contentType: 'text/plain',
          content: Buffer.alloc(200_000, 't'),
        },
        { name: 'description', value: 'cut off' },
      ],
      boundary,
    );

  it.each([
    ['inside the file content', (body: Buffer) => body.subarray(0, 100_000)],
    [
      'right after the file content, before its boundary',
      (body: Buffer) => body.subarray(0, body.indexOf('\r\n--files-test-boundary\r\n', 1000)),
    ],
    [
      'inside the part after the file',
      (body: Buffer) => body.subarray(0, body.indexOf('name="description"') + 5),
    ],
    [
      'before the closing boundary',
      (body: Buffer) => body.subarray(0, body.lastIndexOf('--files-test-boundary--')),
    ],
  ])('a body cut off %s: 400, nothing stored, nothing recorded', async (_case, cut) => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadRaw(principal, object.id, cut(wholeBody()), boundary);
    const listed = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(listed.body.pagination.total).toBe(0);
    expect(await keysSeenWithin(principal.tenantId)).toEqual([]);
  });

  it('a Content-Type without a boundary: 400', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadRaw(principal, object.id, wholeBody(), boundary, {
      contentType: 'multipart/form-data',
    });
    // Assess
    expect(response.statusCode).toBe(400);
  });

  it('a body that is not multipart at all under a multipart Content-Type: 400', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadRaw(principal, object.id, Buffer.from('just text'), boundary);
    // Assess
    expect(response.statusCode).toBe(400);
  });
});

describe('upload: the object’s ledger', () => {
  it('appends a file_upload event with the file’s id, names, checksum and size; the chain verifies', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const first = await uploadSampleOk(principal, object.id, png);
    const second = await uploadSampleOk(principal, object.externalId, sample('manual.pdf'));
    const events = await listObjectEvents(principal, object.id);
    const objectAfter = await getObject(principal, object.id);
    const verification = await verifyObject(principal, object.id);
    // Assess
    expect(events.body.data.map((event: { action: string }) => event.action)).toEqual([
      'create',
      'file_upload',
      'file_upload',
    ]);
    expect(events.body.data[1]).toMatchObject({
      sequence: 2,
      principal: `apiKey:${principal.keyId}`,
      changes: {
        file: {
          from: null,
          to: {
            id: first.id,
            fileName: first.fileName,
            originalFileName: 'photo.png',
            checksum: first.checksum,
            size: first.size,
          },
        },
      },
    });
    expect(events.body.data[2].changes.file.to.id).toBe(second.id);
    expect(objectAfter.body.blockchain.eventCount).toBe(3);
    expect(objectAfter.body.blockchain.lastTxId).toBe(events.body.data[2].hash);
    expect(verification.statusCode).toBe(200);
    expect(verification.body).toMatchObject({ valid: true, eventCount: 3, problems: [] });
  });
});
