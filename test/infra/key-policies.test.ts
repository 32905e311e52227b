/**
 * The KMS keys that guard data (webhook secrets, checkpoint signing): the account administers
 * them through IAM but neither uses nor deletes them; each function that uses a key is named in
 * its policy with exactly its actions; deletion is kept for a named admin role
 * (`lib/key-policy.ts`).
 */

import { operationList } from '../../lambdas/operations';
import {
  KEY_ADMIN_ROLE_CONTEXT,
  KEY_ADMINISTRATION_ACTIONS,
  KEY_DELETION_ACTION,
} from '../../lib/key-policy';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack';

type Statement = {
  Sid?: string;
  Effect: string;
  Principal: { AWS: unknown };
  Action: string | string[];
  Condition?: { ArnEquals?: Record<string, unknown> };
};
type Resource = { Type: string; Properties: Record<string, unknown> };

const ADMIN_ROLE_ARN = 'arn:aws:iam::111122223333:role/asset-registry-key-admin';
const actionsOf = (statement: Statement): string[] => [statement.Action].flat();
const isAccountRoot = (statement: Statement): boolean =>
  JSON.stringify(statement.Principal.AWS).includes(':root');

/**
 * The role a use statement names by `aws:PrincipalArn`: a role of the key's stack by reference
 * (its logical id), or a role of a nested stack by the name it was given (the name's last part,
 * which must be the last part of some role's RoleName).
 */
function roleNamedBy(statement: Statement): string | undefined {
  const arn = statement.Condition?.ArnEquals?.['aws:PrincipalArn'] as
    | { 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]] }
    | undefined;
  if (arn?.['Fn::GetAtt']) return arn['Fn::GetAtt'][0];
  const lastPart = arn?.['Fn::Join']?.[1].at(-1);
  const roleNames = synthesized.stackTemplates.flatMap(({ template }) =>
    Object.values(template.findResources('AWS::IAM::Role')).map(
      (role) => (role as Resource).Properties.RoleName as { 'Fn::Join'?: [string, unknown[]] } | undefined,
    ),
  );
  return roleNames.some((name) => name?.['Fn::Join']?.[1].at(-1) === lastPart) ? String(lastPart) : undefined;
}

let synthesized: SynthesizedStack;

beforeAll(() => {
  synthesized = synthesizeStack({ [KEY_ADMIN_ROLE_CONTEXT]: ADMIN_ROLE_ARN });
});

const GUARDED_KEY_NAMES = ['webhook secrets', 'checkpoint signing'];
const guardedKeys = () => [
  { name: 'webhook secrets', key: synthesized.stack.eventsOut.secretsKey },
  { name: 'checkpoint signing', key: synthesized.stack.ledgerLog.signingKey },
];

const policyStatementsOf = (logicalId: string): Statement[] =>
  (
    (synthesized.template.toJSON().Resources[logicalId] as Resource).Properties.KeyPolicy as {
      Statement: Statement[];
    }
  ).Statement;

it.each(GUARDED_KEY_NAMES)(
  'the %s key: the account administers it, but neither uses nor deletes it',
  (name) => {
    // Prepare
    const { key } = guardedKeys().find((each) => each.name === name)!;
    // Act
    const accountStatements = policyStatementsOf(synthesized.logicalIdOf(key)).filter(
      (statement) => isAccountRoot(statement) && statement.Condition === undefined,
    );
    // Assess
    expect(accountStatements.flatMap(actionsOf).sort()).toEqual([...KEY_ADMINISTRATION_ACTIONS].sort());
  },
);

it.each(GUARDED_KEY_NAMES)(
  'the %s key: deletion is for the named admin role only; each use names one role of the stack',
  (name) => {
    // Prepare
    const { key } = guardedKeys().find((each) => each.name === name)!;
    const statements = policyStatementsOf(synthesized.logicalIdOf(key));
    // Act
    const deleting = statements.filter((statement) => actionsOf(statement).includes(KEY_DELETION_ACTION));
    const using = statements.filter((statement) => statement.Condition !== undefined);
    // Assess
    expect(deleting).toEqual([expect.objectContaining({ Principal: { AWS: ADMIN_ROLE_ARN } })]);
    expect(using.length).toBeGreaterThan(0);
    for (const statement of using) {
      expect(actionsOf(statement).every((action) => !action.includes('*'))).toBe(true);
      expect(roleNamedBy(statement)).toBeDefined();
    }
  },
);

it('names in the key policies each function that uses a key, and no other', () => {
  // Prepare
  const secretsUsers = operationList.filter((row) => row.access?.secrets?.length).length + 1; // + delivery
  const expected = [
    { key: synthesized.stack.ledgerLog.signingKey, users: 1 }, // the sequencer
    { key: synthesized.stack.eventsOut.secretsKey, users: secretsUsers },
  ];
  for (const { key, users } of expected) {
    // Act
    const named = policyStatementsOf(synthesized.logicalIdOf(key))
      .filter((statement) => statement.Condition !== undefined)
      .map(roleNamedBy);
    // Assess
    expect(new Set(named).size).toBe(users);
  }
  const sequencerRole = synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction.role!);
  expect(
    policyStatementsOf(synthesized.logicalIdOf(synthesized.stack.ledgerLog.signingKey)).map(roleNamedBy),
  ).toContain(sequencerRole);
});

it('refuses a key admin that is not the ARN of a role', () => {
  // Act, Assess
  expect(() => synthesizeStack({ [KEY_ADMIN_ROLE_CONTEXT]: 'alice' })).toThrow(
    /keyAdminRoleArn must be the ARN of an IAM role \(got alice\)/,
  );
});
