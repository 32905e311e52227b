import { downloadFile } from '#domain/files/file-service.js';
import { httpHandler } from '#http/http-handler.js';
import { headerValue } from '#http/http-request.js';
import { fileOperations } from '../../operations/files.js';

export const handler = httpHandler(fileOperations.downloadFile, async ({ principal, path, query, event }) => {
  const download = await downloadFile(principal.tenantId, path.fileId, {
    attachment: query.download,
    ifNoneMatch: headerValue(event.headers, 'if-none-match'),
  });
  switch (download.kind) {
    case 'notModified':
      return { statusCode: 304, headers: download.headers };
    case 'redirect':
      return { statusCode: 302, headers: { ...download.headers, Location: download.location } };
    default:
      return { rawBody: download.content, headers: download.headers };
  }
});
