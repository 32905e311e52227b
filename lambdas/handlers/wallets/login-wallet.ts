import { loginWallet } from '#domain/wallets/wallet-login.js';
import { httpHandler } from '#http/http-handler.js';
import { walletOperations } from '../../operations/wallets.js';

/** When the event names no address (never in API Gateway): one shared throttle for all such. */
const UNKNOWN_ADDRESS = 'unknown';

// The row says `authorization: 'none'`: no principal; the App comes from the username. The
// throttle counts attempts by API Gateway's source IP (the local gateway sets the socket's).
export const handler = httpHandler(walletOperations.walletLogin, async ({ body, event }) => ({
  body: await loginWallet(body, event.requestContext?.identity?.sourceIp || UNKNOWN_ADDRESS),
}));
