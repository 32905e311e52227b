/**
 * Update subcategory with action CHANGE (spec 4.10): name, description and a new image, sent as
 * multipart/form-data and as JSON, against DynamoDB Local and s3rver. Also the multipart parser's
 * refusal of malformed bodies (400, never 500).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../lambdas/shared/principal';
import { givenSubcategory, givenSubcategoryPath } from '../support/fixtures';
import { ISO_UTC, UUID_V4 } from '../support/object-requests';
import { companyPrincipal } from '../support/principals';
import { readStoredImage, storedImageKeys } from '../support/subcategory-files';
import {
  GIF_1X1,
  JPEG_SAMPLE,
  PNG_1X1,
  paddedPng,
  TEN_MEGABYTES,
  TEXT_SAMPLE,
  WEBP_1X1,
} from '../support/subcategory-images';
import {
  fieldParts,
  imagePart,
  multipartBody,
  newBoundary,
  putSubcategoryForm,
  putSubcategoryRaw,
} from '../support/subcategory-multipart';
import { addressOf, getCategory, getSubcategory, putSubcategoryJson } from '../support/subcategory-requests';

jest.setTimeout(60_000);

/** A company with a category "…" holding one subcategory, and its detail address. */
async function givenPlace() {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  return { principal, place, address: addressOf(principal, place) };
}

const success = (imageId: string | null, changes: Record<string, { from: unknown; to: unknown }>) => ({
  status: 'success',
  data: { imageId },
  changes,
  timestamp: expect.stringMatching(ISO_UTC),
});

describe('update subcategory: CHANGE of name and description', () => {
  it.each(['multipart', 'JSON'] as const)(
    'through a %s body lists exactly the changed fields as { from, to } and data.imageId',
    async (format) => {
      // Prepare
      const { principal, place, address } = await givenPlace();
      const fields = { name: 'Renamed', action: 'CHANGE', description: 'New text' };
      // Act
      const response =
        format === 'multipart'
          ? await putSubcategoryForm(principal, address, fieldParts(fields))
          : await putSubcategoryJson(principal, address, fields);
      const detail = await getSubcategory(principal, address);
      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body).toEqual(
        success(null, {
          name: { from: place.subcategoryName, to: 'Renamed' },
          description: { from: '', to: 'New text' },
        }),
      );
      expect(detail.body.data).toMatchObject({
        name: 'Renamed',
        description: 'New text',
        status: 'active',
        path: `${place.categoryName}/Renamed`,
      });
    },
  );

  it.each(['multipart', 'JSON'] as const)(
    'through a %s body lists no name change when the current name is sent unchanged',
    async (format) => {
      // Prepare
      const { principal, place, address } = await givenPlace();
      const fields = { name: place.subcategoryName, action: 'CHANGE', description: 'Only this' };
      // Act
      const response =
        format === 'multipart'
          ? await putSubcategoryForm(principal, address, fieldParts(fields))
          : await putSubcategoryJson(principal, address, fields);
      // Assess
      expect(response.statusCode).toBe(200);
      expect(response.body).toEqual(success(null, { description: { from: '', to: 'Only this' } }));
    },
  );

  it('returns an empty changes object when nothing changes', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: place.subcategoryName }),
    );
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual(success(null, {}));
  });

  it('leaves the fields that are not sent unchanged', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await putSubcategoryJson(principal, address, { description: 'Kept' });
    // Act
    const response = await putSubcategoryForm(principal, address, fieldParts({ name: 'Only the name' }));
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.body.changes).toEqual({ name: { from: place.subcategoryName, to: 'Only the name' } });
    expect(detail.body.data.description).toBe('Kept');
  });

  it('changes the name case of its own name without a conflict', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const shouted = place.subcategoryName.toUpperCase();
    // Act
    const response = await putSubcategoryForm(principal, address, fieldParts({ name: shouted }));
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body.changes).toEqual({ name: { from: place.subcategoryName, to: shouted } });
  });

  it('keeps non-ASCII names and descriptions of a multipart body intact', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: 'Café ☕ 😀', description: 'Grüße, 日本語' }),
    );
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(detail.body.data.name).toBe('Café ☕ 😀');
    expect(detail.body.data.description).toBe('Grüße, 日本語');
    expect(detail.body.data.path).toBe(`${place.categoryName}/Café ☕ 😀`);
  });

  it('reads a multipart body that API Gateway passed as text (isBase64Encoded false)', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const boundary = newBoundary();
    const body = multipartBody(fieldParts({ name: 'As text', description: 'plain' }), boundary);
    // Act
    const response = await putSubcategoryRaw(principal, address, body, boundary, { asText: true });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.body.changes).sort()).toEqual(['description', 'name']);
  });

  it('shows the change in the category embedding: name, description and a later updatedAt', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const before = await getCategory(principal, place.categoryId);
    // Act
    await putSubcategoryForm(principal, address, fieldParts({ name: 'Embedded', description: 'Shown' }));
    const after = await getCategory(principal, place.categoryId);
    // Assess
    const [embeddedBefore] = before.body.subcategories;
    const [embeddedAfter] = after.body.subcategories;
    expect(embeddedAfter).toEqual({
      ...embeddedBefore,
      name: 'Embedded',
      description: 'Shown',
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(embeddedAfter.updatedAt > embeddedBefore.updatedAt).toBe(true);
  });
});

