/**
 * The admin CLI's command line: which command to run with which values, or a usage error.
 * Everything here is checked before the CLI connects to a stack, so that a usage error exits 2
 * whether or not a stack runs.
 */
import { parseArgs } from 'node:util';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportObjectsQuery,
} from '../lambdas/domain/exports/export-schemas.js';
import {
  IMPORT_FORMATS,
  IMPORT_MODES,
  type ImportFormat,
  type ImportMode,
} from '../lambdas/domain/imports/import-job.js';
import type { FieldIssue } from '../lambdas/shared/errors.js';
import { MAX_KEY_LABEL_LENGTH, PERMISSIONS, type Permission } from '../lambdas/shared/principal.js';
import { isRole, ROLE_NAMES, type Role } from '../lambdas/shared/roles.js';
import { UUID_PATTERN } from '../lambdas/shared/schema.js';
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
  | {
      command: 'create-key';
      tenantType: 'company' | 'app';
      tenantId: string;
      permissions: Permission[];
      /** Who or what holds the key, as the console shows it beside the key's events. */
      label?: string;
    }
  | { command: 'revoke-key'; keyId: string }
  | { command: 'set-plan'; keyId: string; plan: UsagePlanName }
  | { command: 'set-wallet-plan'; appId: string; plan: UsagePlanName }
  | {
      command: 'add-identity-provider';
      companyId: string;
      issuer: string;
      audience: string;
      rolesClaim?: string;
      /** `--role <claim value>=<role>`, each given once; none: the claim holds role names. */
      roleMappings: Record<string, Role>;
    }
  | { command: 'list-identity-providers'; companyId?: string }
  | { command: 'remove-identity-provider'; companyId: string; issuer: string }
  | ImportCommand
  | ExportCommand;

/** `import <file>`: a bulk import of objects into a company, run to its end in the CLI. */
export interface ImportCommand {
  command: 'import';
  companyId: string;
  file: string;
  mode: ImportMode;
  /** Absent: from the file name (`.jsonl`, `.ndjson`), else CSV. */
  format?: ImportFormat;
  /** Target of rows that name no subcategory. */
  categoryId?: string;
  subcategoryId?: string;
  createMissing: boolean;
}

/** The filters and sort of spec 4.1, as `GET /v2/objects/export` takes them. */
type ExportFilters = Omit<ReturnType<typeof exportObjectsQuery.parse>, 'format'>;

/** `export`: the company's objects into a file (or stdout). */
export interface ExportCommand {
  command: 'export';
  companyId: string;
  format: ExportFormat;
  /** Absent: the export goes to stdout. */
  out?: string;
  filters: ExportFilters;
}

/** The options each command takes with a value. */
const COMMAND_OPTIONS = {
  'create-company': ['name'],
  'create-app': ['name'],
  'create-key': ['company', 'app', 'permissions', 'label'],
  'revoke-key': ['key-id'],
  'set-plan': ['key-id', 'plan'],
  'set-wallet-plan': ['app', 'plan'],
  'add-identity-provider': ['company', 'issuer', 'audience', 'roles-claim', 'role'],
  'list-identity-providers': ['company'],
  'remove-identity-provider': ['company', 'issuer'],
  import: ['company', 'mode', 'format', 'category-id', 'subcategory-id'],
  export: [
    'company',
    'format',
    'out',
    'status',
    'name',
    'owner',
    'category-id',
    'subcategory-id',
    'external-id',
    'sort',
  ],
} as const satisfies Record<string, readonly string[]>;

type CommandName = keyof typeof COMMAND_OPTIONS;

/** The options each command takes without a value (switches). */
const COMMAND_FLAGS: Partial<Record<CommandName, readonly string[]>> = { import: ['create-missing'] };

/** Options that may be given more than once; their values are kept in order, one per line. */
const REPEATABLE_OPTIONS: readonly string[] = ['role'];

/** The positional arguments each command takes, by name. */
const COMMAND_POSITIONALS: Partial<Record<CommandName, readonly string[]>> = { import: ['file'] };

/** The export's filter options and the query fields they are. */
const EXPORT_FILTER_OPTIONS = {
  status: 'status',
  name: 'name',
  owner: 'owner',
  'category-id': 'categoryId',
  'subcategory-id': 'subcategoryId',
  'external-id': 'externalId',
  sort: 'sort',
} as const;

const MAX_NAME_LENGTH = 200;

/** The text `--help` prints on stdout. */
export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command> [options]
  create-company --name <name>
  create-app --name <name>
  create-key (--company <companyId> | --app <appId>) --permissions <p1,p2,...> [--label <text>]
  revoke-key --key-id <keyId>
  set-plan --key-id <keyId> --plan <${USAGE_PLAN_NAMES.join('|')}>
  set-wallet-plan --app <appId> --plan <${USAGE_PLAN_NAMES.join('|')}>
  add-identity-provider --company <companyId> --issuer <issuer URL> --audience <aud>
         [--roles-claim <claim>] [--role <claim value>=<${ROLE_NAMES.join('|')}> ...]
  list-identity-providers [--company <companyId>]
  remove-identity-provider --company <companyId> --issuer <issuer URL>
  import <file> --company <companyId> [--mode <${IMPORT_MODES.join('|')}>] [--format <${IMPORT_FORMATS.join('|')}>]
         [--subcategory-id <id> [--category-id <id>]] [--create-missing]
  export --company <companyId> [--format <${EXPORT_FORMATS.join('|')}>] [--out <file>] [--status <active|inactive|all>]
         [--name <text>] [--owner <text>] [--category-id <id>] [--subcategory-id <id>] [--external-id <id>]
         [--sort <createdAt:desc|createdAt:asc|name:asc|name:desc>]
