/** Create subcategory (spec 4.8) through the handler, against DynamoDB Local and s3rver. */
import { randomUUID } from 'node:crypto';
import { givenCategory } from '../support/fixtures';
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
  addressOf,
  createSubcategoryOk,
  getCategory,
  getSubcategory,
  listCategories,
  postSubcategory,
} from '../support/subcategory-requests';

jest.setTimeout(60_000);

const validationError = (details: Record<string, string[]>, error = 'The request is not valid') => ({
  error,
  code: 'VALIDATION_ERROR',
  timestamp: expect.stringMatching(ISO_UTC),
  details,
});

describe('create subcategory: the response', () => {
  it('responds 200 with exactly { status, data: { id }, timestamp }', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 'Trucks',
      description: 'Heavy vehicles',
    });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: { id: expect.stringMatching(UUID_V4) },
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(Object.keys(response.body.data)).toEqual(['id']);
    expect(new Date(response.body.timestamp).toISOString()).toBe(response.body.timestamp);
  });

  it('stores the name and description it was given, and no image', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const id = await createSubcategoryOk(principal, category.id, { name: 'Vans', description: 'Light ones' });
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: id }),
    );
    // Assess
    expect(detail.body.data).toMatchObject({
      id,
      name: 'Vans',
      description: 'Light ones',
      status: 'active',
      imageId: null,
      files: [],
    });
  });

  it('keeps the metadata it was given (extension) and shows it in category responses', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const withMetadata = await createSubcategoryOk(principal, category.id, {
      name: 'Tagged',
      metadata: { color: 'red', sizes: [1, 2] },
    });
    const without = await createSubcategoryOk(principal, category.id, { name: 'Untagged' });
    const badMetadata = await postSubcategory(principal, category.id, { name: 'Bad', metadata: [1] });
    const listed = await getCategory(principal, category.id);
    // Assess
    const metadataOf = (id: string) =>
      listed.body.subcategories.find((each: { id: string }) => each.id === id)?.metadata;
    expect(metadataOf(withMetadata)).toEqual({ color: 'red', sizes: [1, 2] });
    expect(metadataOf(without)).toEqual({});
    expect(badMetadata.statusCode).toBe(400);
    expect(badMetadata.body.details).toEqual({ metadata: ['metadata must be a JSON object'] });
  });

  it('stores an empty description when none is given', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const id = await createSubcategoryOk(principal, category.id, { name: 'Bare' });
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: id }),
    );
    // Assess
    expect(detail.body.data.description).toBe('');
  });
});

describe('create subcategory: validation (400 VALIDATION_ERROR with details)', () => {
  it('requires a name', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const missing = await postSubcategory(principal, category.id, { description: 'no name' });
    const nullName = await postSubcategory(principal, category.id, { name: null });
    // Assess
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toEqual(validationError({ name: ['name is required'] }));
    expect(missing.body).not.toHaveProperty('validationErrors');
    expect(nullName.statusCode).toBe(400);
    expect(nullName.body).toEqual(validationError({ name: ['name is required'] }));
  });

  it('refuses a name with a control or bidirectional override character, in details', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const withNul = await postSubcategory(principal, category.id, { name: 'Valves\u0000' });
    const withOverride = await postSubcategory(principal, category.id, { name: 'Valves\u202Esevlav' });
    // Assess
    expect(withNul.statusCode).toBe(400);
    expect(withNul.body).toEqual(
      validationError({
        name: ['name may not contain control or bidirectional formatting characters (U+0000)'],
      }),
    );
    expect(withOverride.body).toEqual(
      validationError({
        name: ['name may not contain control or bidirectional formatting characters (U+202E)'],
      }),
    );
  });

  it('responds 400 for an empty body', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, undefined);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ name: ['name is required'] }));
  });

  it.each([
    ['1 character', 'A'],
    ['101 characters', 'n'.repeat(101)],
    ['101 emoji (202 UTF-16 units)', '😀'.repeat(101)],
  ])('refuses a name of %s', async (_, name) => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, { name });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ name: ['name must be 2 to 100 characters long'] }));
    expect(response.body).not.toHaveProperty('validationErrors');
  });

  it.each([
    ['2 characters', 'ab'],
    ['100 characters', 'n'.repeat(100)],
    ['2 emoji (4 UTF-16 units)', '😀😀'],
    ['100 emoji (200 UTF-16 units)', '😀'.repeat(100)],
  ])('accepts a name of %s', async (_, name) => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, { name });
    // Assess
    expect(response.statusCode).toBe(200);
  });

  it('accepts a description of 2048 characters and refuses 2049', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const atLimit = await postSubcategory(principal, category.id, {
      name: 'At limit',
      description: 'd'.repeat(2048),
    });
    const emojiAtLimit = await postSubcategory(principal, category.id, {
      name: 'Emoji limit',
      description: '😀'.repeat(2048),
    });
    const overLimit = await postSubcategory(principal, category.id, {
      name: 'Over limit',
      description: 'd'.repeat(2049),
    });
    // Assess
    expect(atLimit.statusCode).toBe(200);
    expect(emojiAtLimit.statusCode).toBe(200);
    expect(overLimit.statusCode).toBe(400);
    expect(overLimit.body).toEqual(
      validationError({ description: ['description must be at most 2048 characters long'] }),
    );
    expect(overLimit.body).not.toHaveProperty('validationErrors');
  });

  it('groups several issues by field', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 42,
      description: 'd'.repeat(2049),
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError({
        name: ['name must be a string, not number'],
        description: ['description must be at most 2048 characters long'],
      }),
    );
  });

  it('responds 400 with details for malformed JSON', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, undefined, {
      rawBody: '{"name": "Trucks",',
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError({ body: ['The body is not valid JSON'] }, 'The body is not valid JSON'),
    );
    expect(response.body).not.toHaveProperty('validationErrors');
  });

  it('responds 400 with details for a JSON body that is not an object', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, ['Trucks']);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ body: ['body must be a JSON object'] }));
  });

  it('responds 400 with details.categoryId for a category id that is not a UUID', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await postSubcategory(principal, 'not-a-uuid', { name: 'Trucks' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ categoryId: ['categoryId must be a UUID'] }));
  });
});

