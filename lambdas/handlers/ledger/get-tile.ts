import { logTile } from '#domain/ledger/log-service.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getLedgerTile, async ({ path }) => {
  const { data, full } = await logTile(`tile/${path.tilePath}`);
  return {
    rawBody: data,
    headers: {
      'Content-Type': 'application/octet-stream',
      // A full tile never changes; a partial one is superseded as the log grows.
      'Cache-Control': full ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
    },
  };
});