Options without brackets are required. --permissions '' gives a key without permissions.
--label names who holds the key (at most ${MAX_KEY_LABEL_LENGTH} characters, not secret): GET /v2/me answers it,
and the console shows it beside the events the key caused.
Every new key starts on the default plan, and so do the wallets of a new App: their calls count
on a usage key of the App's own; set-wallet-plan moves them (or gives an older App that key).
Permissions: ${PERMISSIONS.join(', ')}
import writes the file's rows as POST /v2/imports does (each with its ledger event; the actor is
apiKey:admin-cli), runs the job to its end in this process, and prints its counts and up to 1000
error entries (the rest: GET <errorsPath>). The format follows the file name (.jsonl, .ndjson), else CSV.
--subcategory-id (with its --category-id) places rows that name no subcategory; --create-missing
creates the categories and subcategories that rows name and that do not exist yet.
export writes the objects that match (the filters and sort of GET /v2/objects) to --out, then prints
one JSON line; without --out, the file itself goes to stdout.
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
function tokenize(args: string[], names: readonly string[], flags: readonly string[] = []): ArgumentToken[] {
  return parseArgs({
    args,
    options: {
      ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
    },
    strict: false,
    tokens: true,
  }).tokens;
}

const asksForHelp = (tokens: ArgumentToken[]) =>
  tokens.some((token) => token.kind === 'option' && (token.name === 'help' || token.name === 'h'));

/**
 * The option values, refusing unknown options, missing values and positional arguments beyond
 * `positionals` (as Node's strict mode does, with messages of our own) and options given twice.
 * A switch (`flags`) takes no value; it is recorded as `''`.
 */
