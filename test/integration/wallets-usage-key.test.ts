/**
 * Each App's wallets count against that App's own usage key: a session records the App's
 * wallet usage key at login (`app-usage-repository.ts`, set by the admin CLI), and the real
 * authorizer names it as `usageIdentifierKey` for every call the session makes. An App without
 * one falls back to the stack's shared key, as keys without their own do. Against DynamoDB Local.
 */
import { handler as authorizer } from '../../lambdas/authorizer/api-key-authorizer';
import { issueApiKey } from '../../lambdas/domain/identity/api-keys';
import { createApp } from '../../lambdas/domain/identity/tenants';
import { handler as createWalletHandler } from '../../lambdas/handlers/wallets/create-wallet';
import { handler as loginHandler } from '../../lambdas/handlers/wallets/login-wallet';
import { findAppWalletUsage, setAppWalletUsage } from '../../lambdas/repositories/app-usage-repository';
import { APP_PERMISSIONS, COMPANY_PERMISSIONS } from '../../lambdas/shared/principal';
import { invoke } from '../support/api-events';
import { appPrincipal } from '../support/principals';

const METHOD_ARN = 'arn:aws:execute-api:us-east-1:000000000000:api/test/GET/v2/wallets';
const PASSWORD = 'first password';

/** A new App with one wallet that has logged in; its session token. */
async function walletSessionOf(appId: string): Promise<string> {
  const app = appPrincipal(APP_PERMISSIONS, appId);
  const created = await invoke(createWalletHandler, {
    method: 'POST',
    path: '/v2/wallets',
    principal: app,
    body: { username: 'scanner', password: PASSWORD },
  });
  const login = await invoke(loginHandler, {
    method: 'POST',
    path: '/v2/wallets/login',
    body: { username: created.body.fullUsername, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login: ${JSON.stringify(login.body)}`);
  return login.body.token;
}

const usageKeyOfCall = async (headers: Record<string, string>) =>
  (await authorizer({ type: 'REQUEST', methodArn: METHOD_ARN, headers } as never)).usageIdentifierKey;

describe("wallet sessions and their App's usage key", () => {
  it("names each App's own wallet usage key for its wallets' calls, one key per App", async () => {
    // Prepare
    const first = await createApp('Usage one');
    const second = await createApp('Usage two');
    await setAppWalletUsage(first.tenantId, {
      walletUsagePlan: 'default',
      walletUsageIdentifierKey: 'ark-usage-one',
    });
    await setAppWalletUsage(second.tenantId, {
      walletUsagePlan: 'high',
      walletUsageIdentifierKey: 'ark-usage-two',
    });
    const firstToken = await walletSessionOf(first.tenantId);
    const secondToken = await walletSessionOf(second.tenantId);
    // Act
    const firstKey = await usageKeyOfCall({ Authorization: `Bearer ${firstToken}` });
    const secondKey = await usageKeyOfCall({ Authorization: `Bearer ${secondToken}` });
    // Assess
    expect(firstKey).toBe('ark-usage-one');
    expect(secondKey).toBe('ark-usage-two');
  });

  it('falls back to the shared key for the wallets of an App that has no usage key yet', async () => {
    // Prepare
    const app = await createApp('No usage key');
    const token = await walletSessionOf(app.tenantId);
    const { apiKey } = await issueApiKey('company', app.tenantId, COMPANY_PERMISSIONS);
    // Act
    const walletKey = await usageKeyOfCall({ Authorization: `Bearer ${token}` });
    const sharedKey = await usageKeyOfCall({ 'X-API-Key': apiKey });
    // Assess: the same as a key without a usage key of its own
    expect(walletKey).toBe(sharedKey);
  });

  it('records a plan without a key (local mode) and refuses an App that does not exist', async () => {
    // Prepare
    const app = await createApp('Local plan');
    // Act
    const recorded = await setAppWalletUsage(app.tenantId, { walletUsagePlan: 'high' });
    const missing = await setAppWalletUsage('0f0e0d0c-0b0a-4909-8807-060504030201', {
      walletUsagePlan: 'high',
    });
    // Assess
    expect(recorded).toBe(true);
    expect(await findAppWalletUsage(app.tenantId)).toEqual({ walletUsagePlan: 'high' });
    expect(missing).toBe(false);
  });
});
