import { consistencyBetween } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getLedgerConsistency, async ({ query }) => ({
  body: await consistencyBetween(query.from, query.to),
}));
