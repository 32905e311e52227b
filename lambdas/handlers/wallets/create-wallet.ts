import { createWallet } from '#domain/wallets/wallet-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { walletOperations } from '../../operations/wallets.js';

export const handler = httpHandler(
  walletOperations.createWallet,
  async ({ principal, body, event }) => {
    const wallet = await createWallet(principal.tenantId, body);
    return { body: wallet, headers: { Location: resourceLocation(event, `/v2/wallets/${wallet.id}`) } };
  },
  idempotentRequests,
);
