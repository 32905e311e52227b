/**
 * Which usage key an App's wallet sessions count on: the App's own wallet usage key when the
 * admin CLI gave the App one (`create-app`, `set-wallet-plan`), else none, and the authorizer
 * falls back to the stack's shared key.
 */
import { findAppWalletUsage } from '#repositories/app-usage-repository.js';

/**
 * The value of the App's wallet usage key (AWS), undefined when it has none.
 *
 * @example
 * const usageIdentifierKey = await findAppWalletUsageKey(appId); // 'ark-usage-...' or undefined
 */
export async function findAppWalletUsageKey(appId: string): Promise<string | undefined> {
  return (await findAppWalletUsage(appId))?.walletUsageIdentifierKey;
}
