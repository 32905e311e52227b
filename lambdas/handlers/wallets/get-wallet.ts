import { getWallet, walletScopeOf } from '#domain/wallets/wallet-service.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(operations.getWallet, async ({ principal, path }) => ({
  body: await getWallet(walletScopeOf(principal), path.walletId),
}));
