/**
 * The stateful resources of synthesized templates and the changes that would lose their data.
 * A stateful resource is one whose type `lib/stateful-resources.ts` lists or the CloudFormation
 * schemas mark stateful. Each is identified by its stack and logical id (and, in a nested stack,
 * the logical id of that stack in its parent); with it go the values of its guarded
 * properties: those whose change makes CloudFormation replace it (read from the schemas,
 * `resource-schemas.ts`), and the few whose change the schemas do not mark but that fail or
 * weaken a guarantee (listed below with their reasons). A committed snapshot of these
 * (`test/infra/stateful-resources.snapshot.json`) is compared with the templates by
 * `compareWithSnapshot`: a resource gone (its logical id changed) or a guarded value changed
 * is a finding that says what happens and how to make the change without losing data. The
 * snapshot records the default synthesis and, marked with their context, the resources that
 * only an optional context adds (`CONTEXTS_ADDING_STATEFUL_RESOURCES`, `lib/stateful-resources.ts`).
 *
 * Also here, as data for `npm run deploy:check`: what a first deploy creates per stack
 * (`deployInventory`) and what a `cdk destroy` leaves behind (`retainedOnDestroy`).
 */
import {
  NOT_RETAINED_METADATA,
  STATEFUL_RESOURCE_TYPES,
  STATEFUL_TYPES_NOT_RETAINED,
} from '../../lib/stateful-resources.js';
import { type ReplacementBehaviour, replacingPropertiesOf, resourceSchemaOf } from './resource-schemas.js';
import type { StackTemplate, TemplateResource } from './synthesized-templates.js';

/** The command that records an intentional change (docs/deploying.md). */
export const UPDATE_SNAPSHOT_COMMAND =
  'UPDATE_STATEFUL_SNAPSHOT=1 npx jest test/infra/stateful-resources.test.ts';

/** A guarded property the schemas do not mark as replacing, and why it is guarded anyway. */
interface GuardedBeyondSchema {
  property: string;
  /** The part of the value that matters (default: all of it). */
  pick?: (value: unknown) => unknown;
  reason: string;
}

/** Per resource type: properties whose change fails or weakens a guarantee without a replacement. */
const GUARDED_BEYOND_SCHEMA: Readonly<Record<string, readonly GuardedBeyondSchema[]>> = {
  'AWS::DynamoDB::Table': [
    {
      property: 'GlobalSecondaryIndexes',
      pick: (indexes) =>
        Array.isArray(indexes)
          ? indexes.map((index: { IndexName?: unknown; KeySchema?: unknown }) => ({
              IndexName: index.IndexName,
              KeySchema: index.KeySchema,
            }))
          : indexes,
      reason:
        "CloudFormation adds or deletes at most one global secondary index per update: changing an index's name or keys deletes and creates it in one update, which fails, and the index is unusable while it is rebuilt",
    },
    {
      property: 'LocalSecondaryIndexes',
      reason:
        'local secondary indexes exist only from the creation of the table: changing them replaces the table',
    },
    {
      property: 'AttributeDefinitions',
      reason:
        "they give the types of the key attributes: a key's type cannot change on an existing table or index",
    },
  ],
  'AWS::KMS::Key': [
    {
      property: 'KeySpec',
      reason:
        "CloudFormation refuses to change a key's spec (the update fails): signatures and ciphertexts belong to the key that made them",
    },
    { property: 'KeyUsage', reason: "CloudFormation refuses to change a key's usage (the update fails)" },
  ],
  // Cognito's developer guide, "Updating user pool configuration": settings fixed at creation.
  'AWS::Cognito::UserPool': [
    {
      property: 'UsernameAttributes',
      reason:
        "Cognito fixes a pool's sign-in options at its creation: other sign-in attributes need a new pool, without the people's accounts",
    },
    {
      property: 'AliasAttributes',
      reason:
        "Cognito fixes a pool's sign-in options at its creation: other sign-in aliases need a new pool, without the people's accounts",
    },
    {
      property: 'UsernameConfiguration',
      reason:
        "Cognito fixes a pool's user name case sensitivity at its creation: changing it needs a new pool, without the people's accounts",
    },
    {
      property: 'Schema',
      reason:
        "Cognito fixes a pool's required attributes at its creation and never deletes a custom attribute: such a change needs a new pool, without the people's accounts",
    },
  ],
  'AWS::S3::Bucket': [
    {
      property: 'ObjectLockConfiguration',
      reason:
        "it sets the lock of every object written afterwards: a shorter retention or GOVERNANCE mode weakens the ledger log's guarantee that nobody can change a tile or checkpoint",
    },
  ],
};

