import { listWallets, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.listWallets, async ({ principal, query }) => ({
  body: await listWallets(walletScopeOf(principal), query),
}));
