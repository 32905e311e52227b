/**
 * The headers of a file download's response (spec 4.17), inline or through S3. A stored
 * file is another company user's content served from our origin, so the browser must never
 * run it: every response says `nosniff` (the declared type is the only type), and a type a
 * browser would run as a document or script (HTML, SVG, XML, JavaScript, ...) is always an
 * attachment in a sandbox, whatever `download` asked. No supported upload type is active today
 * (`#shared/file-types.js`); this holds the rule for the day one is added.
 */
import { bareMimeType } from '#shared/file-types.js';

/** How long browsers and proxies may keep a download (the content of a file id never changes). */
export const DOWNLOAD_MAX_AGE_SECONDS = 300;

/**
 * Types a browser renders as active content: documents that run script or load resources in
 * the serving origin, and scripts. PDF is not among them: browsers show it in their own viewer,
 * whose scripts do not run in the page's origin, and a sandbox would stop that viewer.
 */
const ACTIVE_CONTENT_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
  'application/x-shockwave-flash',
  'multipart/x-mixed-replace',
]);

/**
 * Whether a browser could run content of this type; every `+xml` type counts (browsers render
 * XML, with XSLT and XHTML inside).
 *
 * @example
 * isActiveContentType('image/svg+xml; charset=utf-8') // true
 * isActiveContentType('application/pdf') // false
 */
export function isActiveContentType(mimeType: string): boolean {
  const bare = bareMimeType(mimeType);
  return ACTIVE_CONTENT_TYPES.has(bare) || bare.endsWith('+xml');
}

/**
 * `Content-Disposition` with the original name, ASCII fallback plus RFC 5987 UTF-8 form.
 *
 * @example
 * contentDisposition('attachment', 'report.pdf') // `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Headers every download response carries, the 302 and 304 included. */
export const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

export type DownloadHeaders = Record<string, string> & {
  'Content-Type': string;
  'Content-Disposition': string;
  'Cache-Control': string;
};

/**
 * The content headers of a download: type, disposition, caching, `nosniff`, and for active
 * content `attachment` and `Content-Security-Policy: sandbox` (no script, no same origin).
 *
 * @example
 * downloadHeaders({ mimeType: 'image/svg+xml', originalFileName: 'a.svg' }, { attachment: false })
 * // { 'Content-Type': 'image/svg+xml', 'Content-Disposition': 'attachment; ...', 'Content-Security-Policy': 'sandbox', ... }
 */
export function downloadHeaders(
  file: { mimeType: string; originalFileName: string },
  options: { attachment: boolean },
): DownloadHeaders {
  const active = isActiveContentType(file.mimeType);
  return {
    'Content-Type': file.mimeType,
    'Content-Disposition': contentDisposition(
      options.attachment || active ? 'attachment' : 'inline',
      file.originalFileName,
    ),
    'Cache-Control': `private, max-age=${DOWNLOAD_MAX_AGE_SECONDS}`,
    ...NOSNIFF,
    ...(active ? { 'Content-Security-Policy': 'sandbox' } : {}),
  };
}
