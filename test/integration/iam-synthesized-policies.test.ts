/**
 * The local IAM evaluation on the real policies: every function's role policies and the stack's
 * bucket, key and queue policies as the synthesized templates give them, references resolved to
 * local ARNs (`local/synthesized/`). What the templates grant is allowed, the ledger's Deny holds
 * for every function, and what they do not grant is refused.
 */
import type { AuthorizationRequest } from '../../local/iam/authorization-request';
import { grantsOf, LAMBDA_PLATFORM_ACTIONS } from '../../local/iam/iam-coverage';
import {
  evaluateAuthorization,
  type FunctionIdentity,
  type PolicyDocument,
  resourcePolicyFor,
} from '../../local/iam/iam-evaluation';
import { cachedLocalStack } from '../../local/synthesized/cached-local-stack';
import type { LocalStack } from '../../local/synthesized/local-stack';
import { LOCAL_ACCOUNT_ID } from '../../local/synthesized/template-values';

const REGION = 'us-east-1';
const account = { region: REGION, accountId: LOCAL_ACCOUNT_ID };

let stack: LocalStack;
let identities: FunctionIdentity[];
let resourcePolicies: Record<string, PolicyDocument>;

beforeAll(async () => {
  stack = await cachedLocalStack({ region: REGION, corsAllowedOrigins: [] });
  identities = stack.functions.map((each) => ({
    functionName: each.name,
    roleArn: each.roleArn,
    identityPolicies: each.policies,
  }));
  resourcePolicies = Object.fromEntries(
    stack.resourcePolicies.map(({ resourceArn, policy }) => [resourceArn, policy]),
  );
}, 120_000);

const evaluate = (authorization: AuthorizationRequest, identity: FunctionIdentity) =>
  evaluateAuthorization(authorization, identity, {
    account,
    resourcePolicy: resourcePolicyFor(resourcePolicies, authorization.resource),
  });

/** A value a pattern matches: each `*` one `x` (a resource of `*` stays `*`: some actions take no other). */
const instanceOf = (pattern: string) => (pattern === '*' ? pattern : pattern.replaceAll('*', 'x'));

type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
};

/** Condition keys with values the statement's conditions accept (the first value of each). */
function contextAccepted(statement: Statement): Record<string, string | string[]> {
  const context: Record<string, string | string[]> = {};
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, values] of Object.entries(keys)) {
      const value = instanceOf([values].flat()[0] ?? '');
      context[key] =
        operator.startsWith('ForAllValues') || operator.startsWith('ForAnyValue') ? [value] : value;
    }
  }
  return context;
}

const identityOf = (functionName: string) => identities.find((each) => each.functionName === functionName)!;

it('allows every grant of every function, with its conditions met and the resource policies applied', async () => {
  // Prepare: every grant but those of the Lambda service's own calls (logs, traces), which never reach the endpoint.
  const throughEndpoint = (action: string) => !LAMBDA_PLATFORM_ACTIONS.includes(action);
  const requests = identities.flatMap((identity) =>
    identity.identityPolicies.flatMap(({ policy }) =>
      ([policy.Statement].flat() as Statement[])
        .filter((statement) => statement.Effect === 'Allow')
        .flatMap((statement) =>
          [statement.Action]
            .flat()
            .filter(throughEndpoint)
            .flatMap((action) =>
              [statement.Resource].flat().map((resource) => ({
                identity,
                authorization: {
                  action,
                  resource: instanceOf(resource),
                  context: contextAccepted(statement),
                },
              })),
            ),
        ),
    ),
  );
  // Act
  const refused: string[] = [];
  for (const { identity, authorization } of requests) {
    const decision = await evaluate(authorization, identity);
    if (!decision.allowed) refused.push(decision.message);
  }
  // Assess
  expect(requests.length).toBe(grantsOf(identities).filter((grant) => throughEndpoint(grant.action)).length);
  expect(requests.length).toBeGreaterThan(identities.length);
  expect(refused).toEqual([]);
}, 120_000);

it('refuses every function an UpdateItem, DeleteItem or BatchWriteItem on a ledger partition', async () => {
  // Act
  const allowed: string[] = [];
  for (const identity of identities) {
    for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
      const decision = await evaluate(
        {
          action,
          resource: `arn:aws:dynamodb:${REGION}:${LOCAL_ACCOUNT_ID}:table/asset-registry`,
          context: { 'dynamodb:LeadingKeys': ['T#3b0d6a52#LEDGER#OBJECT#7'] },
        },
        identity,
      );
      if (decision.allowed) allowed.push(`${identity.functionName} ${action}`);
    }
  }
  // Assess
  expect(identities.length).toBeGreaterThan(50);
  expect(allowed).toEqual([]);
}, 120_000);

it('refuses a Query on an index a function role does not name', async () => {
  // Prepare: the import job queries gsi3 only.
  const importJob = identityOf(stack.workers.importObjects);
  const query = (indexName: string): AuthorizationRequest => ({
    action: 'dynamodb:Query',
    resource: `arn:aws:dynamodb:${REGION}:${LOCAL_ACCOUNT_ID}:table/asset-registry/index/${indexName}`,
    context: { 'dynamodb:LeadingKeys': ['T#1#OBJECTS'] },
  });
  // Act
  const named = await evaluate(query('gsi3'), importJob);
  const unnamed = await evaluate(query('gsi2'), importJob);
  // Assess
  expect(named.allowed).toBe(true);
  expect(unnamed).toMatchObject({ allowed: false, explicit: false, refusedBy: 'identity' });
});

it('lets only the functions granted kms:Sign sign with the log key (its key policy delegates to IAM)', async () => {
  // Prepare
  const sign: AuthorizationRequest = { action: 'kms:Sign', resource: stack.ledgerSigningKeyArn, context: {} };
  // Act
  const signers: string[] = [];
  for (const identity of identities)
    if ((await evaluate(sign, identity)).allowed) signers.push(identity.functionName);
  // Assess
  expect(resourcePolicyFor(resourcePolicies, stack.ledgerSigningKeyArn)).toBeDefined();
  expect(signers).toContain(stack.workers.sequenceLedger);
  expect(signers.length).toBeLessThan(identities.length);
});
