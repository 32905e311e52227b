/**
 * The admin CLI: companies, Apps, API keys and identity providers, and a company's objects in
 * bulk (`import`, `export`, see `bulk-objects.ts`). Each command prints one JSON line on stdout
 * (`export` without `--out` prints the file instead);
 * errors print one line on stderr and nothing on stdout, with exit code 2 for a usage error
 * (see `admin-arguments.ts`, checked before connecting) and 1 for any other error.
 *
 * Local mode (default): run from the project root while `npm start` runs, with the same
 * `DATA_DIR`; the CLI reads the running stack's addresses from the data folder.
 * Deployed stack: set `TABLE_NAME` (stack output `TableName`) and AWS credentials; for
 * `revoke-key` also `REST_API_ID` and `API_STAGE` so the authorizer cache is flushed at once
 * (see `stack-connection.ts`).
 */
import { DEFAULT_USAGE_PLAN, type UsagePlanName } from '../lib/api-gateway-settings.js';
import { ADMIN_USAGE, type AdminCommand, parseAdminArguments, UsageError } from './admin-arguments.js';
import { exportCompanyObjects, importCompanyObjects } from './bulk-objects.js';
import { connectToStack } from './stack-connection.js';

const HELP_HINT = 'Usage: npm run --silent admin -- --help';

/** Runs a command whose arguments were checked; the result is the command's JSON line. */
async function run(
  request: Exclude<AdminCommand, { command: 'help' }>,
): Promise<Record<string, unknown> | undefined> {
  const connection = connectToStack();
  if (request.command === 'import') return importCompanyObjects(request);
  if (request.command === 'export') return exportCompanyObjects(request);
  // Imported after connect(): the SDK clients read the endpoints when their module loads.
  const { createApp, createCompany, tenantExists } = await import('../lambdas/domain/identity/tenants.js');
  const { issueApiKey, revokeApiKey } = await import('../lambdas/domain/identity/api-keys.js');
  const { findApiKey, setApiKeyUsage } = await import('../lambdas/repositories/identity-repository.js');
  const { findAppWalletUsage, setAppWalletUsage } = await import(
    '../lambdas/repositories/app-usage-repository.js'
  );

  /** Puts a key on a usage plan: in AWS through its own API Gateway key, locally by name only. */
  const assignPlan = async (keyId: string, plan: UsagePlanName) => {
    const record = await findApiKey(keyId);
    if (!record) throw new Error(`No API key ${keyId}`);
    const plans = connection.usagePlans;
    if (!plans) return setApiKeyUsage(keyId, { usagePlan: plan });
    if (record.usageKeyId) {
      await plans.movePlan(record.usageKeyId, record.usagePlan as UsagePlanName | undefined, plan);
      return setApiKeyUsage(keyId, { usagePlan: plan });
    }
    return setApiKeyUsage(keyId, { usagePlan: plan, ...(await plans.createUsageKey(keyId, plan)) });
  };

  /**
   * Puts an App's wallets on a usage plan, through a usage key of the App's own that every
   * session of its wallets names (created on first use); locally by name only.
   */
  const assignWalletPlan = async (appId: string, plan: UsagePlanName) => {
    if (!(await tenantExists('app', appId))) throw new Error(`No App ${appId}`);
    const current = await findAppWalletUsage(appId);
    const plans = connection.usagePlans;
    if (plans && current?.walletUsageKeyId) {
      await plans.movePlan(current.walletUsageKeyId, current.walletUsagePlan as UsagePlanName, plan);
    }
    const created =
      plans && !current?.walletUsageKeyId ? await plans.createUsageKey(`wallets-${appId}`, plan) : undefined;
    const usage = created
      ? {
          walletUsagePlan: plan,
          walletUsageIdentifierKey: created.usageIdentifierKey,
          walletUsageKeyId: created.usageKeyId,
        }
      : { walletUsagePlan: plan };
    if (!(await setAppWalletUsage(appId, usage))) throw new Error(`No App ${appId}`);
  };

  switch (request.command) {
    case 'create-company': {
      const { tenantId, keyId, apiKey } = await createCompany(request.name);
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      return { companyId: tenantId, apiKey };
    }
    case 'create-app': {
      const { tenantId, keyId, apiKey } = await createApp(request.name);
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      await assignWalletPlan(tenantId, DEFAULT_USAGE_PLAN);
      return { appId: tenantId, apiKey };
    }
    case 'set-plan':
      await assignPlan(request.keyId, request.plan);
      return { keyId: request.keyId, plan: request.plan };
    case 'set-wallet-plan':
      await assignWalletPlan(request.appId, request.plan);
      return { appId: request.appId, walletPlan: request.plan };
    case 'create-key': {
      const { tenantType, tenantId, permissions, label } = request;
      if (!(await tenantExists(tenantType, tenantId)))
        throw new Error(`No ${tenantType === 'company' ? 'company' : 'App'} ${tenantId}`);
      const { keyId, apiKey } = await issueApiKey(tenantType, tenantId, permissions, label);
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      return { keyId, apiKey, ...(label ? { label } : {}) };
    }
    case 'add-identity-provider': {
      const { addIdentityProvider } = await import('../lambdas/domain/identity/identity-providers.js');
      const { command: _command, ...provider } = request;
      return { identityProvider: await addIdentityProvider(provider) };
    }
    case 'list-identity-providers': {
      const { listIdentityProviders } = await import('../lambdas/domain/identity/identity-providers.js');
      const { localSignIn } = connection;
      const providers = await listIdentityProviders(request.companyId);
      return {
        // The local stack's own provider says how its demo people sign in.
        identityProviders: providers.map((provider) =>
          provider.issuer === localSignIn?.issuer
            ? { ...provider, signIn: localSignIn.instructions }
            : provider,
        ),
      };
    }
    case 'remove-identity-provider': {
      const { removeIdentityProvider } = await import('../lambdas/domain/identity/identity-providers.js');
      await removeIdentityProvider(request.companyId, request.issuer);
      // Locally at once; in AWS each warm authorizer forgets the provider within a minute.
      await connection.flushAuthorizerCache();
      return { issuer: request.issuer, companyId: request.companyId, removed: true };
    }
    case 'revoke-key': {
      const { keyId } = request;
      const record = await findApiKey(keyId);
      if (!record || !(await revokeApiKey(keyId))) throw new Error(`No API key ${keyId}`);
      await connection.flushAuthorizerCache();
      // Frees one of API Gateway's 10,000 keys per region.
      if (record.usageKeyId) await connection.usagePlans?.deleteUsageKey(record.usageKeyId);
      return { keyId, revoked: true };
    }
  }
}

/** Error text on one line, so that a caller can show or log stderr as a single message. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function main(argv: string[]): void {
  let request: AdminCommand;
  try {
    request = parseAdminArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`admin: ${oneLine(error.message)}. ${HELP_HINT}\n`);
    process.exitCode = 2;
    return;
  }
  if (request.command === 'help') {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return;
  }
  run(request).then(
    (result) => {
      if (result) process.stdout.write(`${JSON.stringify(result)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`admin: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
      process.exitCode = 1;
    },
  );
}

main(process.argv.slice(2));
