import { consistencyBetween } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getLedgerConsistency, async ({ query }) => ({
  body: await consistencyBetween(query.from, query.to),
}));
