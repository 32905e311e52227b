import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { openApiDocument } from '../../openapi/openapi-document.js';
import { openapiOperations } from '../../operations/openapi.js';

// The stage prefix comes from API Gateway's request context, not from a header, so the document
// is the same for every caller and may be cached by anyone.
export const handler = httpHandler(openapiOperations.openapi, async ({ event }) => ({
  body: openApiDocument(resourceLocation(event, '')),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