/** How to make a change without losing data, per resource type. */
const WITHOUT_LOSING_DATA: Readonly<Record<string, string>> = {
  'AWS::DynamoDB::Table':
    'add the new table beside the old one (a new construct id), copy the items (DynamoDB export to S3 and import, or a copy job), point the functions at the new table, deploy, and remove the old construct in a later deploy (the retained table is then deleted by hand)',
  'AWS::S3::Bucket':
    'add the new bucket beside the old one, copy the objects (S3 Batch Operations or `aws s3 sync`; copies in an Object Lock bucket get a new retention), point the functions at it, deploy, and remove the old construct in a later deploy',
  'AWS::KMS::Key':
    'a key cannot be copied: add the new key beside the old one, sign or encrypt new data with it, and keep the old one for what it signed or encrypted (old ledger checkpoints verify only with the old public key)',
  'AWS::SQS::Queue':
    'add the new queue beside the old one, send to the new one, let the old one drain (its consumer still reads it), then remove it',
  'AWS::Logs::LogGroup':
    'add the new log group beside the old one; the old one keeps its events until their retention ends',
  'AWS::Cognito::UserPool':
    "a pool's passwords and MFA devices cannot be exported: add the new pool beside the old one, move people with a user migration Lambda trigger on the new pool (it checks a person's password against the old pool at their first sign-in) or invite them again, register the new pool's issuer for the companies (add-identity-provider) and remove the old one's, then remove the old construct in a later deploy",
  'AWS::CloudFormation::Stack':
    "keep the nested stack's construct id (CloudFormation deletes a nested stack whose logical id changes, with everything in it not retained)",
};
const KEEP_THE_LOGICAL_ID =
  "A logical id follows the construct's id and its parents' ids: to rename a construct, keep the old id with `(construct.node.defaultChild as CfnResource).overrideLogicalId('<old id>')`";

/** One stateful resource as the snapshot records it. */
export interface StatefulResource {
  stackName: string;
  /** For a resource in a nested stack: that stack's logical id in its parent. */
  nestedStackLogicalId?: string;
  logicalId: string;
  type: string;
  /** The construct path (`aws:cdk:path` metadata, which `cdk synth` writes), for messages; not compared. */
  path?: string;
  /** Why it is not retained, when `lib/stateful-resources.ts` says so; not compared. */
  notRetainedReason?: string;
  deletionPolicy: string;
  updateReplacePolicy: string;
  /** Guarded property → its value in the template (`null` when absent). */
  guarded: Record<string, unknown>;
}

/** One resource of the committed snapshot. */
export type SnapshotEntry = Omit<
  StatefulResource,
  'path' | 'notRetainedReason' | 'deletionPolicy' | 'updateReplacePolicy'
> & {
  /** For a resource that only an optional context adds: that context (`{"identity": "cognito"}`). */
  withContext?: Record<string, string>;
};

/** The committed snapshot's shape. */
export interface StatefulSnapshot {
  about: string;
  resources: SnapshotEntry[];
}

/** The stateful resources of a synthesis with an optional context. */
export interface SynthesisWithContext {
  context: Readonly<Record<string, string>>;
  resources: readonly StatefulResource[];
}

/** A change that would replace, orphan or fail to update a stateful resource. */
export interface StatefulFinding {
  kind: 'gone' | 'replaced' | 'guarded-change' | 'new' | 'not-retained';
  stackName: string;
  logicalId: string;
  type: string;
  property?: string;
  message: string;
}

/**
 * Whether resources of a type hold data: the types `lib/stateful-resources.ts` retains, and the
 * others the schemas mark stateful (which it lists as not retained, with its reason, or which
 * the retention test reports).
 */
export function isStatefulType(type: string): boolean {
  return type in STATEFUL_RESOURCE_TYPES || resourceSchemaOf(type)?.isStateful === true;
}

/** The guarded properties of a type: name → why a change is dangerous. */
export function guardedPropertiesOf(
  type: string,
): Map<string, { behaviour: ReplacementBehaviour; reason?: string }> {
  const guarded = new Map<string, { behaviour: ReplacementBehaviour; reason?: string }>();
  for (const [name, behaviour] of replacingPropertiesOf(type)) guarded.set(name, { behaviour });
  for (const { property, reason } of GUARDED_BEYOND_SCHEMA[type] ?? []) {
    if (!guarded.has(property)) guarded.set(property, { behaviour: 'no', reason });
  }
  return guarded;
}

