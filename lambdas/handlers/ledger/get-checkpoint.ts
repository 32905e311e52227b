import { latestCheckpoint } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getLedgerCheckpoint, async () => ({
  rawBody: Buffer.from(await latestCheckpoint(), 'utf8'),
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
}));
