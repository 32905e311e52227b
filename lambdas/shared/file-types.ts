/**
 * The supported file types (spec 4.16) and the check of an upload against them on three
 * signals: the file name's extension, the declared MIME type, and the leading bytes. A renamed
 * file fails the third. A declared type of `application/octet-stream` (or none), which clients
 * send when they do not know better, is judged by the other two signals; so is a name without
 * any extension (`FormData` names a nameless blob `blob`). One signal alone is not enough.
 */
export interface SupportedType {
  kind: 'image' | 'document' | 'text' | 'word' | 'spreadsheet';
  mimeType: string;
  extensions: string[];
  /** Other declared types clients send for it (e.g. Windows browsers declare .csv as Excel). */
  aliases?: string[];
  /** Whether the content looks like this type. */
  matches(content: Buffer): boolean;
}

const startsWith = (content: Buffer, bytes: number[], offset = 0) =>
  bytes.every((byte, index) => content[offset + index] === byte);
const ascii = (text: string) => [...Buffer.from(text, 'ascii')];

const isJpeg = (content: Buffer) => startsWith(content, [0xff, 0xd8, 0xff]);
const isPng = (content: Buffer) => startsWith(content, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isGif = (content: Buffer) =>
  startsWith(content, ascii('GIF87a')) || startsWith(content, ascii('GIF89a'));
const isWebp = (content: Buffer) =>
  startsWith(content, ascii('RIFF')) && startsWith(content, ascii('WEBP'), 8);
const isPdf = (content: Buffer) => startsWith(content, ascii('%PDF-'));
/** Compound File Binary: the container of .doc and .xls. */
const isCompoundFile = (content: Buffer) =>
  startsWith(content, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const isZip = (content: Buffer) => startsWith(content, [0x50, 0x4b, 0x03, 0x04]);
/** An Office Open XML package holds its parts under `word/` (documents) or `xl/` (workbooks). */
const isZipWithPart = (content: Buffer, folder: string) =>
  isZip(content) && content.includes(Buffer.from(folder, 'ascii'));

/** Text: no NUL byte, and valid UTF-8 (a character cut at the end of the sample is allowed). */
function isText(content: Buffer): boolean {
  const sample = content.subarray(0, 64 * 1024);
  if (sample.includes(0)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const cut of [0, 1, 2, 3]) {
    try {
      decoder.decode(sample.subarray(0, Math.max(0, sample.length - cut)));
      return true;
    } catch {
      if (sample.length < 64 * 1024) return false; // the whole file was read: nothing was cut
    }
  }
  return false;
}

export const SUPPORTED_TYPES: readonly SupportedType[] = [
  {
    kind: 'image',
    mimeType: 'image/jpeg',
    extensions: ['.jpg', '.jpeg'],
    aliases: ['image/jpg', 'image/pjpeg'],
    matches: isJpeg,
  },
  { kind: 'image', mimeType: 'image/png', extensions: ['.png'], matches: isPng },
  { kind: 'image', mimeType: 'image/gif', extensions: ['.gif'], matches: isGif },
  { kind: 'image', mimeType: 'image/webp', extensions: ['.webp'], matches: isWebp },
  { kind: 'document', mimeType: 'application/pdf', extensions: ['.pdf'], matches: isPdf },
  { kind: 'text', mimeType: 'text/plain', extensions: ['.txt'], matches: isText },
  {
    kind: 'text',
    mimeType: 'text/csv',
    extensions: ['.csv'],
    // CSV is plain text, and some clients declare it so.
    aliases: ['application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel', 'text/plain'],
    matches: isText,
  },
  { kind: 'word', mimeType: 'application/msword', extensions: ['.doc'], matches: isCompoundFile },
  {
    kind: 'word',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['.docx'],
    matches: (content) => isZipWithPart(content, 'word/'),
  },
  {
    kind: 'spreadsheet',
    mimeType: 'application/vnd.ms-excel',
    extensions: ['.xls'],
    matches: isCompoundFile,
  },
  {
    kind: 'spreadsheet',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['.xlsx'],
    matches: (content) => isZipWithPart(content, 'xl/'),
  },
];

/** Declared types that say nothing about the content. */
const GENERIC_MIME_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export type TypeCheck = { supported: true; type: SupportedType } | { supported: false; reason: string };

const WHITESPACE = /\s/u;
const LETTER = /\p{L}/u;

/**
 * The extension, with its dot, in lower case; '' when there is none. A last dot-part without a
 * letter or with a space (`scan 2024.01.05`, `v 1. final`) is part of the name, not an
 * extension. Two single-character searches, not one pattern with two runs around a letter:
 * that one backtracked quadratically on a long dot-part that ends in a space.
 *
 * @example
 * extensionOf('Scan.PDF') // '.pdf'
 * extensionOf('scan 2024.01.05') // ''
 */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return '';
  const extension = fileName.slice(dot).toLowerCase();
  return LETTER.test(extension) && !WHITESPACE.test(extension) ? extension : '';
};

/**
 * A declared type without parameters, in lower case.
 *
 * @example
 * bareMimeType('Text/CSV; charset=utf-8') // 'text/csv'
 */
export function bareMimeType(declaredMimeType: string | undefined): string {
  return (declaredMimeType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The types a file may be by its name and declared type alone (before any byte is seen).
 *
 * @example
 * typesByNameAndDeclaration('a.csv', 'text/csv; charset=utf-8') // [text/csv]
 */
export function typesByNameAndDeclaration(
  fileName: string,
  declaredMimeType: string | undefined,
  allowedKinds?: ReadonlyArray<SupportedType['kind']>,
): { types: SupportedType[]; reason?: string } {
  const extension = extensionOf(fileName);
  const declared = bareMimeType(declaredMimeType);
  const allowed = SUPPORTED_TYPES.filter((type) => !allowedKinds || allowedKinds.includes(type.kind));
  const isDeclared = (type: SupportedType) => type.mimeType === declared || type.aliases?.includes(declared);
  if (extension === '') {
    // No extension: the declared type names the candidates (the bytes must agree).
    const types = GENERIC_MIME_TYPES.has(declared) ? [] : allowed.filter(isDeclared);
    if (types.length === 0) {
      const declaration = declared ? `the declared type ${declared}` : 'no declared type';
      return { types, reason: `a file name without an extension and ${declaration} is not supported` };
    }
    return { types };
  }
  const candidates = allowed.filter((type) => type.extensions.includes(extension));
  if (candidates.length === 0)
    return { types: [], reason: `files ending in "${extension}" are not supported` };
  const types = GENERIC_MIME_TYPES.has(declared) ? candidates : candidates.filter(isDeclared);
  if (types.length === 0)
    return { types, reason: `the declared type ${declared} does not match the extension ${extension}` };
  return { types };
}

/**
 * Checks a file against the supported types on all three signals.
 *
 * @example
 * checkFileType('a.png', 'image/png', pngBytes) // { supported: true, type: { mimeType: 'image/png', ... } }
 */
export function checkFileType(
  fileName: string,
  declaredMimeType: string | undefined,
  content: Buffer,
  allowedKinds?: ReadonlyArray<SupportedType['kind']>,
): TypeCheck {
  const { types, reason } = typesByNameAndDeclaration(fileName, declaredMimeType, allowedKinds);
  if (reason) return { supported: false, reason };
  const type = types.find((each) => each.matches(content));
  if (!type) {
    const expected = extensionOf(fileName) || types.map((each) => each.mimeType).join(' or ');
    return { supported: false, reason: `the content is not a ${expected} file` };
  }
  return { supported: true, type };
}