describe('create subcategory: the parent category', () => {
  it('responds 404 CATEGORY_NOT_FOUND for an unknown category', async () => {
    // Prepare
    const principal = companyPrincipal();
    const unknownId = randomUUID();
    // Act
    const response = await postSubcategory(principal, unknownId, { name: 'Trucks' });
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({
      error: `No category ${unknownId} in this company`,
      code: 'CATEGORY_NOT_FOUND',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it("responds 404 CATEGORY_NOT_FOUND for another company's category and leaves it untouched", async () => {
    // Prepare
    const owner = companyPrincipal();
    const intruder = companyPrincipal();
    const category = await givenCategory(owner);
    // Act
    const response = await postSubcategory(intruder, category.id, { name: 'Trucks' });
    const ownersView = await getCategory(owner, category.id);
    // Assess
    expect(response.statusCode).toBe(404);
    expect(response.body.code).toBe('CATEGORY_NOT_FOUND');
    expect(ownersView.body.statistics).toEqual({ subcategoryCount: 0, objectCount: 0 });
    expect(ownersView.body.subcategories).toEqual([]);
  });
});

describe('create subcategory: name uniqueness within the category', () => {
  it('responds 409 SUBCATEGORY_NAME_EXISTS for a name taken in the same category', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    await createSubcategoryOk(principal, category.id, { name: 'Trucks' });
    // Act
    const response = await postSubcategory(principal, category.id, { name: 'Trucks' });
    const categoryAfter = await getCategory(principal, category.id);
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'A subcategory named "Trucks" already exists in this category',
      code: 'SUBCATEGORY_NAME_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
    expect(categoryAfter.body.statistics.subcategoryCount).toBe(1);
    expect(categoryAfter.body.subcategories).toHaveLength(1);
  });

  it.each([
    ['in another case', 'Trucks', 'tRUCKS'],
    ['in another Unicode normalization form (NFD against NFC)', 'Caf\u00e9', 'Cafe\u0301'],
  ])('treats a name %s as taken', async (_, taken, variant) => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    await createSubcategoryOk(principal, category.id, { name: taken });
    // Act
    const response = await postSubcategory(principal, category.id, { name: variant });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('SUBCATEGORY_NAME_EXISTS');
  });

  it('accepts the same name in another category of the company, and in another company', async () => {
    // Prepare
    const principal = companyPrincipal();
    const other = companyPrincipal();
    const first = await givenCategory(principal);
    const second = await givenCategory(principal);
    const foreign = await givenCategory(other);
    await createSubcategoryOk(principal, first.id, { name: 'Trucks' });
    // Act
    const sameCompany = await postSubcategory(principal, second.id, { name: 'Trucks' });
    const otherCompany = await postSubcategory(other, foreign.id, { name: 'Trucks' });
    // Assess
    expect(sameCompany.statusCode).toBe(200);
    expect(otherCompany.statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous creations with the same name through', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const responses = await Promise.all([
      postSubcategory(principal, category.id, { name: 'Racing' }),
      postSubcategory(principal, category.id, { name: 'RACING' }),
      postSubcategory(principal, category.id, { name: 'racing' }),
    ]);
    const categoryAfter = await getCategory(principal, category.id);
    // Assess
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    expect(categoryAfter.body.statistics.subcategoryCount).toBe(1);
    expect(categoryAfter.body.subcategories).toHaveLength(1);
  });
});

describe('create subcategory: the image', () => {
  it.each([
    ['PNG', PNG_1X1, 'image/png', 'image.png', '.png'],
    ['GIF89a', GIF_1X1, 'image/gif', 'image.gif', '.gif'],
    ['JPEG', JPEG_SAMPLE, 'image/jpeg', 'image.jpg', '.jpg'],
    ['WebP', WEBP_1X1, 'image/webp', 'image.webp', '.webp'],
    // Spec 4.8 asks for base64 of at most 10 MB, nothing more: other bytes are kept, untyped.
    ['text', TEXT_SAMPLE, 'application/octet-stream', 'image.bin', '.bin'],
    ['PDF', Buffer.from('%PDF-1.7\n'), 'application/octet-stream', 'image.bin', '.bin'],
  ])(
    'stores a %s image given as base64 and records it as the one file',
    async (_, bytes, mimeType, title, extension) => {
      // Prepare
      const principal = companyPrincipal();
      const category = await givenCategory(principal);
      // Act
      const id = await createSubcategoryOk(principal, category.id, {
        name: 'Pictured',
        image: bytes.toString('base64'),
      });
      const detail = await getSubcategory(
        principal,
        addressOf(principal, { categoryId: category.id, subcategoryId: id }),
      );
      // Assess
      const { imageId } = detail.body.data;
      expect(imageId).toMatch(UUID_V4);
      expect(detail.body.data.files).toEqual([
        {
          id: imageId,
          name: `${imageId}${extension}`,
          title,
          mimeType,
          uploadDate: expect.stringMatching(ISO_UTC),
        },
      ]);
      const stored = await readStoredImage(principal.tenantId, id, imageId);
      expect(stored?.content.equals(bytes)).toBe(true);
      expect(stored?.contentType).toBe(mimeType);
      expect(await storedImageKeys(principal.tenantId)).toEqual([
        `companies/${principal.tenantId}/subcategories/${id}/images/${imageId}`,
      ]);
    },
  );

  it('accepts the image as a data: URL', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const id = await createSubcategoryOk(principal, category.id, {
      name: 'Data URL',
      image: `data:image/png;base64,${PNG_1X1.toString('base64')}`,
    });
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: id }),
    );
    // Assess
    expect(detail.body.data.files).toEqual([expect.objectContaining({ mimeType: 'image/png' })]);
  });

  it.each([
    ['not base64', 'this is not base64!', 'image must be base64 text'],
    ['empty', '', 'image is empty'],
  ])('responds 400 details.image for an image that is %s, and creates nothing', async (_, image, message) => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, { name: 'Broken image', image });
    const categoryAfter = await getCategory(principal, category.id);
    const retry = await postSubcategory(principal, category.id, { name: 'Broken image' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ image: [message] }));
    expect(categoryAfter.body.statistics.subcategoryCount).toBe(0);
    expect(retry.statusCode).toBe(200);
    expect(await storedImageKeys(principal.tenantId)).toEqual([]);
  });

  it('responds 400 details.image for an image that is not a string', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const response = await postSubcategory(principal, category.id, { name: 'Numbers', image: [1, 2, 3] });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError({ image: ['image must be a string, not array'] }));
  });

  it('accepts exactly 10 MB of image bytes', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const image = paddedPng(TEN_MEGABYTES);
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 'Ten MB',
      image: image.toString('base64'),
    });
    // Assess
    expect(response.statusCode).toBe(200);
    const id = response.body.data.id;
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: id }),
    );
    const stored = await readStoredImage(principal.tenantId, id, detail.body.data.imageId);
    expect(stored?.content.length).toBe(TEN_MEGABYTES);
  });

  it.each([
    ['a data URL', (base64: string) => `data:image/png;base64,${base64}`],
    ['a data URL with a parameter', (base64: string) => `data:image/png;name=photo.png;base64,${base64}`],
    ['base64 broken into MIME lines', (base64: string) => base64.replace(/.{76}/g, '$&\r\n')],
  ])('takes 10 MB of image bytes as %s', async (_label, asText) => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const image = paddedPng(TEN_MEGABYTES);
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 'Ten MB as text',
      image: asText(image.toString('base64')),
    });
    // Assess
    expect(response.statusCode).toBe(200);
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: response.body.data.id }),
    );
    const stored = await readStoredImage(principal.tenantId, response.body.data.id, detail.body.data.imageId);
    expect(stored?.content.equals(image)).toBe(true);
  });

  it('refuses 10 MB and one byte with 400 details.image, and stores no bytes', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const image = paddedPng(TEN_MEGABYTES + 1);
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 'Too big',
      image: image.toString('base64'),
    });
    const categoryAfter = await getCategory(principal, category.id);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError({ image: ['image must be at most 10485760 bytes (10 MB)'] }),
    );
    expect(categoryAfter.body.statistics.subcategoryCount).toBe(0);
    expect(await storedImageKeys(principal.tenantId)).toEqual([]);
  });

  it('refuses base64 text far longer than 10 MB of bytes before decoding it', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // 11 MB: longer than 10 MB's base64 with every prefix and line break the text may carry.
    const image = paddedPng(TEN_MEGABYTES + 1024 * 1024).toString('base64');
    // Act
    const response = await postSubcategory(principal, category.id, { name: 'Far too big', image });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.body.details)).toEqual(['image']);
  });

  it('leaves no image bytes behind when the name is taken', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    await createSubcategoryOk(principal, category.id, { name: 'Taken' });
    // Act
    const response = await postSubcategory(principal, category.id, {
      name: 'Taken',
      image: PNG_1X1.toString('base64'),
    });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(await storedImageKeys(principal.tenantId)).toEqual([]);
  });
});

