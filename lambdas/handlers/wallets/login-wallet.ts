import { loginWallet } from '#domain/wallets/wallet-login.js';
import { httpHandler } from '#http/http-handler.js';
import { operations } from '../../operations.js';

// The row says `authorization: 'none'`: no principal; the App comes from the username.
export const handler = httpHandler(operations.walletLogin, async ({ body }) => ({
  body: await loginWallet(body),
  // The token is a credential: no cache may keep it.
  headers: { 'Cache-Control': 'no-store' },
}));