/** The reason `lib/stateful-resources.ts` gives for not retaining a resource: by type, or in its metadata. */
const notRetainedReasonOf = (resource: TemplateResource): string | undefined => {
  const reason = resource.Metadata?.[NOT_RETAINED_METADATA];
  return STATEFUL_TYPES_NOT_RETAINED[resource.Type] ?? (typeof reason === 'string' ? reason : undefined);
};

const pathOf = (resource: TemplateResource): string | undefined => {
  const path = resource.Metadata?.['aws:cdk:path'];
  return typeof path === 'string' ? path : undefined;
};

/**
 * Every stateful resource of the templates with its retention and guarded values, in template
 * order.
 *
 * @example
 * const resources = statefulResourcesOf(synthesizedTemplates());
 * resources.filter((resource) => resource.deletionPolicy !== 'Retain');
 */
export function statefulResourcesOf(templates: readonly StackTemplate[]): StatefulResource[] {
  const resources: StatefulResource[] = [];
  for (const { stackName, nestedIn, template } of templates) {
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      if (!isStatefulType(resource.Type)) continue;
      const properties = resource.Properties ?? {};
      const guarded: Record<string, unknown> = {};
      for (const name of [...guardedPropertiesOf(resource.Type).keys()].sort()) {
        const pick = GUARDED_BEYOND_SCHEMA[resource.Type]?.find((each) => each.property === name)?.pick;
        const value = properties[name];
        guarded[name] = value === undefined ? null : pick ? pick(value) : value;
      }
      resources.push({
        stackName,
        ...(nestedIn ? { nestedStackLogicalId: nestedIn.logicalId } : {}),
        logicalId,
        type: resource.Type,
        path: pathOf(resource),
        notRetainedReason: notRetainedReasonOf(resource),
        // CloudFormation's default for both is Delete.
        deletionPolicy: resource.DeletionPolicy ?? 'Delete',
        updateReplacePolicy: resource.UpdateReplacePolicy ?? 'Delete',
        guarded,
      });
    }
  }
  return resources;
}

const keyOf = (resource: { stackName: string; logicalId: string }) =>
  `${resource.stackName} ${resource.logicalId}`;
const describe = (resource: { stackName: string; logicalId: string; type: string; path?: string }) =>
  `${resource.type} ${resource.logicalId} in ${resource.stackName}${resource.path ? ` (${resource.path})` : ''}`;

const entryOf = ({
  path: _path,
  notRetainedReason: _reason,
  deletionPolicy: _deletion,
  updateReplacePolicy: _replace,
  ...kept
}: StatefulResource): SnapshotEntry => kept;

/**
 * The snapshot to commit: the resources of the default synthesis, then, for each synthesis with
 * an optional context, the resources only it adds, each marked with that context (a resource of
 * the default synthesis never is).
 *
 * @example
 * snapshotOf(statefulResourcesOf(synthesizedTemplates()), [
 *   { context: { identity: 'cognito' }, resources: statefulResourcesOf(synthesizedTemplates({ identity: 'cognito' })) },
 * ]);
 */
export function snapshotOf(
  resources: readonly StatefulResource[],
  withContexts: readonly SynthesisWithContext[] = [],
): StatefulSnapshot {
  const inDefaultSynthesis = new Set(resources.map(keyOf));
  return {
    about: `The stateful resources and the property values whose change would replace one (docs/deploying.md); those marked withContext exist only with that context (-c key=value). After an intentional change: ${UPDATE_SNAPSHOT_COMMAND}`,
    resources: [
      ...resources.map(entryOf),
      ...withContexts.flatMap(({ context, resources: withContext }) =>
        withContext
          .filter((resource) => !inDefaultSynthesis.has(keyOf(resource)))
          .map((resource) => ({ withContext: { ...context }, ...entryOf(resource) })),
      ),
    ],
  };
}

/**
 * The stateful resources that a `cdk destroy` or a replacement would delete although
 * `lib/stateful-resources.ts` gives no reason (for their type, or for the resource itself).
 */
