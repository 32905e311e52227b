import { eventProof } from '#domain/ledger/log-service.js';
import { objectLedgerChain } from '#domain/objects/object-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getEventProof, async ({ principal, path, query }) => {
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
