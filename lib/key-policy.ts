/**
 * The key policy of the stack's KMS keys that guard data (the webhook secrets key, the
 * checkpoint signing key). CDK's default policy gives the account `kms:*`, so that any
 * administrator of the account could use the key or schedule its deletion through IAM alone.
 * Here:
 * - the account (through IAM) may administer the key but neither use it nor delete it;
 * - each function that uses the key is named in the policy with exactly its actions;
 * - scheduling deletion is kept for the role the `keyAdminRoleArn` context value names (without
 *   it, deletion first needs a change of the key policy, a deliberate and logged step); a trial
 *   stack (context `trial`) lets the account delete, so that the stack can be destroyed.
 */
import { createHash } from 'node:crypto';
import { Aws, Stack } from 'aws-cdk-lib';
import {
  AccountRootPrincipal,
  ArnPrincipal,
  CfnRole,
  type IRole,
  PolicyDocument,
  PolicyStatement,
} from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { isTrial } from './stateful-resources.js';

/** The context value naming the one role that may schedule the deletion of a guarded key. */
export const KEY_ADMIN_ROLE_CONTEXT = 'keyAdminRoleArn';

/** The key administrators' actions of the KMS console's default policy, without deletion. */
export const KEY_ADMINISTRATION_ACTIONS = [
  'kms:Create*',
  'kms:Describe*',
  'kms:Enable*',
  'kms:List*',
  'kms:Put*',
  'kms:Update*',
  'kms:Revoke*',
  'kms:Disable*',
  'kms:Get*',
  'kms:Delete*',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:CancelKeyDeletion',
];

export const KEY_DELETION_ACTION = 'kms:ScheduleKeyDeletion';

/** The starting policy of a guarded key; {@link allowKeyUse} adds its users. */
export function guardedKeyPolicy(scope: IConstruct): PolicyDocument {
  const adminRoleArn: unknown = scope.node.tryGetContext(KEY_ADMIN_ROLE_CONTEXT);
  if (adminRoleArn !== undefined && !/^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/.test(String(adminRoleArn))) {
    throw new Error(`${KEY_ADMIN_ROLE_CONTEXT} must be the ARN of an IAM role (got ${String(adminRoleArn)})`);
  }
  const account = new AccountRootPrincipal();
  const trial = isTrial(scope);
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AccountAdministersTheKey',
        principals: [account],
        actions: trial ? [...KEY_ADMINISTRATION_ACTIONS, KEY_DELETION_ACTION] : KEY_ADMINISTRATION_ACTIONS,
        resources: ['*'],
      }),
      ...(adminRoleArn && !trial
        ? [
            new PolicyStatement({
              sid: 'NamedRoleDeletesTheKey',
              principals: [new ArnPrincipal(String(adminRoleArn))],
              actions: [KEY_DELETION_ACTION],
              resources: ['*'],
            }),
          ]
        : []),
    ],
  });
}

/**
 * Lets one function use a guarded key for exactly these actions: in its role's policy and, by
 * the role's ARN, in the key's policy (the account's IAM alone grants no use of the key).
 *
 * The key policy names the role in a condition on `aws:PrincipalArn`, not as the principal: KMS
 * refuses a policy whose principal does not exist yet, and a role of a nested stack is created
 * after the key. Such a role gets a name of its own (the stack's, its region's, a hash of its
 * path), so that the key's policy can name it without a reference into the nested stack (which,
 * with the nested stack's reference to the key, would be a circular dependency).
 *
 * @example
 * allowKeyUse(signingKey, sequencerFunction, ['kms:Sign', 'kms:GetPublicKey']);
 */
export function allowKeyUse(key: IKey, user: IFunction, actions: readonly string[]): void {
  const role = user.role;
  if (!role) throw new Error(`${user.node.path} has no role to name in the key policy of ${key.node.path}`);
  user.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [key.keyArn] }));
  const keyStack = Stack.of(key);
  const roleArn = Stack.of(role) === keyStack ? role.roleArn : namedRoleArn(keyStack, role);
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new AccountRootPrincipal()],
      actions: [...actions],
      resources: ['*'],
      conditions: { ArnEquals: { 'aws:PrincipalArn': roleArn } },
    }),
  );
}

/** Gives a role a name (at most 64 characters, unique per stack and region) and returns its ARN. */
function namedRoleArn(keyStack: Stack, role: IRole): string {
  const cfnRole = role.node.defaultChild;
  if (!(cfnRole instanceof CfnRole)) throw new Error(`${role.node.path} is not a role of this app`);
  const pathHash = createHash('sha256').update(role.node.path).digest('hex').slice(0, 8);
  // Region names are at most 14 characters: 30 + 1 + 14 + 1 + 8 = 54.
  const roleName = `${keyStack.stackName.slice(0, 30)}-${Aws.REGION}-${pathHash}`;
  cfnRole.roleName = roleName;
  return keyStack.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: roleName });
}
