/**
 * Request inputs are bounded before any costly work (issue 24): upload file names (255
 * characters, the rule of names) in the direct upload, the upload session and the import, and
 * an import file's columns (the job's `ignoredColumns` stays a small list). Through the
 * handlers, against DynamoDB Local and s3rver.
 */

import { IMPORT_COLUMNS_MAX } from '../../lambdas/domain/imports/import-schemas';
import type { ImportView } from '../../lambdas/domain/imports/import-view';
import { handler as createImportHandler } from '../../lambdas/handlers/imports/create-import';
import { lambdaContext, proxyEvent } from '../support/api-events';
import { createUploadSession, filePartOf, listFiles, uploadParts } from '../support/file-requests';
import { sample } from '../support/file-samples';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { importAndWait, postImportJson } from '../support/import-requests';
import { companyPrincipal } from '../support/principals';
import { PNG_1X1 } from '../support/subcategory-images';
import {
  fieldParts,
  imagePart,
  multipartBody,
  newBoundary,
  putSubcategoryForm,
} from '../support/subcategory-multipart';
import { addressOf } from '../support/subcategory-requests';

jest.setTimeout(120_000);

const png = sample('photo.png');
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function givenCompanyObject() {
  const principal = companyPrincipal();
  const object = (await givenObject(principal, await givenSubcategoryPath(principal))) as { id: string };
  return { principal, object };
}

/** The spec's error body of a validation error with one issue. */
const validationError = (field: string, code: string) => ({
  error: expect.any(String),
  code: 'VALIDATION_ERROR',
  timestamp: expect.stringMatching(ISO_UTC),
  validationErrors: [{ field, code, message: expect.stringContaining('file name') }],
});

describe('upload file names', () => {
  it('a direct upload with a 15 KB file name: 400 naming the field, and nothing stored', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadParts(principal, object.id, [
      filePartOf(png, { fileName: `${'a'.repeat(15_000)}.png` }),
    ]);
    const files = await listFiles(principal, object.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError('file', 'LENGTH_INVALID'));
    expect(files.body.data).toEqual([]);
  });

  it('a direct upload whose name holds a right-to-left override: 400 FORMAT_INVALID', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    // Act
    const response = await uploadParts(principal, object.id, [
      filePartOf(png, { fileName: 'invoice\u202Egnp.exe.png' }),
    ]);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError('file', 'FORMAT_INVALID'));
    expect(response.body.validationErrors[0].message).toContain('U+202E');
  });

  it('a name of exactly 255 characters is kept as uploaded', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const fileName = `${'n'.repeat(251)}.png`;
    // Act
    const response = await uploadParts(principal, object.id, [filePartOf(png, { fileName })]);
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.originalFileName).toBe(fileName);
  });

  it('an upload session: 256 characters or a control character in fileName is a 400 naming fileName', async () => {
    // Prepare
    const { principal, object } = await givenCompanyObject();
    const session = (fileName: string) =>
      createUploadSession(principal, object.id, { fileName, mimeType: 'image/png', size: 10 });
    // Act
    const tooLong = await session(`${'a'.repeat(252)}.png`);
    const withNul = await session('a\u0000b.png');
    // Assess
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'fileName', code: 'LENGTH_INVALID' }),
    ]);
    expect(withNul.statusCode).toBe(400);
    expect(withNul.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'fileName', code: 'FORMAT_INVALID' }),
    ]);
  });

  it('an import: a multipart file part with a 300-character name, or a fileName with an override, is a 400', async () => {
    // Prepare
    const principal = companyPrincipal();
    const boundary = newBoundary();
    const body = multipartBody(
      [
        {
          name: 'file',
          fileName: `${'a'.repeat(296)}.csv`,
          contentType: 'text/csv',
          content: Buffer.from('externalId,name\r\nA,B\r\n'),
        },
      ],
      boundary,
    );
    // Act
    const event = proxyEvent({
      method: 'POST',
      path: '/v2/imports',
      principal,
      rawBody: body.toString('base64'),
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    const response = await createImportHandler({ ...event, isBase64Encoded: true }, lambdaContext);
    const multipart = { statusCode: response.statusCode, body: JSON.parse(response.body) };
    const option = await postImportJson(principal, { size: 100, fileName: 'rows\u202Evsc.exe' });
    // Assess
    expect(multipart.statusCode).toBe(400);
    expect(multipart.body).toEqual(validationError('file', 'LENGTH_INVALID'));
    expect(option.statusCode).toBe(400);
    expect(option.body.validationErrors).toEqual([
      expect.objectContaining({ field: 'fileName', code: 'FORMAT_INVALID' }),
    ]);
  });
});

describe('subcategory image names (the details error format of spec 4.10)', () => {
  it('an image part named with a right-to-left override: 400 with details.file', async () => {
    // Prepare
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    // Act
    const response = await putSubcategoryForm(principal, addressOf(principal, place), [
      ...fieldParts({ action: 'CHANGE', name: 'Trucks' }),
      imagePart('truck\u202Egnp.exe', 'image/png', PNG_1X1),
    ]);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.details).toEqual({
      file: ['file name may not contain control or bidirectional formatting characters (U+202E)'],
    });
  });
});

describe('import columns', () => {
  const names = (count: number, prefix = 'extra') =>
    Array.from({ length: count }, (_, at) => `${prefix}${at}`);

  it('a header of 40,000 columns fails the job with HEADER_INVALID; its record stays small', async () => {
    // Act
    const job = await importAndWait(companyPrincipal(), `${names(40_000).join(',')}\r\nx\r\n`);
    // Assess
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({
      code: 'HEADER_INVALID',
      message: `The header row has 40000 columns; an import reads at most ${IMPORT_COLUMNS_MAX}`,
    });
    expect(job.ignoredColumns).toEqual([]);
  });

  it(`JSON Lines: ignoredColumns holds at most ${IMPORT_COLUMNS_MAX} names, the rows that bring more are reported`, async () => {
    // Prepare: six rows of 100 unknown fields each, 600 distinct in all
    const principal = companyPrincipal();
    const place = await givenSubcategoryPath(principal);
    const rows = Array.from({ length: 6 }, (_, row) =>
      JSON.stringify({
        externalId: `R-${row}`,
        name: 'Row',
        subcategoryId: place.subcategoryId,
        ...Object.fromEntries(names(100, `unknown${row}-`).map((field) => [field, 'x'])),
      }),
    );
    // Act
    const job: ImportView = await importAndWait(principal, rows.join('\n'), 'application/x-ndjson');
    // Assess: rows 1-4 bring 3 known and 400 unknown fields; rows 5 and 6 would pass 500
    expect(job.status).toBe('completed');
    expect(job.counts).toMatchObject({ total: 6, created: 4, failed: 2 });
    expect(job.ignoredColumns).toHaveLength(400);
  });
});
