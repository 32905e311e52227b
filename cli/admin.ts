/**
 * The admin CLI: companies, Apps and API keys. Each command prints one JSON line on stdout;
 * errors go to stderr with exit code 1.
 *
 * Local mode (default): run from the project root while `npm start` runs, with the same
 * `DATA_DIR`; the CLI reads the running stack's addresses from the data folder.
 * Deployed stack: set `TABLE_NAME` (stack output `TableName`) and AWS credentials; for
 * `revoke-key` also `REST_API_ID` and `API_STAGE` so the authorizer cache is flushed at once
 * (see `stack-connection.ts`).
 */
import { parseArgs } from 'node:util';
import { PERMISSIONS, type Permission } from '../lambdas/shared/principal.js';
import { DEFAULT_USAGE_PLAN, type UsagePlanName } from '../lib/api-gateway-settings.js';
import { connectToStack } from './stack-connection.js';
import { USAGE_PLAN_NAMES } from './usage-plans.js';

class UsageError extends Error {}

const COMMANDS = ['create-company', 'create-app', 'create-key', 'revoke-key', 'set-plan'] as const;

const USAGE = `Usage: npm run --silent admin -- <command> [options]
  create-company --name <name>
  create-app --name <name>
  create-key (--company <companyId> | --app <appId>) --permissions <p1,p2,...>
  revoke-key --key-id <keyId>
  set-plan --key-id <keyId> --plan <${USAGE_PLAN_NAMES.join('|')}>
Permissions: ${PERMISSIONS.join(', ')}`;

function requireOption(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function parsePermissions(list: string): Permission[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(PERMISSIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new UsageError(`Unknown permission(s): ${unknown.join(', ')}`);
  return [...new Set(names)] as Permission[];
}

function tenantName(values: Record<string, string | undefined>): string {
  const name = requireOption(values, 'name');
  if ([...name].length > 200) throw new UsageError('--name must be at most 200 characters');
  return name;
}

async function run(argv: string[]): Promise<Record<string, unknown>> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      company: { type: 'string' },
      app: { type: 'string' },
      permissions: { type: 'string' },
      'key-id': { type: 'string' },
      plan: { type: 'string' },
    },
    strict: true,
  });
  if (!COMMANDS.includes(command as (typeof COMMANDS)[number])) {
    throw new UsageError(command ? `Unknown command "${command}"` : 'No command given');
  }
  const connection = connectToStack();
  // Imported after connect(): the SDK clients read the endpoints when their module loads.
  const { createApp, createCompany, tenantExists } = await import('../lambdas/domain/identity/tenants.js');
  const { issueApiKey, revokeApiKey } = await import('../lambdas/domain/identity/api-keys.js');
  const { findApiKey, setApiKeyUsage } = await import('../lambdas/repositories/identity-repository.js');

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

  switch (command) {
    case 'create-company': {
      const { tenantId, keyId, apiKey } = await createCompany(tenantName(values));
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      return { companyId: tenantId, apiKey };
    }
    case 'create-app': {
      const { tenantId, keyId, apiKey } = await createApp(tenantName(values));
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      return { appId: tenantId, apiKey };
    }
    case 'set-plan': {
      const keyId = requireOption(values, 'key-id');
      const plan = requireOption(values, 'plan');
      if (!(USAGE_PLAN_NAMES as string[]).includes(plan)) {
        throw new UsageError(`--plan must be one of: ${USAGE_PLAN_NAMES.join(', ')}`);
      }
      await assignPlan(keyId, plan as UsagePlanName);
      return { keyId, plan };
    }
    case 'create-key': {
      if ((values.company === undefined) === (values.app === undefined)) {
        throw new UsageError('Give exactly one of --company and --app');
      }
      const type = values.company !== undefined ? 'company' : 'app';
      const tenantId = (values.company ?? values.app) as string;
      const permissions = parsePermissions(values.permissions ?? '');
      if (!(await tenantExists(type, tenantId)))
        throw new Error(`No ${type === 'company' ? 'company' : 'App'} ${tenantId}`);
      const { keyId, apiKey } = await issueApiKey(type, tenantId, permissions);
      await assignPlan(keyId, DEFAULT_USAGE_PLAN);
      return { keyId, apiKey };
    }
    case 'revoke-key': {
      const keyId = requireOption(values, 'key-id');
      const record = await findApiKey(keyId);
      if (!record || !(await revokeApiKey(keyId))) throw new Error(`No API key ${keyId}`);
      await connection.flushAuthorizerCache();
      // Frees one of API Gateway's 10,000 keys per region.
      if (record.usageKeyId) await connection.usagePlans?.deleteUsageKey(record.usageKeyId);
      return { keyId, revoked: true };
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : 'No command given');
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`admin: ${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