function optionValues(
  tokens: ArgumentToken[],
  names: readonly string[],
  flags: readonly string[] = [],
  positionals: string[] = [],
  positionalNames: readonly string[] = [],
): Map<string, string> {
  const values = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (positionals.length >= positionalNames.length)
        throw new UsageError(`Unexpected argument ${quoted(token.value)}`);
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue; // the `--` terminator; what follows it is positional
    if (flags.includes(token.name)) {
      if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value`);
      if (values.has(token.name)) throw new UsageError(`${token.rawName} is given more than once`);
      values.set(token.name, '');
      continue;
    }
    if (!names.includes(token.name)) throw new UsageError(`Unknown option ${quoted(token.rawName)}`);
    const value = token.value;
    if (value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    // As Node's strict mode: in `--name --app`, the value was more likely forgotten than meant.
    if (!token.inlineValue && value.length > 1 && value.startsWith('-')) {
      throw new UsageError(
        `${token.rawName} needs a value (for one that starts with "-", write ${token.rawName}=<value>)`,
      );
    }
    const earlier = values.get(token.name);
    if (earlier !== undefined && !REPEATABLE_OPTIONS.includes(token.name)) {
      throw new UsageError(`${token.rawName} is given more than once`);
    }
    values.set(token.name, earlier === undefined ? value : `${earlier}\n${value}`);
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

/** `--label`, trimmed; absent or blank: no label. */
function keyLabel(values: Map<string, string>): string | undefined {
  const label = values.get('label')?.trim();
  if (!label) return undefined;
  if ([...label].length > MAX_KEY_LABEL_LENGTH) {
    throw new UsageError(`--label must be at most ${MAX_KEY_LABEL_LENGTH} characters`);
  }
  return label;
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
  const flags = (isCommandName(command) && COMMAND_FLAGS[command]) || [];
  const tokens = tokenize(command === undefined ? [...argv] : rest, names, flags);
  if (asksForHelp(tokens)) return { command: 'help' };
  if (!isCommandName(command)) {
    throw new UsageError(command === undefined ? 'No command given' : `Unknown command ${quoted(command)}`);
  }
  const positionals: string[] = [];
  const options = optionValues(tokens, names, flags, positionals, COMMAND_POSITIONALS[command]);
  switch (command) {
    case 'create-company':
    case 'create-app':
      return { command, name: tenantName(options) };
    case 'create-key': {
      const tenant = keyTenant(options);
      const permissions = options.get('permissions');
      // Required, though it may be empty: a key with no permission is chosen, not defaulted to.
      if (permissions === undefined) throw new UsageError('--permissions is required');
      const label = keyLabel(options);
      return { command, ...tenant, permissions: parsePermissions(permissions), ...(label ? { label } : {}) };
    }
    case 'revoke-key':
      return { command, keyId: requiredValue(options, 'key-id') };
    case 'set-plan':
      return { command, keyId: requiredValue(options, 'key-id'), plan: usagePlan(options) };
    case 'set-wallet-plan':
      return { command, appId: requiredValue(options, 'app'), plan: usagePlan(options) };
    case 'add-identity-provider': {
      const rolesClaim = options.get('roles-claim');
      if (rolesClaim !== undefined && rolesClaim.trim() === '')
        throw new UsageError('--roles-claim needs a claim name');
      return {
        command,
        companyId: requiredValue(options, 'company'),
        issuer: requiredValue(options, 'issuer'),
        audience: requiredValue(options, 'audience'),
        ...(rolesClaim === undefined ? {} : { rolesClaim }),
        roleMappings: roleMappings(options.get('role')),
      };
    }
    case 'list-identity-providers': {
      const companyId = options.get('company');
      return {
        command,
        ...(companyId === undefined ? {} : { companyId: requiredValue(options, 'company') }),
      };
    }
    case 'remove-identity-provider':
      return {
        command,
        companyId: requiredValue(options, 'company'),
        issuer: requiredValue(options, 'issuer'),
      };
    case 'import':
      return importCommand(options, positionals);
    case 'export':
      return exportCommand(options);
  }
}

/** The `--role <claim value>=<role>` options (one per line), each claim value once. */
function roleMappings(lines: string | undefined): Record<string, Role> {
  const mappings: Record<string, Role> = {};
  for (const line of lines === undefined ? [] : lines.split('\n')) {
    const separator = line.lastIndexOf('=');
    const claimValue = line.slice(0, separator);
    const role = line.slice(separator + 1);
    if (separator <= 0 || !isRole(role)) {
      throw new UsageError(`--role must read <claim value>=<${ROLE_NAMES.join('|')}>, not ${quoted(line)}`);
    }
    if (Object.hasOwn(mappings, claimValue)) throw new UsageError(`--role maps ${quoted(claimValue)} twice`);
    mappings[claimValue] = role;
  }
  return mappings;
}

/** `--plan`, one of the usage plans. */
function usagePlan(options: Map<string, string>): UsagePlanName {
  const plan = requiredValue(options, 'plan');
  if (!(USAGE_PLAN_NAMES as string[]).includes(plan)) {
    throw new UsageError(`--plan must be one of: ${USAGE_PLAN_NAMES.join(', ')}`);
  }
  return plan as UsagePlanName;
}

function oneOfValue<const V extends string>(
  values: Map<string, string>,
  name: string,
  allowed: readonly V[],
): V | undefined {
  const value = values.get(name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  }
  return value as V;
}

function uuidValue(values: Map<string, string>, name: string): string | undefined {
  const value = values.get(name);
  if (value === undefined) return undefined;
  if (!UUID_PATTERN.test(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

function importCommand(options: Map<string, string>, positionals: string[]): ImportCommand {
  const [file] = positionals;
  if (file === undefined || file.trim() === '')
    throw new UsageError('import needs a file: import <file> --company <companyId>');
  const companyId = requiredValue(options, 'company');
  const categoryId = uuidValue(options, 'category-id');
  const subcategoryId = uuidValue(options, 'subcategory-id');
  if (categoryId !== undefined && subcategoryId === undefined) {
    throw new UsageError('--category-id goes with --subcategory-id (the target of rows that name none)');
  }
  const format = oneOfValue(options, 'format', IMPORT_FORMATS);
  return {
    command: 'import',
    companyId,
    file,
    mode: oneOfValue(options, 'mode', IMPORT_MODES) ?? 'create',
    ...(format ? { format } : {}),
    ...(categoryId ? { categoryId } : {}),
    ...(subcategoryId ? { subcategoryId } : {}),
    createMissing: options.has('create-missing'),
  };
}

/** An issue of the export query's schema, told with the option's name. */
function filterIssueMessage(issue: FieldIssue): string {
  const option = Object.entries(EXPORT_FILTER_OPTIONS).find(([, field]) => field === issue.field)?.[0];
  if (!option) return issue.message;
  return issue.message.startsWith(issue.field)
    ? `--${option}${issue.message.slice(issue.field.length)}`
    : `--${option}: ${issue.message}`;
}

function exportCommand(options: Map<string, string>): ExportCommand {
  const companyId = requiredValue(options, 'company');
  const format = oneOfValue(options, 'format', EXPORT_FORMATS) ?? 'csv';
  const out = options.get('out');
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  const given: Record<string, string> = {};
  for (const [option, field] of Object.entries(EXPORT_FILTER_OPTIONS)) {
    const value = options.get(option);
    if (value !== undefined) given[field] = value;
  }
  // The very schema of GET /v2/objects/export: the same values, limits and defaults.
  const issues: FieldIssue[] = [];
  const query = exportObjectsQuery.read({ ...given, format }, 'query', issues);
  if (!query || issues.length > 0) throw new UsageError(filterIssueMessage(issues[0]!));
  const { format: _format, ...filters } = query;
  return { command: 'export', companyId, format, ...(out === undefined ? {} : { out }), filters };
}