describe('update subcategory: field validation', () => {
  it.each([
    ['a name of 1 character', { name: 'A' }, { name: ['name must be 2 to 100 characters long'] }],
    [
      'a name of 101 characters',
      { name: 'n'.repeat(101) },
      { name: ['name must be 2 to 100 characters long'] },
    ],
    [
      'a description of 2049 characters',
      { description: 'd'.repeat(2049) },
      { description: ['description must be at most 2048 characters long'] },
    ],
  ])(
    'responds 400 VALIDATION_ERROR with details for %s (multipart), and changes nothing',
    async (_, fields, details) => {
      // Prepare
      const { principal, place, address } = await givenPlace();
      // Act
      const response = await putSubcategoryForm(principal, address, fieldParts(fields));
      const detail = await getSubcategory(principal, address);
      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toEqual({
        error: 'The request is not valid',
        code: 'VALIDATION_ERROR',
        timestamp: expect.stringMatching(ISO_UTC),
        details,
      });
      expect(response.body).not.toHaveProperty('validationErrors');
      expect(detail.body.data.name).toBe(place.subcategoryName);
      expect(detail.body.data.description).toBe('');
    },
  );

  it('accepts a description of exactly 2048 characters', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ description: 'd'.repeat(2048) }),
    );
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('responds 400 with details for a JSON name that is not a string', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const response = await putSubcategoryJson(principal, address, { name: 12 });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.details).toEqual({ name: ['name must be a string, not number'] });
  });

  it('responds 400 with details for malformed JSON and for a JSON array', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const malformed = await putSubcategoryJson(principal, address, undefined, { rawBody: '{"name":' });
    const array = await putSubcategoryJson(principal, address, ['CHANGE']);
    // Assess
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toEqual({
      error: 'The body is not valid JSON',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      details: { body: ['The body is not valid JSON'] },
    });
    expect(array.statusCode).toBe(400);
    expect(array.body.details).toEqual({ body: ['body must be multipart/form-data or a JSON object'] });
  });
});

