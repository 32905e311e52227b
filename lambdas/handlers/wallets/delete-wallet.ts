import { deleteWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.deleteWallet, async ({ principal, path }) => {
  await deleteWallet(walletScopeOf(principal), path.walletId);
  // No body: 204.
  return {};
});