export function unretained(resources: readonly StatefulResource[]): StatefulFinding[] {
  return resources
    .filter((resource) => resource.notRetainedReason === undefined)
    .filter((resource) => resource.deletionPolicy !== 'Retain' || resource.updateReplacePolicy !== 'Retain')
    .map((resource) => ({
      kind: 'not-retained' as const,
      stackName: resource.stackName,
      logicalId: resource.logicalId,
      type: resource.type,
      message: `${describe(resource)} has DeletionPolicy ${resource.deletionPolicy} and UpdateReplacePolicy ${resource.updateReplacePolicy}: a destroy or a replacement would delete its data. Every stateful resource is retained by lib/stateful-resources.ts unless it lists the resource (NOT_RETAINED) or its type (STATEFUL_TYPES_NOT_RETAINED) with a reason: retain it, or give the reason there if it truly holds nothing to keep.`,
    }));
}

/** Whether the context of a synthesis gives every value an entry's `withContext` names. */
const isInEffect = (entry: SnapshotEntry, context: Readonly<Record<string, unknown>>) =>
  Object.entries(entry.withContext ?? {}).every(
    ([key, value]) => context[key] !== undefined && String(context[key]) === value,
  );
const contextNote = (entry: SnapshotEntry) =>
  entry.withContext
    ? ` (recorded for ${Object.entries(entry.withContext)
        .map(([key, value]) => `-c ${key}=${value}`)
        .join(' ')})`
    : '';

/**
 * Compares the templates' stateful resources with the committed snapshot: every resource of the
 * snapshot must still be there under the same logical id (and nested stack), with the same
 * guarded values; a stateful resource the snapshot does not know is reported too, so that the
 * snapshot stays complete. `context` is the synthesis's (`cdk.json`'s and the `-c` values): a
 * resource recorded for a context not in effect is absent by design, neither compared nor known.
 *
 * @example
 * const findings = compareWithSnapshot(statefulResourcesOf(templates), committedSnapshot, context);
 * if (findings.length > 0) throw new Error(findings.map((finding) => finding.message).join('\n\n'));
 */
export function compareWithSnapshot(
  resources: readonly StatefulResource[],
  snapshot: StatefulSnapshot,
  context: Readonly<Record<string, unknown>>,
): StatefulFinding[] {
  const findings: StatefulFinding[] = [];
  const current = new Map(resources.map((resource) => [keyOf(resource), resource]));
  const expected = snapshot.resources.filter((entry) => isInEffect(entry, context));
  const recorded = new Set(expected.map(keyOf));
  for (const before of expected) {
    const after = current.get(keyOf(before));
    const remedy =
      WITHOUT_LOSING_DATA[before.type] ??
      'add the new resource beside the old one, copy, switch, then remove the old one';
    if (!after) {
      findings.push({
        kind: 'gone',
        stackName: before.stackName,
        logicalId: before.logicalId,
        type: before.type,
        message: `${describe(before)}${contextNote(before)} is no longer in the template: its construct was renamed or moved (its logical id changed) or removed. CloudFormation would create an empty resource under the new id and delete the old one (or, retained, leave it out of the stack with its data). ${KEEP_THE_LOGICAL_ID}. To replace it on purpose: ${remedy}; then record the change: ${UPDATE_SNAPSHOT_COMMAND}`,
      });
      continue;
    }
    if ((before.nestedStackLogicalId ?? null) !== (after.nestedStackLogicalId ?? null)) {
      findings.push({
        kind: 'replaced',
        stackName: before.stackName,
        logicalId: before.logicalId,
        type: before.type,
        message: `${describe(after)} is in a nested stack whose logical id changed (${before.nestedStackLogicalId} → ${after.nestedStackLogicalId}): CloudFormation would delete that nested stack and create a new one, with a new ${before.type}. ${WITHOUT_LOSING_DATA['AWS::CloudFormation::Stack']}. Record an intended change: ${UPDATE_SNAPSHOT_COMMAND}`,
      });
    }
    const guarded = guardedPropertiesOf(before.type);
    const names = new Set([...Object.keys(before.guarded), ...Object.keys(after.guarded)]);
    for (const name of names) {
      const was = before.guarded[name] ?? null;
      const now = after.guarded[name] ?? null;
      if (JSON.stringify(was) === JSON.stringify(now)) continue;
      const rule = guarded.get(name);
      const why =
        rule?.behaviour === 'yes'
          ? `the CloudFormation schema of ${before.type} marks ${name} as create-only: CloudFormation would replace the resource (a new, empty one; the old one deleted, or kept out of the stack if retained)`
          : rule?.behaviour === 'maybe'
            ? `the CloudFormation schema of ${before.type} says a change of ${name} may replace the resource (a new, empty one)`
            : (rule?.reason ?? `${name} is guarded`);
      findings.push({
        kind: rule?.behaviour === 'no' ? 'guarded-change' : 'replaced',
        stackName: before.stackName,
        logicalId: before.logicalId,
        type: before.type,
        property: name,
        message: `${describe(after)}: ${name} changes from ${JSON.stringify(was)} to ${JSON.stringify(now)}. Why it matters: ${why}. To make the change without losing data: ${remedy}. If the change is intended and safe, record it: ${UPDATE_SNAPSHOT_COMMAND}`,
      });
    }
  }
  for (const resource of resources) {
    if (recorded.has(keyOf(resource))) continue;
    findings.push({
      kind: 'new',
      stackName: resource.stackName,
      logicalId: resource.logicalId,
      type: resource.type,
      message: `${describe(resource)} is a stateful resource the snapshot does not know (new, or a renamed one: see the resources reported gone). Once it is meant to stay under this id, record it: ${UPDATE_SNAPSHOT_COMMAND} (which records what an optional context adds when lib/stateful-resources.ts lists the context in CONTEXTS_ADDING_STATEFUL_RESOURCES)`,
    });
  }
  return findings;
}

