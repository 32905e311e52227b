/** The headers of a file download: nosniff always, and attachment in a sandbox for active content. */
import { downloadHeaders, isActiveContentType } from '../../lambdas/domain/files/download-headers';
import { SUPPORTED_TYPES } from '../../lambdas/shared/file-types';

describe('isActiveContentType', () => {
  it.each([
    'text/html',
    'TEXT/HTML; charset=utf-8',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/xml',
    'application/rss+xml',
    'text/javascript',
    'application/javascript',
    'application/ecmascript',
  ])('%s is active', (mimeType) => {
    expect(isActiveContentType(mimeType)).toBe(true);
  });

  it.each(['application/pdf', 'text/plain', 'text/csv; charset=utf-8', 'image/png', 'application/json'])(
    '%s is not',
    (mimeType) => {
      expect(isActiveContentType(mimeType)).toBe(false);
    },
  );

  it('no type an upload can be stored as is active today', () => {
    expect(SUPPORTED_TYPES.filter((type) => isActiveContentType(type.mimeType))).toEqual([]);
  });
});

describe('downloadHeaders', () => {
  it('a passive type: inline unless asked, nosniff, no CSP', () => {
    // Act
    const inline = downloadHeaders(
      { mimeType: 'image/png', originalFileName: 'a.png' },
      { attachment: false },
    );
    const attachment = downloadHeaders(
      { mimeType: 'image/png', originalFileName: 'a.png' },
      { attachment: true },
    );
    // Assess
    expect(inline).toEqual({
      'Content-Type': 'image/png',
      'Content-Disposition': `inline; filename="a.png"; filename*=UTF-8''a.png`,
      'Cache-Control': 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(attachment['Content-Disposition']).toBe(`attachment; filename="a.png"; filename*=UTF-8''a.png`);
  });

  it.each(['text/html', 'image/svg+xml', 'application/xml', 'text/javascript'])(
    '%s: always an attachment, in a sandbox, with nosniff',
    (mimeType) => {
      // Act
      const headers = downloadHeaders({ mimeType, originalFileName: 'x' }, { attachment: false });
      // Assess
      expect(headers).toMatchObject({
        'Content-Type': mimeType,
        'Content-Disposition': `attachment; filename="x"; filename*=UTF-8''x`,
        'Content-Security-Policy': 'sandbox',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  );
});
