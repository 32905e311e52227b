import { getWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

export const handler = httpHandler(walletOperations.getWallet, async ({ principal, path }) => ({
  body: await getWallet(walletScopeOf(principal), path.walletId),
}));