/** What a first deploy creates in one stack, by kind. */
export interface StackInventory {
  stackName: string;
  nestedIn?: string;
  resources: number;
  functions: number;
  tables: number;
  buckets: number;
  keys: number;
  alarms: number;
  queues: number;
  logGroups: number;
  topics: number;
  eventBuses: number;
  restApis: number;
  distributions: number;
  nestedStacks: number;
}

const INVENTORY_TYPES: ReadonlyArray<
  [Exclude<keyof StackInventory, 'stackName' | 'nestedIn' | 'resources'>, string]
> = [
  ['functions', 'AWS::Lambda::Function'],
  ['tables', 'AWS::DynamoDB::Table'],
  ['buckets', 'AWS::S3::Bucket'],
  ['keys', 'AWS::KMS::Key'],
  ['alarms', 'AWS::CloudWatch::Alarm'],
  ['queues', 'AWS::SQS::Queue'],
  ['logGroups', 'AWS::Logs::LogGroup'],
  ['topics', 'AWS::SNS::Topic'],
  ['eventBuses', 'AWS::Events::EventBus'],
  ['restApis', 'AWS::ApiGateway::RestApi'],
  ['distributions', 'AWS::CloudFront::Distribution'],
  ['nestedStacks', 'AWS::CloudFormation::Stack'],
];

/**
 * What a first deploy would create, per stack (nested stacks counted in their own row): every
 * resource, and by kind the functions, tables, buckets, keys, alarms, queues, log groups, ...
 *
 * @example
 * console.table(deployInventory(synthesizedTemplates()));
 */
export function deployInventory(templates: readonly StackTemplate[]): StackInventory[] {
  return templates.map(({ stackName, nestedIn, template }) => {
    const types = Object.values(template.Resources ?? {}).map((resource) => resource.Type);
    const inventory = {
      stackName,
      ...(nestedIn ? { nestedIn: nestedIn.stackName } : {}),
      resources: types.length,
    } as StackInventory;
    for (const [field, type] of INVENTORY_TYPES)
      inventory[field] = types.filter((each) => each === type).length;
    return inventory;
  });
}

/** A resource a `cdk destroy` leaves in the account. */
export interface RetainedResource {
  stackName: string;
  logicalId: string;
  type: string;
  path?: string;
}

/**
 * Every resource that a `cdk destroy` leaves behind (`DeletionPolicy: Retain`), in template
 * order: in a normal deploy, every stateful resource but the exceptions of
 * `lib/stateful-resources.ts`; in trial mode, none.
 */
export function retainedOnDestroy(templates: readonly StackTemplate[]): RetainedResource[] {
  return templates.flatMap(({ stackName, template }) =>
    Object.entries(template.Resources ?? {})
      .filter(([, resource]) => resource.DeletionPolicy === 'Retain')
      .map(([logicalId, resource]) => ({
        stackName,
        logicalId,
        type: resource.Type,
        path: pathOf(resource),
      })),
  );
}
