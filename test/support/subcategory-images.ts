/**
 * Small but real image samples for the subcategory tests, and bytes that only pretend to be
 * images. Each sample is a whole, decodable picture of one pixel.
 */

/** A 1x1 RGBA PNG (signature, IHDR, IDAT, IEND). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1x1 GIF89a. */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** The start of a JFIF JPEG (SOI, APP0) and its end marker: begins FF D8 FF. */
export const JPEG_SAMPLE = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);

/** A 1x1 lossless WebP: `RIFF`, little-endian size, `WEBP`, a VP8L chunk. */
export const WEBP_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/** Plain text: a supported file type, but not an image. */
export const TEXT_SAMPLE = Buffer.from('just some text, not a picture\n', 'utf8');

/** 10 MB, the largest image a subcategory takes (spec section 8). */
export const TEN_MEGABYTES = 10 * 1024 * 1024;

/** A PNG signature and header chunk followed by zero padding up to `totalBytes` bytes. */
export function paddedPng(totalBytes: number): Buffer {
  const image = Buffer.alloc(totalBytes);
  PNG_1X1.copy(image, 0, 0, Math.min(PNG_1X1.length, totalBytes));
  return image;
}
