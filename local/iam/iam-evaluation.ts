/**
 * Evaluates one authorization against a function's identity policies (its role's policy
 * documents) and the resource policy that applies (bucket policy, KMS key policy, queue
 * policy), with conditions and explicit Denies, as IAM does within one account: an identity
 * Allow suffices unless a resource policy denies; a KMS key's policy must itself allow the
 * account or the role.
 *
 * The evaluation is `@cloud-copilot/iam-simulate`'s (AGPL-3.0): it runs only in local mode and
 * in tests, and nothing under `lambdas/` imports it, so no bundle holds it.
 */
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import type { AuthorizationRequest, AwsAccount } from './authorization-request.js';

/** An IAM policy document (`{ Version, Statement }`), with concrete ARNs. */
export type PolicyDocument = { Version?: string; Statement: unknown[] | unknown; [member: string]: unknown };

/** One of a role's policies, by a name that says where it comes from. */
interface NamedPolicy {
  name: string;
  policy: PolicyDocument;
}

/** The identity a function calls AWS with: its role and the role's policies. */
export interface FunctionIdentity {
  functionName: string;
  /** `arn:aws:iam::<account>:role/<name>` */
  roleArn: string;
  identityPolicies: NamedPolicy[];
}

/** One statement that allowed a call, for the coverage report. */
interface AllowingStatement {
  /** `identity` policy or `resource` policy. */
  policyType: 'identity' | 'resource';
  policyName: string;
  /** The statement's resource pattern that matched (`arn:aws:s3:::files/companies/*`). */
  resourcePattern: string;
}

export type AuthorizationDecision =
  | { allowed: true; allowedBy: AllowingStatement[] }
  | {
      allowed: false;
      explicit: boolean;
      /** Which kind of policy refused: no identity Allow, or a resource policy's Deny or lack of Allow. */
      refusedBy: 'identity' | 'resource';
      /** AWS's sentence: `User: <arn> is not authorized to perform: <action> on resource: <arn> because …`. */
      message: string;
    };

/**
 * The resource policy that applies to an ARN, from the policies by resource ARN: its own, or its
 * bucket's (an S3 object), or its table's (an index, a stream).
 */
export function resourcePolicyFor(
  policies: Readonly<Record<string, PolicyDocument>>,
  resource: string,
): PolicyDocument | undefined {
  if (policies[resource]) return policies[resource];
  const bucket = /^(arn:[^:]+:s3:::[^/]+)\//.exec(resource)?.[1];
  if (bucket) return policies[bucket];
  const table = /^(arn:[^:]+:dynamodb:[^:]*:[^:]*:table\/[^/]+)\//.exec(resource)?.[1];
  return table ? policies[table] : undefined;
}

/** The session ARN a function's calls are made as: `arn:aws:sts::<account>:assumed-role/<role>/<function>`. */
export function assumedRoleArn(identity: Pick<FunctionIdentity, 'roleArn' | 'functionName'>): string {
  const [, partition, , , account, resource] = identity.roleArn.split(':');
  const roleName = resource?.split('/').pop();
  return `arn:${partition}:sts::${account}:assumed-role/${roleName}/${identity.functionName}`;
}

/** The global condition keys of every call a function's role makes. */
function globalConditionKeys(account: AwsAccount, identity: FunctionIdentity): Record<string, string> {
  return {
    // In AWS every call goes over HTTPS; the local endpoint's loopback HTTP stands for it.
    'aws:SecureTransport': 'true',
    'aws:RequestedRegion': account.region,
    'aws:PrincipalArn': identity.roleArn,
    'aws:PrincipalAccount': account.accountId,
    'aws:PrincipalType': 'AssumedRole',
  };
}

