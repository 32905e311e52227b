/**
 * Small but real files of every supported type (spec 4.16), built byte by byte: a PNG, JPEG,
 * GIF and WebP that decode to one pixel, a PDF with a valid cross-reference table, a DOCX and
 * an XLSX as real ZIP packages (stored entries, CRC-32), DOC and XLS as Compound File headers,
 * and UTF-8 text and CSV.
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** One sample: a file name, the MIME type the service must record, and the bytes. */
export interface FileSample {
  fileName: string;
  mimeType: string;
  content: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/** A 1x1 RGBA PNG: signature, IHDR, IDAT (zlib), IEND, each chunk with its CRC. */
export function buildPng(rgba: [number, number, number, number] = [255, 0, 0, 255]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const scanline = Buffer.from([0, ...rgba]); // filter byte 0, then the pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A 1x1 grey baseline JPEG: JFIF, a flat quantisation table, one-symbol Huffman tables (DC
 * category 0, AC end-of-block, both coded `0`), and a scan of two zero bits padded with ones.
 */
export function buildJpeg(): Buffer {
  const segment = (marker: number, payload: number[]) => [
    0xff,
    marker,
    (payload.length + 2) >> 8,
    (payload.length + 2) & 0xff,
    ...payload,
  ];
  const oneSymbolTable = (tableClass: number) => [tableClass, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...segment(0xe0, [...Buffer.from('JFIF\0', 'ascii'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...new Array(64).fill(1)]),
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    ...segment(0xc4, oneSymbolTable(0x00)),
    ...segment(0xc4, oneSymbolTable(0x10)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    0x3f, // DC '0' + AC EOB '0', padded with ones
    0xff,
    0xd9, // EOI
  ]);
}

/** A 1x1 GIF89a (one black pixel). */
export const GIF_SAMPLE = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A 1x1 lossless WebP: `RIFF`, size, `WEBP`, a VP8L chunk. */
export const WEBP_SAMPLE = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** A one-page PDF with a correct cross-reference table. */
export function buildPdf(text = 'Hello'): Buffer {
  const stream = `BT /F1 12 Tf 20 20 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 50] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A ZIP archive of the given entries, stored (method 0, no compression), with CRC-32s. */
function buildZip(entries: ReadonlyArray<{ name: string; content: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const checksum = crc32(entry.content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(entry.content.length, 18);
    local.writeUInt32LE(entry.content.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6); // version needed
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(entry.content.length, 20);
    central.writeUInt32LE(entry.content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.content);
    centrals.push(central, name);
    offset += local.length + name.length + entry.content.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const xml = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`);
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

/** A Word document package: content types, package relationships, `word/document.xml`. */
export function buildDocx(text = 'Hello'): Buffer {
  return buildZip([
    {
      name: '[Content_Types].xml',
      content: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      content: xml(
        `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="word/document.xml"/></Relationships>`,
      ),
    },
    {
      name: 'word/document.xml',
      content: xml(
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
          `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
      ),
    },
  ]);
}

/** A workbook package: content types, relationships, `xl/workbook.xml` and one sheet. */
export function buildXlsx(): Buffer {
  const spreadsheet = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return buildZip([
    {
      name: '[Content_Types].xml',
      content: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      content: xml(
        `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      content: xml(
        `<workbook xmlns="${spreadsheet}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
          '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: xml(
        `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: xml(
        `<worksheet xmlns="${spreadsheet}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Hello</t></is></c></row></sheetData></worksheet>`,
      ),
    },
  ]);
}

/** The 512-byte header of a Compound File (the container of .doc and .xls), padded with zeros. */
export function buildCompoundFile(totalBytes = 1024): Buffer {
  const content = Buffer.alloc(totalBytes);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(content, 0);
  content.writeUInt16LE(0x003e, 24); // minor version
  content.writeUInt16LE(0x0003, 26); // major version 3 (512-byte sectors)
  content.writeUInt16LE(0xfffe, 28); // byte order: little-endian
  content.writeUInt16LE(9, 30); // sector shift
  content.writeUInt16LE(6, 32); // mini sector shift
  return content;
}

const TEXT_SAMPLE = Buffer.from('Inspection notes\nAll good — ünïcödé ✓\n', 'utf8');
const CSV_SAMPLE = Buffer.from('id,name,price\n1,Crane,1200.50\n2,Drill,"45,00"\n', 'utf8');

/** One sample of every supported type (spec 4.16's table). */
export const SUPPORTED_SAMPLES: readonly FileSample[] = [
  { fileName: 'photo.png', mimeType: 'image/png', content: buildPng() },
  { fileName: 'photo.jpg', mimeType: 'image/jpeg', content: buildJpeg() },
  { fileName: 'photo.jpeg', mimeType: 'image/jpeg', content: buildJpeg() },
  { fileName: 'anim.gif', mimeType: 'image/gif', content: GIF_SAMPLE },
  { fileName: 'pic.webp', mimeType: 'image/webp', content: WEBP_SAMPLE },
  { fileName: 'manual.pdf', mimeType: 'application/pdf', content: buildPdf() },
  { fileName: 'notes.txt', mimeType: 'text/plain', content: TEXT_SAMPLE },
  { fileName: 'prices.csv', mimeType: 'text/csv', content: CSV_SAMPLE },
  { fileName: 'letter.doc', mimeType: 'application/msword', content: buildCompoundFile() },
  {
    fileName: 'letter.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    content: buildDocx(),
  },
  { fileName: 'sheet.xls', mimeType: 'application/vnd.ms-excel', content: buildCompoundFile() },
  {
    fileName: 'sheet.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    content: buildXlsx(),
  },
];

/** A sample by its file name. */
export function sample(fileName: string): FileSample {
  const found = SUPPORTED_SAMPLES.find((each) => each.fileName === fileName);
  if (!found) throw new Error(`no sample ${fileName}`);
  return found;
}

/** A PDF of `totalBytes` bytes: the header line, then random bytes (as the e2e 45 MB upload). */
export function largePdf(totalBytes: number): Buffer {
  const content = randomBytes(totalBytes);
  Buffer.from('%PDF-1.4\n', 'ascii').copy(content, 0);
  return content;
}
