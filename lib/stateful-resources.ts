/**
 * What a `cdk destroy` or a replacement may delete: the one place that decides it. Every
 * resource of a type that holds data (the table, the buckets, the KMS keys, the queues, the log
 * groups) is kept (`DeletionPolicy` and `UpdateReplacePolicy` `Retain`) unless it is on the
 * short list of exceptions below, each with its reason; the table also refuses deletion
 * (deletion protection) and keeps point-in-time recovery; a Cognito user pool refuses deletion too.
 *
 * Trial mode (`cdk deploy -c trial=true`) makes everything deletable instead: `Delete` policies,
 * buckets emptied on delete, keys deleted after the shortest waiting period, the table without
 * deletion protection, and the ledger log's Object Lock in GOVERNANCE mode for one day
 * (`lib/ledger-log.ts`). docs/deploying.md says what each mode keeps and for how long.
 */
import { Aspects, CfnResource, type IAspect, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { CfnUserPool } from 'aws-cdk-lib/aws-cognito';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnKey } from 'aws-cdk-lib/aws-kms';
import type { IConstruct } from 'constructs';
import { IDENTITY_CONTEXT, type IdentityOption } from './people-sign-in.js';

/** The context value of trial mode: `cdk deploy -c trial=true`. */
const TRIAL_CONTEXT = 'trial';

/**
 * The optional contexts whose synthesis adds stateful resources, each as `-c key=value` gives it.
 * The snapshot of `test/infra/stateful-resources.test.ts` records what each one adds, marked with
 * it, beside the default synthesis, so that a deploy with the context is checked for
 * replacements too (`npm run deploy:check -- -c key=value`). A new such context belongs here.
 */
export const CONTEXTS_ADDING_STATEFUL_RESOURCES: ReadonlyArray<Readonly<Record<string, string>>> = [
  // A Cognito user pool: people's accounts (lib/people-sign-in.ts).
  { [IDENTITY_CONTEXT]: 'cognito' satisfies IdentityOption },
];

/** Days the ledger log's objects stay locked (GOVERNANCE mode) in trial mode. */
export const TRIAL_OBJECT_LOCK_DAYS = 1;

/** KMS waits at least this many days before it deletes a key (the shortest pending window). */
export const SHORTEST_KEY_PENDING_WINDOW_DAYS = 7;

/** The CloudFormation types that hold data, and what each holds. */
export const STATEFUL_RESOURCE_TYPES: Readonly<Record<string, string>> = {
  'AWS::DynamoDB::Table': 'every item of the registry and the ledger',
  'AWS::S3::Bucket': "files' bytes, the ledger log's tiles and checkpoints, access logs, the console",
  'AWS::KMS::Key': 'the ledger signing identity and the keys of what is encrypted under them',
  'AWS::SQS::Queue': 'webhook deliveries not yet made',
  'AWS::Logs::LogGroup': 'who called what: function, API access and execution logs',
  'AWS::Events::Archive': 'archived events (none today)',
  'AWS::Cognito::UserPool': "people's accounts, passwords and MFA devices (with `-c identity=cognito`)",
};

/**
 * Types the CloudFormation schemas mark stateful whose resources are not retained, and why.
 * (The snapshot of `test/infra/stateful-resources.test.ts` still records nested stacks' logical
 * ids: a new one replaces every resource inside.)
 */
export const STATEFUL_TYPES_NOT_RETAINED: Readonly<Record<string, string>> = {
  'AWS::CloudFormation::Stack':
    'A nested stack holds the functions of a group of operations; its log groups are retained one by one, and a retained nested stack would keep its functions and roles running after a destroy.',
  'AWS::SecretsManager::Secret':
    'The page-cursor key authenticates positions in a list walk, not data: a new key only ends the walks in flight (lib/page-cursor-key.ts); Secrets Manager still waits its recovery window before deleting it.',
};

/**
 * Stateful resources deleted with the stack on purpose, by construct path below their top-level
 * stack, with the reason. The aspect writes the reason into the resource's template metadata
 * ({@link NOT_RETAINED_METADATA}), where the deploy check reads it; an infra test fails when an
 * entry matches no resource.
 */
export const NOT_RETAINED: ReadonlyArray<{ path: string; reason: string }> = [
  {
    path: 'Monitoring/AlarmTopicKey/Resource',
    reason:
      'It encrypts alarm notifications in flight only (SNS keeps no message): nothing encrypted under it outlives the topic.',
  },
];

/** The template metadata key that carries a {@link NOT_RETAINED} reason. */
export const NOT_RETAINED_METADATA = 'AssetRegistry::NotRetained';

/** Whether the app is synthesized in trial mode (`-c trial=true`; cdk.json may hold a real boolean). */
export function isTrial(scope: IConstruct): boolean {
  const value = scope.node.tryGetContext(TRIAL_CONTEXT);
  return value === true || value === 'true';
}

/**
 * The removal settings of a bucket: kept, or in trial mode deleted with the stack after being
 * emptied (CDK's auto-delete custom resource; it needs the `DESTROY` policy at construction).
 *
 * @example
 * new Bucket(this, 'FilesBucket', { ...bucketRemovalOf(this), versioned: true });
 */
export function bucketRemovalOf(scope: IConstruct): {
  removalPolicy: RemovalPolicy;
  autoDeleteObjects: boolean;
} {
  return isTrial(scope)
    ? { removalPolicy: RemovalPolicy.DESTROY, autoDeleteObjects: true }
    : { removalPolicy: RemovalPolicy.RETAIN, autoDeleteObjects: false };
}

/**
 * Applies the retention rules to every stateful resource under a stack, nested stacks included.
 *
 * @example
 * applyStatefulResourcePolicy(this); // in a top-level stack's constructor
 */
export function applyStatefulResourcePolicy(stack: Stack): void {
  Aspects.of(stack).add(new StatefulResourcePolicy(stack, isTrial(stack)));
}

/** The aspect behind {@link applyStatefulResourcePolicy}. */
class StatefulResourcePolicy implements IAspect {
  constructor(
    private readonly stack: Stack,
    private readonly trial: boolean,
  ) {}

  visit(node: IConstruct): void {
    if (!CfnResource.isCfnResource(node) || !(node.cfnResourceType in STATEFUL_RESOURCE_TYPES)) return;
    const relativePath = node.node.path.slice(this.stack.node.path.length + 1);
    const exception = NOT_RETAINED.find((each) => each.path === relativePath);
    if (exception) {
      node.addMetadata(NOT_RETAINED_METADATA, exception.reason);
      return;
    }
    node.applyRemovalPolicy(this.trial ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN);
    if (node instanceof CfnTable) node.deletionProtectionEnabled = !this.trial;
    if (node instanceof CfnUserPool) node.deletionProtection = this.trial ? 'INACTIVE' : 'ACTIVE';
    if (node instanceof CfnKey && this.trial) node.pendingWindowInDays = SHORTEST_KEY_PENDING_WINDOW_DAYS;
  }
}
