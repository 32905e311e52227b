/**
 * The admin CLI's command line: which command to run with which values, or a usage error.
 * Everything here is checked before the CLI connects to a stack, so that a usage error exits 2
 * whether or not a stack runs.
 */
import { parseArgs } from 'node:util';
import { PERMISSIONS, type Permission } from '../lambdas/shared/principal.js';
import type { UsagePlanName } from '../lib/api-gateway-settings.js';
import { USAGE_PLAN_NAMES } from './usage-plans.js';

/** A command line the CLI cannot run as written (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What one admin command line asks for. */
export type AdminCommand =
  | { command: 'help' }
  | { command: 'create-company'; name: string }
  | { command: 'create-app'; name: string }
  | { command: 'create-key'; tenantType: 'company' | 'app'; tenantId: string; permissions: Permission[] }
  | { command: 'revoke-key'; keyId: string }
  | { command: 'set-plan'; keyId: string; plan: UsagePlanName };

/** The options each command takes; every option takes a value. */
const COMMAND_OPTIONS = {
  'create-company': ['name'],
  'create-app': ['name'],
  'create-key': ['company', 'app', 'permissions'],
  'revoke-key': ['key-id'],
  'set-plan': ['key-id', 'plan'],
} as const satisfies Record<string, readonly string[]>;

type CommandName = keyof typeof COMMAND_OPTIONS;

const MAX_NAME_LENGTH = 200;

/** The text `--help` prints on stdout. */
export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command> [options]
  create-company --name <name>
  create-app --name <name>
  create-key (--company <companyId> | --app <appId>) --permissions <p1,p2,...>
  revoke-key --key-id <keyId>
  set-plan --key-id <keyId> --plan <${USAGE_PLAN_NAMES.join('|')}>
Every option shown is required. --permissions '' gives a key without permissions.
Permissions: ${PERMISSIONS.join(', ')}
--help (or -h), with or without a command, prints this text on stdout and exits 0.
A command prints one JSON line on stdout. Errors print one line on stderr and nothing on stdout:
exit 2 for a usage error, 1 for any other error (no stack running, unknown company, App or key).`;

/** Values are quoted as JSON so that a message stays on one line whatever was typed. */
const quoted = (value: string) => JSON.stringify(value);

function isCommandName(value: string | undefined): value is CommandName {
  return value !== undefined && Object.hasOwn(COMMAND_OPTIONS, value);
}

type ArgumentToken = ReturnType<typeof parseArgs<{ tokens: true; strict: false }>>['tokens'][number];

/**
 * Node's parser in its lenient mode reports every token, so that `--help` can win over any
 * other mistake on the line; {@link optionValues} then refuses what strict mode would.
 */
function tokenize(args: string[], names: readonly string[]): ArgumentToken[] {
  return parseArgs({
    args,
    options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    strict: false,
    tokens: true,
  }).tokens;
}

const asksForHelp = (tokens: ArgumentToken[]) =>
  tokens.some((token) => token.kind === 'option' && (token.name === 'help' || token.name === 'h'));

/**
 * The option values, refusing unknown options, missing values and positional arguments (as
 * Node's strict mode does, with messages of our own) and options given twice.
 */
function optionValues(tokens: ArgumentToken[], names: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`Unexpected argument ${quoted(token.value)}`);
    if (token.kind !== 'option') continue; // the `--` terminator; what follows it is positional
    if (!names.includes(token.name)) throw new UsageError(`Unknown option ${quoted(token.rawName)}`);
    const value = token.value;
    if (value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    // As Node's strict mode: in `--name --app`, the value was more likely forgotten than meant.
    if (!token.inlineValue && value.length > 1 && value.startsWith('-')) {
      throw new UsageError(
        `${token.rawName} needs a value (for one that starts with "-", write ${token.rawName}=<value>)`,
      );
    }
    if (values.has(token.name)) throw new UsageError(`${token.rawName} is given more than once`);
    values.set(token.name, value);
  }
  return values;
}

function requiredValue(values: Map<string, string>, name: string): string {
  const value = values.get(name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function tenantName(values: Map<string, string>): string {
  const name = requiredValue(values, 'name');
  if ([...name].length > MAX_NAME_LENGTH) {
    throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}

function parsePermissions(list: string): Permission[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(PERMISSIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new UsageError(`Unknown permission(s): ${unknown.map(quoted).join(', ')}`);
  return [...new Set(names)] as Permission[];
}

function keyTenant(values: Map<string, string>): { tenantType: 'company' | 'app'; tenantId: string } {
  if (values.has('company') === values.has('app')) {
    throw new UsageError('Give exactly one of --company and --app');
  }
  const tenantType = values.has('company') ? 'company' : 'app';
  return { tenantType, tenantId: requiredValue(values, tenantType) };
}

/**
 * Reads an admin command line (the arguments after `npm run --silent admin --`).
 *
 * @throws {UsageError} when the line cannot be run as written; the message is one line.
 * @example
 * parseAdminArguments(['create-key', '--app', appId, '--permissions', 'wallets:read']);
 * // { command: 'create-key', tenantType: 'app', tenantId: appId, permissions: ['wallets:read'] }
 */
export function parseAdminArguments(argv: readonly string[]): AdminCommand {
  const [first, ...rest] = argv;
  const command = first?.startsWith('-') ? undefined : first;
  const names = isCommandName(command) ? COMMAND_OPTIONS[command] : [];
  const tokens = tokenize(command === undefined ? [...argv] : rest, names);
  if (asksForHelp(tokens)) return { command: 'help' };
  if (!isCommandName(command)) {
    throw new UsageError(command === undefined ? 'No command given' : `Unknown command ${quoted(command)}`);
  }
  const options = optionValues(tokens, names);
  switch (command) {
    case 'create-company':
    case 'create-app':
      return { command, name: tenantName(options) };
    case 'create-key': {
      const tenant = keyTenant(options);
      const permissions = options.get('permissions');
      // Required, though it may be empty: a key with no permission is chosen, not defaulted to.
      if (permissions === undefined) throw new UsageError('--permissions is required');
      return { command, ...tenant, permissions: parsePermissions(permissions) };
    }
    case 'revoke-key':
      return { command, keyId: requiredValue(options, 'key-id') };
    case 'set-plan': {
      const keyId = requiredValue(options, 'key-id');
      const plan = requiredValue(options, 'plan');
      if (!(USAGE_PLAN_NAMES as string[]).includes(plan)) {
        throw new UsageError(`--plan must be one of: ${USAGE_PLAN_NAMES.join(', ')}`);
      }
      return { command, keyId, plan: plan as UsagePlanName };
    }
  }
}
