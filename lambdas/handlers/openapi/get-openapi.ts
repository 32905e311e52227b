import { httpHandler, resourceLocation } from '#shared/http-handler.js';
import { headerValue } from '#shared/http-request.js';
import { openApiDocument, serverUrlOf } from '../../openapi/openapi-document.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.openapi, async ({ event }) => ({
  body: openApiDocument(
    serverUrlOf({
      host: headerValue(event.headers, 'host'),
      forwardedProto: headerValue(event.headers, 'x-forwarded-proto'),
      stagePrefix: resourceLocation(event, ''),
    }),
  ),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
