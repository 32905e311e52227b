/**
 * The multipart reading of the subcategory update (spec 4.10), without network: well-formed
 * bodies, the file size bound at and just over the limit, and malformed bodies, which must be
 * refused with an API error (400 or 413), never with a crash or a 500.
 */
import fc from 'fast-check';
import { readFormBody } from '../../lambdas/http/form-body';
import { parseMultipart } from '../../lambdas/http/multipart';
import { operations } from '../../lambdas/operations';
import { ApiError } from '../../lambdas/shared/errors';
import { PNG_1X1 } from '../support/subcategory-images';
import { fieldParts, imagePart, multipartBody } from '../support/subcategory-multipart';

const BOUNDARY = 'unit-boundary-7d2f';

const eventWith = (body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
  ({
    headers: { 'Content-Type': contentType },
    body: body.toString('base64'),
    isBase64Encoded: true,
  }) as unknown as Parameters<typeof parseMultipart>[0];

const limits = (maxFileBytes: number) => ({ maxFileBytes });

/** How a parse ended: the parsed body, or the API error's status and code. */
async function outcome(promise: Promise<unknown>) {
  try {
    return { parsed: await promise };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, code: error.code };
  }
}

describe('the update operation row', () => {
  it('reads the image from the part named file, at most 10 MB', () => {
    expect(operations.updateSubcategory.form).toMatchObject({
      fileField: 'file',
      maxFileBytes: 10 * 1024 * 1024,
    });
    expect(operations.updateSubcategory.errorFormat).toBe('details');
  });
});

describe('readFormBody with the update operation', () => {
  it('reads the text fields and the file part', async () => {
    // Prepare
    const body = multipartBody(
      [
        ...fieldParts({ name: 'Trucks', action: 'CHANGE', description: 'Big' }),
        imagePart('t.png', 'image/png', PNG_1X1),
      ],
      BOUNDARY,
    );
    // Act
    const form = await readFormBody(eventWith(body), operations.updateSubcategory.form);
    // Assess
    expect(form.fields).toEqual({ name: 'Trucks', action: 'CHANGE', description: 'Big' });
    expect(form.file).toEqual({
      fieldName: 'file',
      fileName: 't.png',
      mimeType: 'image/png',
      content: PNG_1X1,
    });
  });

  it('ignores a file sent under another part name', async () => {
    // Prepare
    const body = multipartBody([{ ...imagePart('t.png', 'image/png', PNG_1X1), name: 'picture' }], BOUNDARY);
    // Act
    const form = await readFormBody(eventWith(body), operations.updateSubcategory.form);
    // Assess
    expect(form.file).toBeUndefined();
  });
});

describe('parseMultipart: the file size bound', () => {
  it('accepts a file of exactly the limit', async () => {
    // Prepare
    const body = multipartBody([imagePart('a.png', 'image/png', Buffer.alloc(64, 7))], BOUNDARY);
    // Act
    const result = await outcome(parseMultipart(eventWith(body), limits(64)));
    // Assess
    expect(result).toEqual({
      parsed: { fields: {}, files: [expect.objectContaining({ content: Buffer.alloc(64, 7) })] },
    });
  });

  it('refuses a file of one byte over the limit with 413 FILE_TOO_LARGE', async () => {
    // Prepare
    const body = multipartBody([imagePart('a.png', 'image/png', Buffer.alloc(65, 7))], BOUNDARY);
    // Act
    const result = await outcome(parseMultipart(eventWith(body), limits(64)));
    // Assess
    expect(result).toEqual({ status: 413, code: 'FILE_TOO_LARGE' });
  });
});

describe('parseMultipart: malformed bodies are API errors', () => {
  const wellFormed = multipartBody(
    [...fieldParts({ name: 'Trucks', action: 'CHANGE' }), imagePart('a.png', 'image/png', PNG_1X1)],
    BOUNDARY,
  );

  it('responds 400 for a body cut off inside the file part', async () => {
    // Prepare
    const cut = wellFormed.subarray(0, wellFormed.length - 30);
    // Act
    const result = await outcome(parseMultipart(eventWith(cut), limits(1024)));
    // Assess
    expect(result).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('responds 400 for a body cut off inside the text fields', async () => {
    // Prepare
    const cut = wellFormed.subarray(0, 60);
    // Act
    const result = await outcome(parseMultipart(eventWith(cut), limits(1024)));
    // Assess
    expect(result).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('responds 400 for a Content-Type without boundary', async () => {
    // Act
    const result = await outcome(parseMultipart(eventWith(wellFormed, 'multipart/form-data'), limits(1024)));
    // Assess
    expect(result).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('ends with the parsed body or an API error for a body cut at any byte (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: wellFormed.length }), async (length) => {
        const result = await outcome(parseMultipart(eventWith(wellFormed.subarray(0, length)), limits(1024)));
        if ('status' in result) expect(result.status).toBe(400);
      }),
      { numRuns: 60 },
    );
  });

  it('ends with the parsed body or an API error for arbitrary bytes after a valid part header (property)', async () => {
    const header = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const result = await outcome(
          parseMultipart(eventWith(Buffer.concat([header, Buffer.from(bytes)])), limits(1024)),
        );
        if ('status' in result) expect([400, 413]).toContain(result.status);
      }),
      { numRuns: 60 },
    );
  });
});
