import { createWallet } from '#domain/wallets/wallet-service.js';
import { httpHandler, resourceLocation } from '#http/http-handler.js';
import { idempotentRequests } from '#http/idempotent-requests.js';
import { operations } from '../../operations.js';

export const handler = httpHandler(
  operations.createWallet,
  async ({ principal, body, event }) => {
    const wallet = await createWallet(principal.tenantId, body);
    return { body: wallet, headers: { Location: resourceLocation(event, `/v2/wallets/${wallet.id}`) } };
  },
  idempotentRequests,
);
