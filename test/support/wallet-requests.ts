/** Wallet requests through the handlers, for tests. */
import type { WalletView } from '../../lambdas/domain/wallets/wallet-view';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import type { Principal } from '../../lambdas/shared/principal';
import { invoke } from './api-events';

/** The password of the wallets {@link createWalletOk} creates. */
export const WALLET_PASSWORD = 'first password';

/** Creates a wallet of the principal's App; throws unless it is created (201). */
export async function createWalletOk(
  principal: Principal,
  username: string,
  metadata?: object,
): Promise<WalletView> {
  const response = await invoke(createWalletHandler, {
    method: 'POST',
    path: '/v2/wallets',
    principal,
    body: { username, password: WALLET_PASSWORD, metadata },
  });
  if (response.statusCode !== 201) throw new Error(`create ${username}: ${JSON.stringify(response.body)}`);
  return response.body;
}
