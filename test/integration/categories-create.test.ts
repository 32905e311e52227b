/** Create category (spec 4.6) through the handler, against DynamoDB Local. */
import { getCategory, listCategories, postCategory } from '../support/category-requests';
import { companyPrincipal } from '../support/principals';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('create category', () => {
  it('responds 201 with the category, its Location, and defaults for the fields left out', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const response = await postCategory(principal, { name: 'Vehicles' });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Vehicles',
      description: '',
      status: 'active',
      metadata: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: response.body.createdAt,
      statistics: { subcategoryCount: 0, objectCount: 0 },
      subcategories: [],
    });
    expect(response.headers.Location).toBe(`/test/v2/categories/${response.body.id}`);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
  });

  it('stores the description and metadata given, and reads them back the same', async () => {
    // Prepare
    const principal = companyPrincipal();
    const metadata = {
      color: 'red',
      size: 3,
      ratio: 0.5,
      tags: ['a', 'b'],
      nested: { '': null, deep: [{}] },
    };
    // Act
    const created = await postCategory(principal, { name: 'Tools', description: 'Hand tools', metadata });
    const readBack = await getCategory(principal, created.body.id);
    // Assess
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatchObject({ name: 'Tools', description: 'Hand tools', metadata });
    expect(readBack.statusCode).toBe(200);
    expect(readBack.body).toEqual(created.body);
  });

  it('accepts a name of 100 emoji (lengths count characters, not UTF-16 units)', async () => {
    // Prepare
    const principal = companyPrincipal();
    const name = '🚗'.repeat(100);
    // Act
    const response = await postCategory(principal, { name, description: '🔧'.repeat(500) });
    // Assess
    expect(response.statusCode).toBe(201);
    expect(response.body.name).toBe(name);
  });

  it('responds 409 CATEGORY_NAME_EXISTS for a name the company already uses', async () => {
    // Prepare
    const principal = companyPrincipal();
    await postCategory(principal, { name: 'Vehicles' });
    // Act
    const response = await postCategory(principal, { name: 'Vehicles' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body).toEqual({
      error: 'A category named "Vehicles" already exists in this company',
      code: 'CATEGORY_NAME_EXISTS',
      timestamp: expect.stringMatching(ISO_UTC),
    });
  });

  it('responds 409 CATEGORY_NAME_EXISTS for the same name in another case', async () => {
    // Prepare
    const principal = companyPrincipal();
    await postCategory(principal, { name: 'Vehicles' });
    // Act
    const response = await postCategory(principal, { name: 'vEHICLES' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('responds 409 for the same name in another Unicode normalization form', async () => {
    // Prepare
    const principal = companyPrincipal();
    await postCategory(principal, { name: 'Caf\u00e9' });
    // Act
    const response = await postCategory(principal, { name: 'CAFE\u0301' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('responds 409 for the upper case of a name whose capital has no precomposed form (ẖ → H̱)', async () => {
    // Prepare
    const principal = companyPrincipal();
    await postCategory(principal, { name: '\u1e96-tools' });
    // Act
    const response = await postCategory(principal, { name: 'H\u0331-TOOLS' });
    // Assess
    expect(response.statusCode).toBe(409);
    expect(response.body.code).toBe('CATEGORY_NAME_EXISTS');
  });

  it('keeps only the first category when a name is refused (no partial writes)', async () => {
    // Prepare
    const principal = companyPrincipal();
    await postCategory(principal, { name: 'Vehicles' });
    // Act
    await postCategory(principal, { name: 'VEHICLES' });
    const listed = await listCategories(principal, { status: 'all' });
    // Assess
    expect(listed.body.data.map((category: { name: string }) => category.name)).toEqual(['Vehicles']);
    expect(listed.body.pagination.total).toBe(1);
  });

  it('lets two companies use the same name', async () => {
    // Prepare
    const first = companyPrincipal();
    const second = companyPrincipal();
    // Act
    const fromFirst = await postCategory(first, { name: 'Vehicles' });
    const fromSecond = await postCategory(second, { name: 'Vehicles' });
    // Assess
    expect(fromFirst.statusCode).toBe(201);
    expect(fromSecond.statusCode).toBe(201);
    expect(fromSecond.body.id).not.toBe(fromFirst.body.id);
  });

  it('creates one category, not two, when the same new name is posted twice at once', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    const responses = await Promise.all([
      postCategory(principal, { name: 'Racing' }),
      postCategory(principal, { name: 'racing' }),
    ]);
    const listed = await listCategories(principal, { status: 'all' });
    // Assess
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(listed.body.pagination.total).toBe(1);
  });
});

describe('create category validation', () => {
  const validationError = (validationErrors: unknown[]) => ({
    error: 'The request is not valid',
    code: 'VALIDATION_ERROR',
    timestamp: expect.stringMatching(ISO_UTC),
    validationErrors,
  });

  it.each([
    ['a 1-character name', { name: 'V' }, 'name must be 2 to 100 characters long'],
    ['a 101-character name', { name: 'v'.repeat(101) }, 'name must be 2 to 100 characters long'],
  ])('responds 400 LENGTH_INVALID for %s', async (_label, body, message) => {
    // Act
    const response = await postCategory(companyPrincipal(), body);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(validationError([{ field: 'name', code: 'LENGTH_INVALID', message }]));
  });

  it.each([
    ['NUL', 'Pumps\u0000', 'U+0000'],
    ['a right-to-left override', 'Pumps\u202Espmup', 'U+202E'],
    ['a left-to-right isolate', '\u2066Pumps', 'U+2066'],
    ['DEL', 'Pumps\u007f', 'U+007F'],
  ])(
    'responds 400 FORMAT_INVALID for a name with control or bidirectional formatting characters',
    async (_label, name, codePoint) => {
      // Act
      const response = await postCategory(companyPrincipal(), { name });
      // Assess
      expect(response.statusCode).toBe(400);
      expect(response.body).toEqual(
        validationError([
          {
            field: 'name',
            code: 'FORMAT_INVALID',
            message: `name may not contain control or bidirectional formatting characters (${codePoint})`,
          },
        ]),
      );
    },
  );

  it('responds 400 REQUIRED for a missing name', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), { description: 'no name' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError([{ field: 'name', code: 'REQUIRED', message: 'name is required' }]),
    );
  });

  it('responds 400 REQUIRED for an empty body', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), undefined);
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'name', code: 'REQUIRED', message: 'name is required' },
    ]);
  });

  it('responds 400 TYPE_INVALID for a number as the name', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), { name: 42 });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError([
        { field: 'name', code: 'TYPE_INVALID', message: 'name must be a string, not number' },
      ]),
    );
  });

  it('responds 400 LENGTH_INVALID for a 501-character description', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), { name: 'Tools', description: 'd'.repeat(501) });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError([
        {
          field: 'description',
          code: 'LENGTH_INVALID',
          message: 'description must be at most 500 characters long',
        },
      ]),
    );
  });

  it('responds 400 TYPE_INVALID for metadata that is an array', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), { name: 'Tools', metadata: ['a'] });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'metadata', code: 'TYPE_INVALID', message: 'metadata must be a JSON object' },
    ]);
  });

  it('responds 400 SIZE_INVALID for metadata over 16384 bytes', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), {
      name: 'Tools',
      metadata: { blob: 'x'.repeat(16_380) },
    });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'metadata', code: 'SIZE_INVALID', message: 'metadata must be at most 16384 bytes as JSON' },
    ]);
  });

  it('reports every invalid field at once', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), { name: 'x', description: 5, metadata: 'm' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body.validationErrors).toEqual([
      { field: 'name', code: 'LENGTH_INVALID', message: 'name must be 2 to 100 characters long' },
      { field: 'description', code: 'TYPE_INVALID', message: 'description must be a string, not number' },
      { field: 'metadata', code: 'TYPE_INVALID', message: 'metadata must be a JSON object' },
    ]);
  });

  it('responds 400 FORMAT_INVALID on "body" for malformed JSON', async () => {
    // Act
    const response = await postCategory(companyPrincipal(), undefined, { rawBody: '{"name": "Tools",' });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      error: 'The body is not valid JSON',
      code: 'VALIDATION_ERROR',
      timestamp: expect.stringMatching(ISO_UTC),
      validationErrors: [{ field: 'body', code: 'FORMAT_INVALID', message: 'The body is not valid JSON' }],
    });
  });

  it.each([
    ['a JSON array', '[{"name":"Tools"}]'],
    ['a JSON string', '"Tools"'],
    ['a JSON number', '7'],
  ])('responds 400 TYPE_INVALID on "body" for %s', async (_label, rawBody) => {
    // Act
    const response = await postCategory(companyPrincipal(), undefined, { rawBody });
    // Assess
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual(
      validationError([{ field: 'body', code: 'TYPE_INVALID', message: 'body must be a JSON object' }]),
    );
  });

  it('creates nothing when the body is refused', async () => {
    // Prepare
    const principal = companyPrincipal();
    // Act
    await postCategory(principal, { name: 'T' });
    const listed = await listCategories(principal, { status: 'all' });
    // Assess
    expect(listed.body.data).toEqual([]);
    expect(listed.body.pagination.total).toBe(0);
  });
});
