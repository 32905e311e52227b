import { updateWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

export const handler = httpHandler(walletOperations.updateWallet, async ({ principal, path, body }) => ({
  body: await updateWallet(walletScopeOf(principal), path.walletId, body),
}));
