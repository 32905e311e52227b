/** The ledger's infrastructure: the Object Lock log bucket, the KMS signing key, the sequencer's schedule, and append-only IAM. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { sequencerTiming } from '../../lambdas/domain/ledger/sequencer-timing';
import { LEDGER_PARTITION_PATTERN, LEDGER_REWRITE_ACTIONS } from '../../lib/ledger-protection';
import { synthesizeStack } from './synthesized-stack';

type CfnResource = { Type: string; Properties: Record<string, unknown> };

describe('ledger infrastructure', () => {
  let synthesized: ReturnType<typeof synthesizeStack>;
  let template: Template;

  beforeAll(() => {
    synthesized = synthesizeStack();
    template = synthesized.template;
  });

  it('keeps the log files in a bucket with Object Lock in COMPLIANCE mode', () => {
    // Prepare
    const bucketId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.bucket);
    // Assess
    expect(template.toJSON().Resources[bucketId]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        ObjectLockEnabled: true,
        ObjectLockConfiguration: {
          ObjectLockEnabled: 'Enabled',
          Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 365 } },
        },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      },
    });
  });

  it('runs the sequencer every minute for 80 s (runs overlap), polling within the 60 s bound, signing with a KMS Ed25519 key', () => {
    // Prepare
    const functionId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction);
    const keyId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.signingKey);
    // Assess
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] } })]),
    });
    template.hasResourceProperties('AWS::KMS::Key', {
      KeySpec: 'ECC_NIST_EDWARDS25519',
      KeyUsage: 'SIGN_VERIFY',
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          LEDGER_SIGNING_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] },
          LEDGER_LOG_ORIGIN: Match.stringLikeRegexp('^asset-registry/'),
          SEQUENCER_POLL_SECONDS: '20',
          SEQUENCER_RUN_SECONDS: '80',
          SEQUENCER_LEASE_SECONDS: '30',
          SEQUENCER_LEASE_RETRY_SECONDS: '1',
        }),
      },
    });
  });

  // test/unit/ledger-sequencer-schedule.test.ts runs the handler with these settings and checks the bound.
  it('gives the sequencer the settings of a configured bound, and refuses one it cannot keep', () => {
    // Prepare
    const fast = synthesizeStack({ ledgerCheckpointSeconds: '15' });
    const functionId = fast.logicalIdOf(fast.stack.ledgerLog.sequencerFunction);
    const timing = sequencerTiming(15);
    // Assess
    expect(timing).toMatchObject({ pollSeconds: 7, runSeconds: 80 });
    expect(fast.template.toJSON().Resources[functionId].Properties.Environment.Variables).toMatchObject({
      SEQUENCER_POLL_SECONDS: String(timing.pollSeconds),
      SEQUENCER_RUN_SECONDS: String(timing.runSeconds),
      SEQUENCER_LEASE_SECONDS: String(timing.leaseSeconds),
      SEQUENCER_LEASE_RETRY_SECONDS: String(timing.leaseRetrySeconds),
    });
    expect(() => synthesizeStack({ ledgerCheckpointSeconds: '5' })).toThrow(
      /ledgerCheckpointSeconds must be a whole number of seconds, at least 10 \(got 5\)/,
    );
  });

  it('denies every function changing or deleting ledger event items', () => {
    // Prepare
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, CfnResource>);
    const roleOf = (lambdaFunction: CfnResource) =>
      (lambdaFunction.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    // Assess
    for (const lambdaFunction of Object.values(functions)) {
      const statements = policies
        .filter((policy) =>
          (policy.Properties.Roles as Array<{ Ref: string }>).some(
            (role) => role.Ref === roleOf(lambdaFunction),
          ),
        )
        .flatMap(
          (policy) =>
            (policy.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement,
        );
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: LEDGER_REWRITE_ACTIONS,
          Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] } },
        }),
      );
    }
  });

  it('lets the subcategory update start the removal job, by name', () => {
    // Prepare
    const updateFunction = synthesized.stack.api.operationFunctions.get('updateSubcategory');
    const job = synthesized.stack.backgroundJobs.functions.get('removeSubcategoryData');
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    // Assess
    expect(updateFunction && job).toBeTruthy();
    const properties = functions[synthesized.logicalIdOf(updateFunction!)]?.Properties ?? {};
    const environment = (properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(environment.REMOVE_SUBCATEGORY_DATA_FUNCTION_NAME).toEqual({ Ref: synthesized.logicalIdOf(job!) });
  });
});
