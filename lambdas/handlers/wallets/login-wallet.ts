import { loginWallet } from '#domain/wallets/wallet-login.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

// The row says `authorization: 'none'`: no principal; the App comes from the username.
export const handler = httpHandler(walletOperations.walletLogin, async ({ body }) => ({
  body: await loginWallet(body),
}));
