import { exportObjects } from '#domain/exports/export-service.js';
import { type HttpResult, httpHandler, resourceLocation } from '#http/http-handler.js';
import { exportOperations } from '../../operations/exports.js';

export const handler = httpHandler(
  exportOperations.exportObjects,
  async ({ principal, query, event }): Promise<HttpResult> => {
    const answer = await exportObjects(principal.tenantId, query, resourceLocation(event, ''));
    if ('job' in answer) return { statusCode: 202, body: answer.job, headers: { Location: answer.location } };
    return {
      rawBody: answer.file,
      headers: {
        'Content-Type': answer.contentType,
        'Content-Disposition': `attachment; filename="${answer.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    };
  },
);
