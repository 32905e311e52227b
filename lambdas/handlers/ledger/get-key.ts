import { logVerifierKey } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getLedgerKey, async () => ({
  rawBody: Buffer.from(`${await logVerifierKey()}\n`, 'utf8'),
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
}));
