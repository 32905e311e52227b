import { logVerifierKey } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getLedgerKey, async () => ({
  rawBody: Buffer.from(`${await logVerifierKey()}\n`, 'utf8'),
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
}));