describe('create subcategory: the category shows it', () => {
  it('counts it in statistics.subcategoryCount and embeds it in the 2.4 first shape, in get and list', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const id = await createSubcategoryOk(principal, category.id, {
      name: 'Trucks',
      description: 'Heavy vehicles',
      image: PNG_1X1.toString('base64'),
    });
    const single = await getCategory(principal, category.id);
    const list = await listCategories(principal);
    // Assess
    const expectedSubcategory = {
      id,
      name: 'Trucks',
      description: 'Heavy vehicles',
      status: 'active',
      categoryId: category.id,
      metadata: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
      statistics: { objectCount: 0 },
    };
    expect(single.statusCode).toBe(200);
    expect(single.body.statistics).toEqual({ subcategoryCount: 1, objectCount: 0 });
    expect(single.body.subcategories).toEqual([expectedSubcategory]);
    expect(Object.keys(single.body.subcategories[0]).sort()).toEqual([
      'categoryId',
      'createdAt',
      'description',
      'id',
      'metadata',
      'name',
      'statistics',
      'status',
      'updatedAt',
    ]);
    expect(single.body.subcategories[0].updatedAt).toBe(single.body.subcategories[0].createdAt);
    const listed = list.body.data.find((each: { id: string }) => each.id === category.id);
    expect(listed.statistics).toEqual({ subcategoryCount: 1, objectCount: 0 });
    expect(listed.subcategories).toEqual(single.body.subcategories);
  });

  it('embeds several subcategories oldest first, with the count matching', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    // Act
    const first = await createSubcategoryOk(principal, category.id, { name: 'First' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createSubcategoryOk(principal, category.id, { name: 'Second' });
    const single = await getCategory(principal, category.id);
    // Assess
    expect(single.body.statistics).toEqual({ subcategoryCount: 2, objectCount: 0 });
    expect(single.body.subcategories.map((each: { id: string }) => each.id)).toEqual([first, second]);
  });

  it('shows the createdAt of the detail as createDate', async () => {
    // Prepare
    const principal = companyPrincipal();
    const category = await givenCategory(principal);
    const id = await createSubcategoryOk(principal, category.id, { name: 'Dated' });
    // Act
    const single = await getCategory(principal, category.id);
    const detail = await getSubcategory(
      principal,
      addressOf(principal, { categoryId: category.id, subcategoryId: id }),
    );
    // Assess
    expect(detail.body.data.createDate).toBe(single.body.subcategories[0].createdAt);
  });
});
