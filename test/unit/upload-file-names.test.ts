/**
 * Upload file names are bounded (255 characters) and follow the rule of names (no control or
 * bidirectional formatting characters) before anything else reads them: in the multipart
 * forms (`parseMultipart`, the subcategory image and the import file), in upload sessions
 * (`createUploadSessionBody`) and in the import's `fileName` option.
 */
import { createUploadSessionBody } from '../../lambdas/domain/files/file-schemas';
import { createImportFields } from '../../lambdas/domain/imports/import-schemas';
import { parseMultipart } from '../../lambdas/http/multipart';
import { ValidationError } from '../../lambdas/shared/errors';
import { checkUploadFileName, FILE_NAME_MAX_LENGTH } from '../../lambdas/shared/name-text';

const BOUNDARY = 'file-name-boundary-3c1e';

/** A multipart event with one file part whose Content-Disposition carries `disposition`. */
const eventWithFilePart = (disposition: string) =>
  ({
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n` +
        `Content-Type: text/plain\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`,
      'utf8',
    ).toString('base64'),
    isBase64Encoded: true,
  }) as unknown as Parameters<typeof parseMultipart>[0];

/** The issues of a refusal, or [] when `act` passes. */
async function issuesOf(act: () => unknown): Promise<unknown[]> {
  try {
    await act();
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues;
  }
}

describe('checkUploadFileName', () => {
  it(`takes a name of ${FILE_NAME_MAX_LENGTH} characters, counted as code points`, async () => {
    // Arrange
    const longest = `${'é'.repeat(FILE_NAME_MAX_LENGTH - 4)}.txt`;
    const astral = `${'😀'.repeat(FILE_NAME_MAX_LENGTH - 4)}.txt`; // 2 UTF-16 units each
    // Act and assess
    expect(await issuesOf(() => checkUploadFileName(longest, 'file'))).toEqual([]);
    expect(await issuesOf(() => checkUploadFileName(astral, 'file'))).toEqual([]);
  });

  it(`refuses a name of ${FILE_NAME_MAX_LENGTH + 1} characters with LENGTH_INVALID naming the field`, async () => {
    // Act
    const issues = await issuesOf(() =>
      checkUploadFileName(`${'a'.repeat(FILE_NAME_MAX_LENGTH - 3)}.txt`, 'file'),
    );
    // Assess
    expect(issues).toEqual([
      { field: 'file', code: 'LENGTH_INVALID', message: 'file name must be 1 to 255 characters long' },
    ]);
  });

  it.each([
    ['RLO', 'invoice\u202Etxt.exe', 'U+202E'],
    ['NUL', 'a\u0000b.txt', 'U+0000'],
    ['a line feed', 'a\nb.txt', 'U+000A'],
    ['an isolate', 'a\u2066b.txt', 'U+2066'],
  ])('refuses %s with FORMAT_INVALID naming the character', async (_label, name, codePoint) => {
    // Act
    const issues = await issuesOf(() => checkUploadFileName(name, 'file'));
    // Assess
    expect(issues).toEqual([
      {
        field: 'file',
        code: 'FORMAT_INVALID',
        message: `file name may not contain control or bidirectional formatting characters (${codePoint})`,
      },
    ]);
  });

  it('leaves a nameless part to its reader (FormData names a blob, curl may send none)', async () => {
    expect(await issuesOf(() => checkUploadFileName('', 'file'))).toEqual([]);
  });
});

describe('parseMultipart refuses a file part by its name', () => {
  it('a 15 KB name: 400 before the file is read', async () => {
    // Act
    const issues = await issuesOf(() =>
      parseMultipart(eventWithFilePart(`filename="${'a'.repeat(15_000)}.png"`), { maxFileBytes: 1024 }),
    );
    // Assess
    expect(issues).toEqual([expect.objectContaining({ field: 'file', code: 'LENGTH_INVALID' })]);
  });

  it('a NUL sent encoded (filename*): 400 FORMAT_INVALID', async () => {
    // Act
    const issues = await issuesOf(() =>
      parseMultipart(eventWithFilePart("filename*=UTF-8''a%00b.txt"), { maxFileBytes: 1024 }),
    );
    // Assess
    expect(issues).toEqual([expect.objectContaining({ field: 'file', code: 'FORMAT_INVALID' })]);
  });

  it('a good name passes with the file', async () => {
    // Act
    const body = await parseMultipart(eventWithFilePart('filename="notes.txt"'), { maxFileBytes: 1024 });
    // Assess
    expect(body.files.map((file) => file.fileName)).toEqual(['notes.txt']);
  });
});

describe('file names given as fields', () => {
  const base = { mimeType: 'text/plain', size: 5 };

  it.each([
    ['an upload session', (fileName: string) => createUploadSessionBody.parse({ ...base, fileName }, 'body')],
    ["an import's fileName option", (fileName: string) => createImportFields.parse({ fileName }, 'body')],
  ])('%s: 256 characters or a bidirectional override is a 400 naming fileName', async (_label, parse) => {
    // Act
    const tooLong = await issuesOf(() => parse(`${'a'.repeat(252)}.txt`));
    const override = await issuesOf(() => parse('photo\u202Egnp.exe'));
    const fine = await issuesOf(() => parse('photo.png'));
    // Assess
    expect(tooLong).toEqual([expect.objectContaining({ field: 'fileName', code: 'LENGTH_INVALID' })]);
    expect(override).toEqual([expect.objectContaining({ field: 'fileName', code: 'FORMAT_INVALID' })]);
    expect(fine).toEqual([]);
  });
});
