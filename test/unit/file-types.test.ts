/**
 * The three-signal type check (spec 4.16 table): extension, declared MIME type and leading
 * bytes, on real samples of every supported type.
 */
import { checkFileType, SUPPORTED_TYPES } from '../../lambdas/shared/file-types';
import {
  buildCompoundFile,
  buildDocx,
  buildJpeg,
  buildPdf,
  buildPng,
  buildXlsx,
  GIF_SAMPLE,
  SUPPORTED_SAMPLES,
  WEBP_SAMPLE,
} from '../support/file-samples';

const mimeOf = (result: ReturnType<typeof checkFileType>) =>
  result.supported ? result.type.mimeType : undefined;

describe('checkFileType: the supported types', () => {
  it('supports exactly the spec table: 11 MIME types, 12 extensions', () => {
    // Act
    const table = SUPPORTED_TYPES.map((type) => [type.mimeType, type.extensions]);
    // Assess
    expect(table).toEqual([
      ['image/jpeg', ['.jpg', '.jpeg']],
      ['image/png', ['.png']],
      ['image/gif', ['.gif']],
      ['image/webp', ['.webp']],
      ['application/pdf', ['.pdf']],
      ['text/plain', ['.txt']],
      ['text/csv', ['.csv']],
      ['application/msword', ['.doc']],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', ['.docx']],
      ['application/vnd.ms-excel', ['.xls']],
      ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ['.xlsx']],
    ]);
  });

  it.each(SUPPORTED_SAMPLES.map((sample) => [sample.fileName, sample] as const))(
    '%s is accepted with its own type, with application/octet-stream, and with no declared type',
    (_name, sample) => {
      // Act
      const declared = checkFileType(sample.fileName, sample.mimeType, sample.content);
      const withParameters = checkFileType(
        sample.fileName,
        `${sample.mimeType}; charset=utf-8`,
        sample.content,
      );
      const generic = checkFileType(sample.fileName, 'application/octet-stream', sample.content);
      const none = checkFileType(sample.fileName, undefined, sample.content);
      const upperCaseName = checkFileType(
        sample.fileName.toUpperCase(),
        sample.mimeType.toUpperCase(),
        sample.content,
      );
      // Assess
      for (const result of [declared, withParameters, generic, none, upperCaseName]) {
        expect(mimeOf(result)).toBe(sample.mimeType);
      }
    },
  );
});

describe('checkFileType: a renamed file is refused', () => {
  /** Content families: within one, the bytes cannot tell the types apart (documented limits). */
  const family: Record<string, string> = {
    'image/png': 'png',
    'image/jpeg': 'jpeg',
    'image/gif': 'gif',
    'image/webp': 'webp',
    'application/pdf': 'pdf',
    'text/plain': 'text',
    'text/csv': 'text',
    'application/msword': 'compound',
    'application/vnd.ms-excel': 'compound',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  };
  const binaries = SUPPORTED_SAMPLES.filter((sample) => family[sample.mimeType] !== 'text');
  const cases = SUPPORTED_SAMPLES.flatMap((named) =>
    binaries
      .filter((content) => family[content.mimeType] !== family[named.mimeType])
      // Text accepts any UTF-8 without NUL: the ASCII-only PDF sample is such text.
      .filter((content) => !(family[named.mimeType] === 'text' && content.mimeType === 'application/pdf'))
      .map((content) => [named.fileName, content.fileName, named, content] as const),
  );

  it.each(cases)(
    'named %s, bytes of %s: refused, also when declared application/octet-stream',
    (_a, _b, named, content) => {
      // Act
      const declared = checkFileType(named.fileName, named.mimeType, content.content);
      const generic = checkFileType(named.fileName, 'application/octet-stream', content.content);
      // Assess
      expect(declared).toEqual({ supported: false, reason: expect.stringContaining('content') });
      expect(generic.supported).toBe(false);
    },
  );
});

