import { latestCheckpoint } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getLedgerCheckpoint, async () => ({
  rawBody: Buffer.from(await latestCheckpoint(), 'utf8'),
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
}));
