import { objectBundle } from '#domain/ledger/object-bundle.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getObjectBundle, async ({ principal, path, query }) => ({
  body: await objectBundle(principal.tenantId, path.objectId, query),
}));
