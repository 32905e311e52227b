/** Subcategory images without network: reading base64 (create) and file parts (update). */
import { imageFromBase64, imageFromUpload } from '../../lambdas/domain/subcategories/subcategory-image';
import { SUBCATEGORY_IMAGE_MAX_BYTES } from '../../lambdas/domain/subcategories/subcategory-schemas';
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../lambdas/shared/errors';
import {
  GIF_1X1,
  JPEG_SAMPLE,
  PNG_1X1,
  paddedPng,
  TEN_MEGABYTES,
  TEXT_SAMPLE,
  WEBP_1X1,
} from '../support/subcategory-images';

/** The error a call throws (fails the test when it does not throw). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('SUBCATEGORY_IMAGE_MAX_BYTES', () => {
  it('is 10 MB in bytes', () => {
    expect(SUBCATEGORY_IMAGE_MAX_BYTES).toBe(TEN_MEGABYTES);
  });
});

describe('imageFromBase64', () => {
  it.each([
    ['PNG', PNG_1X1, 'image/png', 'image.png'],
    ['GIF89a', GIF_1X1, 'image/gif', 'image.gif'],
    ['JPEG', JPEG_SAMPLE, 'image/jpeg', 'image.jpg'],
    ['WebP', WEBP_1X1, 'image/webp', 'image.webp'],
  ])('reads a %s from its base64 text, its type from the bytes', (_, bytes, mimeType, originalName) => {
    // Act
    const image = imageFromBase64(bytes.toString('base64'));
    // Assess
    expect(image.content.equals(bytes)).toBe(true);
    expect(image.mimeType).toBe(mimeType);
    expect(image.originalName).toBe(originalName);
  });

  it('reads a data: URL, and base64 broken over lines', () => {
    // Prepare
    const base64 = PNG_1X1.toString('base64');
    const wrapped = base64.replace(/(.{20})/g, '$1\r\n');
    // Act
    const fromDataUrl = imageFromBase64(`data:image/png;base64,${base64}`);
    const fromWrapped = imageFromBase64(wrapped);
    // Assess
    expect(fromDataUrl.content.equals(PNG_1X1)).toBe(true);
    expect(fromWrapped.content.equals(PNG_1X1)).toBe(true);
  });

  it.each([
    ['characters outside base64', 'abc$def=', 'image must be base64 text'],
    ['padding in the middle', 'ab=cd', 'image must be base64 text'],
    ['a length that no base64 text has (4n+1)', 'abcde', 'image must be base64 text'],
    ['nothing', '', 'image is empty'],
  ])('refuses %s with a details.image issue', (_, text, message) => {
    // Act
    const error = thrownBy(() => imageFromBase64(text));
    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(400);
    expect((error as ValidationError).code).toBe('VALIDATION_ERROR');
    expect((error as ValidationError).issues).toEqual([
      { field: 'image', code: expect.any(String), message },
    ]);
  });

  it.each([
    ['text', TEXT_SAMPLE],
    ['a RIFF file that is not WebP', Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt ')],
    ['zero bytes', Buffer.alloc(64)],
  ])('keeps bytes that are not a known picture (%s) as application/octet-stream', (_, bytes) => {
    // Act
    const image = imageFromBase64(bytes.toString('base64'));
    // Assess
    expect(image.content.equals(bytes)).toBe(true);
    expect(image).toMatchObject({ mimeType: 'application/octet-stream', originalName: 'image.bin' });
  });

  it('accepts exactly 10 MB of bytes and refuses one more', () => {
    // Prepare
    const atLimit = paddedPng(TEN_MEGABYTES).toString('base64');
    const overLimit = paddedPng(TEN_MEGABYTES + 1).toString('base64');
    // Act
    const image = imageFromBase64(atLimit);
    const error = thrownBy(() => imageFromBase64(overLimit));
    // Assess
    expect(image.content.length).toBe(TEN_MEGABYTES);
    expect((error as ValidationError).issues).toEqual([
      { field: 'image', code: 'SIZE_INVALID', message: 'image must be at most 10485760 bytes (10 MB)' },
    ]);
  });
});

describe('imageFromUpload', () => {
  const upload = (fileName: string, mimeType: string, content: Buffer) => ({
    fieldName: 'file',
    fileName,
    mimeType,
    content,
  });

  it('keeps the uploaded name as the original name and takes the type from the bytes', () => {
    // Act
    const image = imageFromUpload(upload('holiday.webp', 'image/webp', WEBP_1X1));
    // Assess
    expect(image.originalName).toBe('holiday.webp');
    expect(image.mimeType).toBe('image/webp');
  });

  it.each([
    ['a text file', 'a.txt', 'text/plain', TEXT_SAMPLE],
    ['a PDF', 'a.pdf', 'application/pdf', Buffer.from('%PDF-1.4')],
    ['a .gif of PNG bytes', 'a.gif', 'image/gif', PNG_1X1],
    ['a .webp declared image/png', 'a.webp', 'image/png', WEBP_1X1],
  ])('refuses %s with 415 UNSUPPORTED_FILE_TYPE', (_, fileName, mimeType, content) => {
    // Act
    const error = thrownBy(() => imageFromUpload(upload(fileName, mimeType, content)));
    // Assess
    expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
    expect((error as UnsupportedMediaTypeError).statusCode).toBe(415);
    expect((error as UnsupportedMediaTypeError).code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('accepts exactly 10 MB and refuses one byte more with 413 FILE_TOO_LARGE', () => {
    // Act
    const image = imageFromUpload(upload('big.png', 'image/png', paddedPng(TEN_MEGABYTES)));
    const error = thrownBy(() =>
      imageFromUpload(upload('big.png', 'image/png', paddedPng(TEN_MEGABYTES + 1))),
    );
    // Assess
    expect(image.content.length).toBe(TEN_MEGABYTES);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as PayloadTooLargeError).statusCode).toBe(413);
    expect((error as PayloadTooLargeError).code).toBe('FILE_TOO_LARGE');
  });
});
