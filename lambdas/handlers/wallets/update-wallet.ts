import { updateWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.updateWallet, async ({ principal, path, body }) => ({
  body: await updateWallet(walletScopeOf(principal), path.walletId, body),
}));
