import { deleteWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

export const handler = httpHandler(walletOperations.deleteWallet, async ({ principal, path }) => {
  await deleteWallet(walletScopeOf(principal), path.walletId);
  // No body: 204.
  return {};
});
