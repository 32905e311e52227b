import { listWallets, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

export const handler = httpHandler(walletOperations.listWallets, async ({ principal, query }) => ({
  body: await listWallets(walletScopeOf(principal), query),
}));