describe('update subcategory: a new image file', () => {
  it.each([
    ['PNG', 'photo.png', 'image/png', PNG_1X1],
    ['GIF89a', 'anim.gif', 'image/gif', GIF_1X1],
    ['JPEG', 'photo.jpeg', 'image/jpeg', JPEG_SAMPLE],
    ['WebP', 'photo.webp', 'image/webp', WEBP_1X1],
    ['PNG declared application/octet-stream', 'photo.png', 'application/octet-stream', PNG_1X1],
    ['PNG with an upper-case extension', 'PHOTO.PNG', 'image/png', PNG_1X1],
  ])(
    'takes a %s: changes.imageId { from, to }, data.imageId, one more file, bytes stored',
    async (_, fileName, contentType, bytes) => {
      // Prepare
      const { principal, address } = await givenPlace();
      // Act
      const response = await putSubcategoryForm(principal, address, [
        imagePart(fileName, contentType, bytes),
      ]);
      const detail = await getSubcategory(principal, address);
      // Assess
      expect(response.statusCode).toBe(200);
      const imageId = response.body.data.imageId;
      expect(imageId).toMatch(UUID_V4);
      expect(response.body).toEqual(success(imageId, { imageId: { from: null, to: imageId } }));
      expect(detail.body.data.imageId).toBe(imageId);
      expect(detail.body.data.files).toEqual([
        expect.objectContaining({ id: imageId, title: fileName, uploadDate: expect.stringMatching(ISO_UTC) }),
      ]);
      const stored = await readStoredImage(principal.tenantId, address.subcategoryId, imageId);
      expect(stored?.content.equals(bytes)).toBe(true);
    },
  );

  it('records the MIME type from the bytes, not from a generic declared type', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    await putSubcategoryForm(principal, address, [
      imagePart('photo.gif', 'application/octet-stream', GIF_1X1),
    ]);
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(detail.body.data.files[0].mimeType).toBe('image/gif');
    expect(detail.body.data.files[0].name).toBe(`${detail.body.data.imageId}.gif`);
  });

  it('replaces the image: changes.imageId from the old to the new id, and files grows', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const first = await putSubcategoryForm(principal, address, [imagePart('one.png', 'image/png', PNG_1X1)]);
    // Act
    const second = await putSubcategoryForm(principal, address, [
      ...fieldParts({ name: place.subcategoryName, action: 'CHANGE', description: 'With picture' }),
      imagePart('two.gif', 'image/gif', GIF_1X1),
    ]);
    const detail = await getSubcategory(principal, address);
    // Assess
    const oldId = first.body.data.imageId;
    const newId = second.body.data.imageId;
    expect(newId).not.toBe(oldId);
    expect(second.body).toEqual(
      success(newId, {
        description: { from: '', to: 'With picture' },
        imageId: { from: oldId, to: newId },
      }),
    );
    expect(detail.body.data.imageId).toBe(newId);
    expect(detail.body.data.files.map((file: { id: string }) => file.id)).toEqual([oldId, newId]);
  });

  it('keeps the image when an update sends no file', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const withImage = await putSubcategoryForm(principal, address, [
      imagePart('one.png', 'image/png', PNG_1X1),
    ]);
    // Act
    const response = await putSubcategoryForm(principal, address, fieldParts({ description: 'text only' }));
    // Assess
    expect(response.body).toEqual(
      success(withImage.body.data.imageId, { description: { from: '', to: 'text only' } }),
    );
  });

  it('ignores an empty file input (no file name, no bytes), as a browser sends it', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(principal, address, [
      ...fieldParts({ description: 'no picture' }),
      imagePart('', 'application/octet-stream', Buffer.alloc(0)),
    ]);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual(success(null, { description: { from: '', to: 'no picture' } }));
  });

  it.each([
    ['a .txt file', 'notes.txt', 'text/plain', TEXT_SAMPLE, 'files ending in ".txt" are not supported'],
    [
      'a .pdf file',
      'doc.pdf',
      'application/pdf',
      Buffer.from('%PDF-1.7\n'),
      'files ending in ".pdf" are not supported',
    ],
    [
      'a file without extension or declared type',
      'photo',
      'application/octet-stream',
      PNG_1X1,
      'a file name without an extension and the declared type application/octet-stream is not supported',
    ],
    ['a .png whose bytes are text', 'fake.png', 'image/png', TEXT_SAMPLE, 'the content is not a .png file'],
    ['a .jpg whose bytes are PNG', 'photo.jpg', 'image/jpeg', PNG_1X1, 'the content is not a .jpg file'],
    ['an empty .png', 'empty.png', 'image/png', Buffer.alloc(0), 'the content is not a .png file'],
    [
      'a .png declared image/jpeg',
      'photo.png',
      'image/jpeg',
      PNG_1X1,
      'the declared type image/jpeg does not match the extension .png',
    ],
  ])(
    'responds 415 UNSUPPORTED_FILE_TYPE for %s, and changes and stores nothing',
    async (_, fileName, contentType, bytes, reason) => {
      // Prepare
      const { principal, place, address } = await givenPlace();
      // Act
      const response = await putSubcategoryForm(principal, address, [
        ...fieldParts({ name: 'Should not apply' }),
        imagePart(fileName, contentType, bytes),
      ]);
      const detail = await getSubcategory(principal, address);
      // Assess
      expect(response.statusCode).toBe(415);
      expect(response.body).toEqual({
        error: `The image is not supported: ${reason}`,
        code: 'UNSUPPORTED_FILE_TYPE',
        timestamp: expect.stringMatching(ISO_UTC),
      });
      expect(detail.body.data).toMatchObject({ name: place.subcategoryName, imageId: null, files: [] });
      expect(await storedImageKeys(principal.tenantId, address.subcategoryId)).toEqual([]);
    },
  );

  it('accepts an image file of exactly 10 MB', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const image = paddedPng(TEN_MEGABYTES);
    // Act
    const response = await putSubcategoryForm(principal, address, [imagePart('big.png', 'image/png', image)]);
    // Assess
    expect(response.statusCode).toBe(200);
    const stored = await readStoredImage(
      principal.tenantId,
      address.subcategoryId,
      response.body.data.imageId,
    );
    expect(stored?.content.length).toBe(TEN_MEGABYTES);
  });

  it('responds 413 FILE_TOO_LARGE for an image file of 10 MB and one byte, and stores nothing', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const image = paddedPng(TEN_MEGABYTES + 1);
    // Act
    const response = await putSubcategoryForm(principal, address, [imagePart('big.png', 'image/png', image)]);
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.statusCode).toBe(413);
    expect(response.body).toEqual({
      error: 'The file is larger than 10485760 bytes',
      code: 'FILE_TOO_LARGE',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data.files).toEqual([]);
    expect(await storedImageKeys(principal.tenantId, address.subcategoryId)).toEqual([]);
  });

  it('responds 400 for two files in one update', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const response = await putSubcategoryForm(principal, address, [
      imagePart('one.png', 'image/png', PNG_1X1),
      imagePart('two.png', 'image/png', PNG_1X1),
    ]);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'Only one file may be sent',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      details: { body: ['Only one file may be sent'] },
    });
  });
});