describe('checkFileType: names without an extension, and declared types clients use', () => {
  it.each([
    ['blob', 'image/png', buildPng(), 'image/png'],
    ['photo', 'image/jpeg', buildJpeg(), 'image/jpeg'],
    ['', 'application/pdf', buildPdf(), 'application/pdf'],
    ['sheet', 'application/vnd.ms-excel', buildCompoundFile(), 'application/vnd.ms-excel'],
    ['table', 'application/vnd.ms-excel', Buffer.from('a,b\n1,2\n'), 'text/csv'],
    ['notes', 'text/plain', Buffer.from('hello'), 'text/plain'],
    ['photo.jpg', 'image/jpg', buildJpeg(), 'image/jpeg'],
    ['photo.jpeg', 'image/pjpeg', buildJpeg(), 'image/jpeg'],
    ['data.csv', 'text/plain', Buffer.from('a,b\n1,2\n'), 'text/csv'],
    // A last dot-part without a letter is part of the name, not an extension.
    ['scan 2024.01.05', 'image/png', buildPng(), 'image/png'],
    ['notes v1.0', 'text/plain', Buffer.from('hello'), 'text/plain'],
  ])(
    '%s declared %s is judged by the declared type and the bytes',
    (fileName, mimeType, content, expected) => {
      // Act
      const result = checkFileType(fileName, mimeType, content);
      // Assess
      expect(mimeOf(result)).toBe(expected);
    },
  );
});

describe('checkFileType: other refusals', () => {
  it.each([
    ['setup.exe', 'application/octet-stream', Buffer.from('MZ')],
    ['archive.zip', 'application/zip', buildDocx()],
    ['logo.svg', 'image/svg+xml', Buffer.from('<svg/>')],
    ['photo.png.exe', 'image/png', buildPng()],
  ])('%s (%s) is not a supported extension', (fileName, mimeType, content) => {
    // Act
    const result = checkFileType(fileName, mimeType, content);
    // Assess
    expect(result.supported).toBe(false);
  });

  it.each([
    ['photo.png', 'image/jpeg', buildPng()],
    ['photo.jpg', 'image/png', buildJpeg()],
    ['manual.pdf', 'text/plain', buildPdf()],
    ['notes.txt', 'text/csv', Buffer.from('a')],
    ['letter.doc', 'application/vnd.ms-excel', buildCompoundFile()],
    ['sheet.xlsx', 'application/zip', buildXlsx()],
    ['anim.gif', 'image/webp', GIF_SAMPLE],
    ['pic.webp', 'image/gif', WEBP_SAMPLE],
  ])('%s declared %s contradicts its extension', (fileName, mimeType, content) => {
    // Act
    const result = checkFileType(fileName, mimeType, content);
    // Assess
    expect(result).toEqual({ supported: false, reason: expect.stringContaining('does not match') });
  });

  it.each([
    ['photo', 'application/octet-stream', buildPng()],
    ['blob', '', buildPng()],
    ['photo', 'image/png', buildJpeg()],
    ['logo', 'image/svg+xml', Buffer.from('<svg/>')],
  ])(
    '%s without an extension, declared %s, is refused: one signal is not enough',
    (fileName, mimeType, content) => {
      // Act
      const result = checkFileType(fileName, mimeType, content);
      // Assess
      expect(result.supported).toBe(false);
    },
  );

  it('an empty .png is refused; text is checked for NUL bytes and UTF-8', () => {
    // Act
    const emptyPng = checkFileType('photo.png', 'image/png', Buffer.alloc(0));
    const withNul = checkFileType('notes.txt', 'text/plain', Buffer.from('a\0b'));
    const latin1 = checkFileType('notes.txt', 'text/plain', Buffer.from('caf\xe9', 'latin1'));
    const utf8 = checkFileType('notes.txt', 'text/plain', Buffer.from('café ✓'));
    // Assess
    expect(emptyPng.supported).toBe(false);
    expect(withNul.supported).toBe(false);
    expect(latin1.supported).toBe(false);
    expect(utf8.supported).toBe(true);
  });

  it('a 64 KiB text sample cut inside a multi-byte character is still text', () => {
    // Prepare: 65,535 ASCII bytes then a 3-byte '€' that the 64 KiB sample cuts after its first byte.
    const content = Buffer.concat([Buffer.alloc(64 * 1024 - 1, 'a'), Buffer.from('€'), Buffer.from('tail')]);
    // Act
    const result = checkFileType('notes.txt', 'text/plain', content);
    // Assess
    expect(mimeOf(result)).toBe('text/plain');
  });
});
