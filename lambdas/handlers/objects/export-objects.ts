import { exportObjects } from '#domain/exports/export-service.js';
import { type HttpResult, httpHandler, resourceLocation } from '#http/http-handler.js';
import { exportOperations } from '../../operations/exports.js';

export const handler = httpHandler(
  exportOperations.exportObjects,
  async ({ principal, query, event }): Promise<HttpResult> => {
    const response = await exportObjects(principal.tenantId, query, resourceLocation(event, ''));
    if ('job' in response)
      return { statusCode: 202, body: response.job, headers: { Location: response.location } };
    return {
      rawBody: response.file,
      headers: {
        'Content-Type': response.contentType,
        'Content-Disposition': `attachment; filename="${response.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    };
  },
);