describe('update subcategory: a malformed multipart body is a 400, never a 500', () => {
  const wellFormed = (boundary: string) =>
    multipartBody(
      [...fieldParts({ name: 'Never applied', action: 'CHANGE' }), imagePart('a.png', 'image/png', PNG_1X1)],
      boundary,
    );

  it.each([
    [
      'a boundary in the header that the body does not use',
      (boundary: string) => ({
        body: wellFormed(boundary),
        options: { headerBoundary: `${boundary}-other` },
      }),
    ],
    [
      'a body cut off in the middle of the file',
      (boundary: string) => {
        const body = wellFormed(boundary);
        return { body: body.subarray(0, body.length - 40), options: {} };
      },
    ],
    [
      'a body without its closing boundary',
      (boundary: string) => {
        const body = wellFormed(boundary);
        return { body: body.subarray(0, body.length - `--${boundary}--\r\n`.length), options: {} };
      },
    ],
    [
      'a Content-Type without a boundary',
      (boundary: string) => ({ body: wellFormed(boundary), options: { contentType: 'multipart/form-data' } }),
    ],
    [
      'an empty boundary',
      (boundary: string) => ({
        body: wellFormed(boundary),
        options: { contentType: 'multipart/form-data; boundary=' },
      }),
    ],
    ['an empty body', () => ({ body: Buffer.alloc(0), options: {} })],
    ['random bytes', () => ({ body: Buffer.from(randomUUID().repeat(20), 'utf8'), options: {} })],
    [
      'a part header without its blank line',
      (boundary: string) => ({
        body: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\nNo blank line`,
          'utf8',
        ),
        options: {},
      }),
    ],
  ])('responds 400 VALIDATION_ERROR with details.body for %s, and changes nothing', async (_, build) => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const boundary = newBoundary();
    const { body, options } = build(boundary);
    // Act
    const response = await putSubcategoryRaw(principal, address, body, boundary, options);
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: expect.any(String),
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      details: { body: [expect.any(String)] },
    });
    expect(detail.body.data).toMatchObject({ name: place.subcategoryName, imageId: null, files: [] });
    expect(await storedImageKeys(principal.tenantId, address.subcategoryId)).toEqual([]);
  });
});

describe('update subcategory: rename conflicts', () => {
  it.each([
    ['the same name', (taken: string) => taken],
    ['the same name in another case', (taken: string) => taken.toLowerCase()],
  ])('responds 409 SUBCATEGORY_NAME_EXISTS for %s as a sibling, and changes nothing', async (_, variant) => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const sibling = await givenSubcategory(principal, place.categoryId, 'Taken Name');
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: variant(sibling.name), description: 'not applied' }),
    );
    const detail = await getSubcategory(principal, address);
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: `A subcategory named "${variant(sibling.name)}" already exists in this category`,
      code: 'SUBCATEGORY_NAME_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(detail.body.data).toMatchObject({ name: place.subcategoryName, description: '' });
  });

  it('accepts a name used in another category', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const elsewhere = await givenSubcategoryPath(principal);
    // Act
    const response = await putSubcategoryForm(
      principal,
      address,
      fieldParts({ name: elsewhere.subcategoryName }),
    );
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('gives the old name free after a rename, and holds the new one', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    await putSubcategoryForm(principal, address, fieldParts({ name: 'Brand New' }));
    // Act
    const reuseOld = await givenSubcategory(principal, place.categoryId, place.subcategoryName).then(
      () => 200,
      () => 409,
    );
    const takeNew = await givenSubcategory(principal, place.categoryId, 'brand new').then(
      () => 200,
      () => 409,
    );
    // Assess
    expect(reuseOld).toBe(200);
    expect(takeNew).toBe(409);
  });
});

describe('update subcategory: who may', () => {
  it('responds 403 COMPANY_ACCESS_DENIED for a path under another company, and changes nothing', async () => {
    // Prepare
    const { principal, place, address } = await givenPlace();
    const intruder = companyPrincipal();
    // Act
    const multipart = await putSubcategoryForm(intruder, address, fieldParts({ name: 'Hijacked' }));
    const json = await putSubcategoryJson(intruder, address, { name: 'Hijacked', action: 'REMOVE' });
    const detail = await getSubcategory(principal, address);
    // Assess
    for (const response of [multipart, json]) {
      expect(response.statusCode).toBe(403);
      expect(response.body).toEqual({
        error: 'The API key does not belong to this company',
        code: 'COMPANY_ACCESS_DENIED',
        timestamp: expect.stringMatching(ISO_UTC),
      });
    }
    expect(detail.body.data).toMatchObject({ name: place.subcategoryName, status: 'active' });
  });

  it("responds 404 SUBCATEGORY_NOT_FOUND for another company's subcategory under one's own company id", async () => {
    // Prepare
    const { place } = await givenPlace();
    const intruder = companyPrincipal();
    // Act
    const response = await putSubcategoryForm(
      intruder,
      addressOf(intruder, place),
      fieldParts({ name: 'Hijacked' }),
    );
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('SUBCATEGORY_NOT_FOUND');
  });

  it('responds 403 to a key with categories:read only', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    const readOnly: Principal = { ...principal, permissions: new Set(['categories:read'] as const) };
    // Act
    const response = await putSubcategoryForm(readOnly, address, fieldParts({ name: 'Nope' }));
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body.code).toBe('COMPANY_ACCESS_DENIED');
  });

  it('responds 404 SUBCATEGORY_NOT_FOUND for an unknown subcategory, and 400 details for a non-UUID id', async () => {
    // Prepare
    const { principal, address } = await givenPlace();
    // Act
    const unknown = await putSubcategoryForm(
      principal,
      { ...address, subcategoryId: randomUUID() },
      fieldParts({ name: 'Nobody' }),
    );
    const malformed = await putSubcategoryForm(
      principal,
      { ...address, subcategoryId: 'nope' },
      fieldParts({ name: 'Nobody' }),
    );
    // Assess
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.code).toBe('SUBCATEGORY_NOT_FOUND');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body.details).toEqual({ subcategoryId: ['subcategoryId must be a UUID'] });
  });
});