/** AWS's refusal sentence (the IAM user guide's "Troubleshoot access denied error messages"). */
function refusalMessage(
  principalArn: string,
  authorization: AuthorizationRequest,
  explicit: boolean,
  refusedBy: 'identity' | 'resource',
): string {
  const policyKind = refusedBy === 'identity' ? 'identity-based' : 'resource-based';
  const article = refusedBy === 'identity' ? 'an' : 'a';
  const reason = explicit
    ? `with an explicit deny in ${article} ${policyKind} policy`
    : `because no ${policyKind} policy allows the ${authorization.action} action`;
  return `User: ${principalArn} is not authorized to perform: ${authorization.action} on resource: ${authorization.resource} ${reason}`;
}

type Analysis = NonNullable<
  Extract<Awaited<ReturnType<typeof runSimulation>>, { resultType: 'single' }>['result']['analysis']
>;
type StatementAnalysis = NonNullable<Analysis['identityAnalysis']>['allowStatements'][number];

const matchedResources = (statement: StatementAnalysis): string[] =>
  [statement.explain.resources ?? []]
    .flat()
    .filter((resource) => resource.matches)
    .map((resource) => resource.resource);

const allowingStatements = (
  policyType: 'identity' | 'resource',
  statements: StatementAnalysis[] | undefined,
): AllowingStatement[] =>
  (statements ?? []).flatMap((statement) =>
    // A resource policy's statement may have no Resource (KMS key policies say `*`).
    (matchedResources(statement).length > 0 ? matchedResources(statement) : ['*']).map((resourcePattern) => ({
      policyType,
      // The resource policy is the one policy of its kind, and has no name.
      policyName: statement.policyId ?? `${policyType} policy`,
      resourcePattern,
    })),
  );

/**
 * Whether a function may make one call, and if not, AWS's reason.
 *
 * @example
 * const decision = await evaluateAuthorization(
 *   { action: 'dynamodb:GetItem', resource: tableArn, context: { 'dynamodb:LeadingKeys': ['T#1#X'] } },
 *   { functionName: 'getObject', roleArn, identityPolicies: [{ name: 'DefaultPolicy', policy }] },
 *   { account: { region: 'eu-west-1', accountId: '123456789012' } },
 * );
 * if (!decision.allowed) console.error(decision.message);
 */
export async function evaluateAuthorization(
  authorization: AuthorizationRequest,
  identity: FunctionIdentity,
  options: { account: AwsAccount; resourcePolicy?: PolicyDocument },
): Promise<AuthorizationDecision> {
  const principal = assumedRoleArn(identity);
  const simulation: Simulation = {
    request: {
      principal,
      action: authorization.action,
      resource: { resource: authorization.resource, accountId: options.account.accountId },
      contextVariables: { ...globalConditionKeys(options.account, identity), ...authorization.context },
    },
    identityPolicies: identity.identityPolicies,
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    resourcePolicy: options.resourcePolicy,
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error') {
    throw new Error(
      `IAM evaluation of ${authorization.action} on ${authorization.resource} for ${identity.functionName} failed: ${JSON.stringify(result.errors)}`,
    );
  }
  const analysis: Analysis | undefined =
    result.resultType === 'single' ? result.result.analysis : result.results[0]?.analysis;
  if (result.overallResult === 'Allowed') {
    const allowedBy = allowingStatements('identity', analysis?.identityAnalysis?.allowStatements);
    return {
      allowed: true,
      allowedBy:
        allowedBy.length > 0
          ? allowedBy
          : allowingStatements('resource', analysis?.resourceAnalysis?.allowStatements),
    };
  }
  const identityResult = analysis?.identityAnalysis?.result;
  const resourceResult = analysis?.resourceAnalysis?.result;
  const refusal =
    identityResult === 'ExplicitlyDenied'
      ? { explicit: true, refusedBy: 'identity' as const }
      : resourceResult === 'ExplicitlyDenied' || resourceResult === 'DeniedForAccount'
        ? { explicit: resourceResult === 'ExplicitlyDenied', refusedBy: 'resource' as const }
        : identityResult === 'Allowed'
          ? { explicit: false, refusedBy: 'resource' as const }
          : { explicit: false, refusedBy: 'identity' as const };
  return {
    allowed: false,
    ...refusal,
    message: refusalMessage(principal, authorization, refusal.explicit, refusal.refusedBy),
  };
}
