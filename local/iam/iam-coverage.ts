/**
 * Which permissions the calls really use. The local AWS endpoint records each allowed call as
 * (function, action, resource pattern of the statement that allowed it), one JSON Lines file per
 * process in a shared directory; this module merges them and sets them against the functions'
 * policies: the distinct calls made, and each grant (function, action, resource) that no
 * recorded call used, which is a permission the function does not need (or a path no test takes).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionIdentity } from './iam-evaluation.js';

/** One distinct allowed call. */
export interface CoverageRecord {
  functionName: string;
  /** The action called (`dynamodb:Query`). */
  action: string;
  /** The resource pattern of the statement that allowed it, as the policy writes it. */
  resourcePattern: string;
  /** Whether an identity policy or a resource policy allowed it. */
  policyType: 'identity' | 'resource';
}

/** One permission a function's identity policies grant: an action (maybe a wildcard) on a resource pattern. */
export interface PolicyGrant {
  functionName: string;
  policyName: string;
  action: string;
  resource: string;
}

/**
 * Actions a function's role is granted for the Lambda service's own calls, which never pass the
 * local endpoint: its log stream (CloudWatch Logs) and its traces (the X-Ray daemon).
 */
export const LAMBDA_PLATFORM_ACTIONS: readonly string[] = [
  'logs:CreateLogGroup',
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
];

export interface CoverageReport {
  /** The distinct calls allowed by an identity policy, sorted. */
  calls: CoverageRecord[];
  /** Grants no recorded call used, sorted. */
  unusedGrants: PolicyGrant[];
}

/** The file a process records its calls in, inside the shared coverage directory. */
export const coverageFileIn = (directory: string, processId = process.pid): string =>
  join(directory, `iam-calls-${processId}.jsonl`);

/** Where `npm test` collects the calls that every local stack of the run allowed. */
export const COVERAGE_DIRECTORY_ENVIRONMENT = 'LOCAL_IAM_COVERAGE_DIRECTORY';

/** This process's coverage file when the environment names a coverage directory; none otherwise. */
export function coverageFileFromEnvironment(): string | undefined {
  const directory = process.env[COVERAGE_DIRECTORY_ENVIRONMENT];
  return directory ? coverageFileIn(directory) : undefined;
}

/** Every record in the directory's JSON Lines files, each distinct record once. */
export function readCoverageDirectory(directory: string): CoverageRecord[] {
  if (!existsSync(directory)) return [];
  const lines = readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(directory, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '');
  return [...new Set(lines)].map((line) => JSON.parse(line) as CoverageRecord);
}

const asList = (value: unknown): string[] => (value === undefined ? [] : [value].flat().map(String));

/**
 * The grants of each function's identity policies: every Allow statement's actions times its
 * resources. Statements written with `NotAction` or `NotResource` grant no listable pair and are
 * left out.
 */
export function grantsOf(functions: readonly FunctionIdentity[]): PolicyGrant[] {
  return functions.flatMap((identity) =>
    identity.identityPolicies.flatMap(({ name, policy }) =>
      [policy.Statement ?? []]
        .flat()
        .map((statement) => statement as { Effect?: string; Action?: unknown; Resource?: unknown })
        .filter((statement) => statement.Effect === 'Allow')
        .flatMap((statement) =>
          asList(statement.Action).flatMap((action) =>
            asList(statement.Resource).map((resource) => ({
              functionName: identity.functionName,
              policyName: name,
              action,
              resource,
            })),
          ),
        ),
    ),
  );
}

/** IAM's action match: case-insensitive, `*` and `?` wildcards. */
const actionMatches = (pattern: string, action: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  ).test(action);

const byText =
  <Item>(key: (item: Item) => string) =>
  (a: Item, b: Item) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * The calls made and the grants unused, from the recorded calls and the functions' policies.
 * Grants of `ignoredActions` (by default the Lambda service's own, {@link LAMBDA_PLATFORM_ACTIONS})
 * are not reported.
 *
 * @example
 * const report = coverageReport(readCoverageDirectory('.cache/iam-coverage'), functions);
 * expect(report.unusedGrants).toEqual([]);
 */
export function coverageReport(
  records: readonly CoverageRecord[],
  functions: readonly FunctionIdentity[],
  options: { ignoredActions?: readonly string[] } = {},
): CoverageReport {
  const ignoredActions = new Set(options.ignoredActions ?? LAMBDA_PLATFORM_ACTIONS);
  const identityCalls = records.filter((record) => record.policyType === 'identity');
  const distinct = new Map(
    identityCalls.map((record) => [
      `${record.functionName} ${record.action} ${record.resourcePattern}`,
      record,
    ]),
  );
  const calls = [...distinct.values()].sort(
    byText((record) => `${record.functionName} ${record.action} ${record.resourcePattern}`),
  );
  const unusedGrants = grantsOf(functions)
    .filter(
      (grant) =>
        !ignoredActions.has(grant.action) &&
        !calls.some(
          (call) =>
            call.functionName === grant.functionName &&
            call.resourcePattern === grant.resource &&
            actionMatches(grant.action, call.action),
        ),
    )
    .sort(byText((grant) => `${grant.functionName} ${grant.action} ${grant.resource}`));
  return { calls, unusedGrants };
}
