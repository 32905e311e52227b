import { listCompanyEvents } from '#domain/ledger/company-activity.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.listCompanyEvents, async ({ principal, query }) => ({
  body: await listCompanyEvents(principal.tenantId, query),
}));
