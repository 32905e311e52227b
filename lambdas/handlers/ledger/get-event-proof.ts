import { eventProof } from '#domain/ledger/log-service.js';
import { objectLedgerChain } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { ledgerOperations } from '../../operations/ledger.js';

export const handler = httpHandler(ledgerOperations.getEventProof, async ({ principal, path, query }) => {
  const chain = await objectLedgerChain(principal.tenantId, path.objectId);
  const { tlogProof, ...proof } = await eventProof(chain, path.sequence, query.treeSize);
  if (query.format === 'tlog-proof') {
    return {
      rawBody: Buffer.from(tlogProof, 'utf8'),
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    };
  }
  return { body: proof };
});
