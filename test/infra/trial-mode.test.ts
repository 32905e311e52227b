/**
 * Trial mode (`cdk deploy -c trial=true`, docs/deploying.md): everything a trial creates can be
 * deleted. No resource is retained, the buckets are emptied on delete where Object Lock allows
 * (CDK's auto-delete custom resource), the ledger log's Object Lock is GOVERNANCE for a day,
 * the keys wait the shortest pending window, and the table has no deletion protection. The
 * templates stay valid and cdk-nag clean, as every deploy's synth checks.
 */
import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { KEY_DELETION_ACTION } from '../../lib/key-policy.js';
import { SHORTEST_KEY_PENDING_WINDOW_DAYS, TRIAL_OBJECT_LOCK_DAYS } from '../../lib/stateful-resources.js';
import { cdkJsonContext } from '../../lib/synthesized-stack.js';
import { retainedOnDestroy, statefulResourcesOf } from '../../scripts/deploy-check/stateful-resources.js';
import {
  buildStacks,
  type StackTemplate,
  synthesizedTemplates,
} from '../../scripts/deploy-check/synthesized-templates.js';
import { validateTemplates } from '../../scripts/deploy-check/template-validation.js';

let trial: StackTemplate[];

const resourcesOfType = (templates: StackTemplate[], type: string) =>
  templates.flatMap(({ template }) =>
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({ logicalId, ...resource })),
  );

beforeAll(() => {
  // Act
  trial = synthesizedTemplates({ trial: 'true' });
});

it('retains nothing: every stateful resource is deleted with the stack, and on replacement', () => {
  // Assess
  expect(retainedOnDestroy(trial)).toEqual([]);
  const stateful = statefulResourcesOf(trial);
  expect(stateful.length).toBeGreaterThan(60);
  for (const resource of stateful) {
    expect({
      id: resource.logicalId,
      deletion: resource.deletionPolicy,
      replace: resource.updateReplacePolicy,
    }).toEqual({
      id: resource.logicalId,
      deletion: 'Delete',
      replace: 'Delete',
    });
  }
});

it("locks the ledger log's objects in GOVERNANCE mode for a day", () => {
  // Assess
  const lockedBuckets = resourcesOfType(trial, 'AWS::S3::Bucket').filter(
    (bucket) => bucket.Properties?.ObjectLockEnabled === true,
  );
  expect(lockedBuckets).toHaveLength(1);
  expect(lockedBuckets[0]!.Properties!.ObjectLockConfiguration).toEqual({
    ObjectLockEnabled: 'Enabled',
    Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: TRIAL_OBJECT_LOCK_DAYS } },
  });
});

it('empties every bucket on delete (CDK auto-delete custom resource)', () => {
  // Assess
  const buckets = resourcesOfType(trial, 'AWS::S3::Bucket')
    .map((bucket) => bucket.logicalId)
    .sort();
  const emptied = resourcesOfType(trial, 'Custom::S3AutoDeleteObjects')
    .map((custom) => (custom.Properties!.BucketName as { Ref: string }).Ref)
    .sort();
  expect(emptied).toEqual(buckets);
});

it('deletes the keys after the shortest pending window, lets the table be deleted, reserves no concurrency', () => {
  // Assess
  for (const key of resourcesOfType(trial, 'AWS::KMS::Key')) {
    expect(key.Properties!.PendingWindowInDays).toBe(SHORTEST_KEY_PENDING_WINDOW_DAYS);
  }
  // The guarded keys (lib/key-policy.ts) let the account schedule their deletion in a trial only.
  const deleters = resourcesOfType(trial, 'AWS::KMS::Key').flatMap((key) =>
    (
      key.Properties!.KeyPolicy as { Statement: Array<{ Principal: unknown; Action: unknown }> }
    ).Statement.filter((statement) => [statement.Action].flat().includes(KEY_DELETION_ACTION)),
  );
  expect(deleters).toHaveLength(2);
  for (const statement of deleters) expect(JSON.stringify(statement.Principal)).toContain(':root');
  // A new account's concurrency limit leaves no room to reserve (lib/background-job-functions.ts).
  for (const lambdaFunction of resourcesOfType(trial, 'AWS::Lambda::Function')) {
    expect(lambdaFunction.Properties!.ReservedConcurrentExecutions).toBeUndefined();
  }
  const [table] = resourcesOfType(trial, 'AWS::DynamoDB::Table');
  expect(table!.Properties!.DeletionProtectionEnabled).toBe(false);
});

it('keeps a normal deploy as it is: COMPLIANCE Object Lock, no auto-delete', () => {
  // Act
  const normal = synthesizedTemplates();
  // Assess
  const [ledger] = resourcesOfType(normal, 'AWS::S3::Bucket').filter(
    (bucket) => bucket.Properties?.ObjectLockEnabled,
  );
  expect(ledger!.Properties!.ObjectLockConfiguration).toEqual({
    ObjectLockEnabled: 'Enabled',
    Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 365 } },
  });
  expect(resourcesOfType(normal, 'Custom::S3AutoDeleteObjects')).toEqual([]);
});

it('gives templates the CloudFormation schemas accept', () => {
  // Assess
  expect(validateTemplates(trial)).toEqual([]);
});

it('passes the cdk-nag checks every synth runs', () => {
  // Prepare
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], trial: 'true' } });
  const stacks = buildStacks(app);
  // Act: after the synth, which runs the aspects that acknowledge findings (as `cdk synth` does).
  app.synth();
  const open = stacks.flatMap((stack) =>
    new AwsSolutionsChecks()
      .validateScope(stack)
      .violations.map(
        (violation) =>
          `${violation.ruleName}: ${violation.violatingResources.map((each) => each.constructPath).join(', ')}`,
      ),
  );
  // Assess
  expect(open).toEqual([]);
});
