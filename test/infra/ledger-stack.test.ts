/** The ledger's infrastructure: the Object Lock log bucket, the KMS signing key, the sequencer's trigger, and append-only IAM. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_BATCH_SIZE } from '../../lambdas/domain/ledger/sequencer';
import { SEQUENCER_TIMING_ENVIRONMENT, sequencerTiming } from '../../lambdas/domain/ledger/sequencer-timing';
import { SEQUENCER_MAX_RECORD_AGE_SECONDS, SEQUENCER_RETRY_ATTEMPTS } from '../../lib/ledger-log';
import {
  LEDGER_BARE_PUT_CONDITION,
  LEDGER_PARTITION_PATTERN,
  LEDGER_REWRITE_ACTIONS,
} from '../../lib/ledger-protection';
import { actionsOf, resourcesOf, statementsOfRole, synthesizeStack } from './synthesized-stack';

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

  it('starts the sequencer from the outbox inserts of the table stream, on no schedule, signing with a KMS Ed25519 key', () => {
    // Prepare
    const functionId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction);
    const keyId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.signingKey);
    const tableId = synthesized.logicalIdOf(synthesized.stack.dataStore.table);
    const timing = sequencerTiming();
    // Assess: one mapping, filtered on outbox inserts, retries bounded, the window of the bound
    const mappings = template.findResources('AWS::Lambda::EventSourceMapping', {
      Properties: { FunctionName: { Ref: functionId } },
    });
    expect(Object.values(mappings)).toEqual([
      {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: {
          FunctionName: { Ref: functionId },
          EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
          StartingPosition: 'TRIM_HORIZON',
          BatchSize: DEFAULT_BATCH_SIZE,
          MaximumBatchingWindowInSeconds: 15,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          MaximumRetryAttempts: SEQUENCER_RETRY_ATTEMPTS,
          MaximumRecordAgeInSeconds: SEQUENCER_MAX_RECORD_AGE_SECONDS,
          DestinationConfig: {
            OnFailure: {
              Destination: {
                'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.failedWork.queue), 'Arn'],
              },
            },
          },
          FilterCriteria: {
            Filters: [
              {
                Pattern: JSON.stringify({
                  eventName: ['INSERT'],
                  dynamodb: { Keys: { pk: { S: [{ prefix: 'LOG_OUTBOX#' }] } } },
                }),
              },
            ],
          },
        },
      },
    ]);
    expect(timing.batchingWindowSeconds).toBe(15);
    // Nothing scheduled: while nobody writes, nothing runs.
    template.resourceCountIs('AWS::Events::Rule', 0);
    template.resourceCountIs('AWS::Scheduler::Schedule', 0);
    template.hasResourceProperties('AWS::KMS::Key', {
      KeySpec: 'ECC_NIST_EDWARDS25519',
      KeyUsage: 'SIGN_VERIFY',
    });
    const variables = template.toJSON().Resources[functionId].Properties.Environment.Variables;
    expect(variables).toMatchObject({
      LEDGER_SIGNING_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] },
      LEDGER_LOG_ORIGIN: expect.stringMatching(/^asset-registry\//),
      SEQUENCER_LEASE_SECONDS: '25',
      SEQUENCER_LEASE_RETRY_SECONDS: '0.5',
      SEQUENCER_RUN_SECONDS: '240',
    });
    expect(
      Object.keys(variables)
        .filter((name) => name.startsWith('SEQUENCER_'))
        .sort(),
    ).toEqual(Object.values(SEQUENCER_TIMING_ENVIRONMENT).sort());
    // A run starts cycles for runSeconds and has the rest of its timeout for the last one.
    expect(template.toJSON().Resources[functionId].Properties.Timeout).toBeGreaterThanOrEqual(
      timing.runSeconds + 60,
    );
  });

  it("lets the sequencer read the table's stream and nothing else of streams", () => {
    // Prepare
    const sequencerFunction = synthesized.stack.ledgerLog.sequencerFunction;
    const statements = statementsOfRole(template, synthesized.logicalIdOf(sequencerFunction.role!));
    const streamArn = {
      'Fn::GetAtt': [synthesized.logicalIdOf(synthesized.stack.dataStore.table), 'StreamArn'],
    };
    // Act: where each stream action is allowed
    const resourcesOfAction: Record<string, unknown[]> = {};
    for (const statement of statements.filter((each) => each.Effect === 'Allow')) {
      for (const action of actionsOf(statement).filter((each) =>
        /^dynamodb:.*(Stream|Shard|Records)/.test(each),
      )) {
        resourcesOfAction[action] = [...(resourcesOfAction[action] ?? []), ...resourcesOf(statement)];
      }
    }
    // Assess: the read actions on this table's stream ARN; ListStreams, which takes no resource, on "*"
    expect(resourcesOfAction).toEqual({
      'dynamodb:ListStreams': ['*'],
      'dynamodb:DescribeStream': [streamArn],
      'dynamodb:GetRecords': [streamArn],
      'dynamodb:GetShardIterator': [streamArn],
    });
  });

  // test/unit/ledger-sequencer-trigger.test.ts runs the runs with these settings and checks the bound.
  it('gives the sequencer the settings of a configured bound, and refuses one it cannot keep', () => {
    // Prepare
    const fast = synthesizeStack({ ledgerCheckpointSeconds: '15' });
    const functionId = fast.logicalIdOf(fast.stack.ledgerLog.sequencerFunction);
    const timing = sequencerTiming(15);
    const [mapping] = Object.values(
      fast.template.findResources('AWS::Lambda::EventSourceMapping', {
        Properties: { FunctionName: { Ref: functionId } },
      }),
    );
    // Assess
    expect(timing).toMatchObject({ batchingWindowSeconds: 3, leaseSeconds: 13 });
    expect(mapping?.Properties.MaximumBatchingWindowInSeconds).toBe(timing.batchingWindowSeconds);
    expect(fast.template.toJSON().Resources[functionId].Properties.Environment.Variables).toMatchObject({
      SEQUENCER_RUN_SECONDS: String(timing.runSeconds),
      SEQUENCER_LEASE_SECONDS: String(timing.leaseSeconds),
      SEQUENCER_LEASE_RETRY_SECONDS: String(timing.leaseRetrySeconds),
    });
    expect(() => synthesizeStack({ ledgerCheckpointSeconds: '5' })).toThrow(
      /ledgerCheckpointSeconds must be a whole number of seconds, at least 10 \(got 5\)/,
    );
  });

  it('gives the sequencer the witness policy named by witnessPolicyFile, and refuses a file it cannot use', () => {
    // Prepare
    const folder = mkdtempSync(join(tmpdir(), 'witness-policy-'));
    const policyFile = join(folder, 'witnesses.txt');
    const policy =
      'witness W1 w1.example+01234567+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA http://w1\nquorum W1\n';
    writeFileSync(policyFile, policy);
    writeFileSync(join(folder, 'no-quorum.txt'), 'witness W1 w1.example+01234567+BAAA http://w1\n');
    writeFileSync(join(folder, 'large.txt'), `${'#'.repeat(4000)}\nquorum none\n`);
    // Act
    const witnessed = synthesizeStack({ witnessPolicyFile: policyFile });
    const functionId = witnessed.logicalIdOf(witnessed.stack.ledgerLog.sequencerFunction);
    // Assess
    expect(witnessed.template.toJSON().Resources[functionId].Properties.Environment.Variables).toMatchObject({
      LEDGER_WITNESS_POLICY: policy,
    });
    const unwitnessedId = synthesized.logicalIdOf(synthesized.stack.ledgerLog.sequencerFunction);
    expect(
      template.toJSON().Resources[unwitnessedId].Properties.Environment.Variables.LEDGER_WITNESS_POLICY,
    ).toBeUndefined();
    expect(() => synthesizeStack({ witnessPolicyFile: join(folder, 'missing.txt') })).toThrow(
      /witnessPolicyFile: .*missing.txt cannot be read/,
    );
    expect(() => synthesizeStack({ witnessPolicyFile: join(folder, 'no-quorum.txt') })).toThrow(
      /has no quorum line/,
    );
    expect(() => synthesizeStack({ witnessPolicyFile: join(folder, 'large.txt') })).toThrow(
      /over 3072 bytes/,
    );
  });

  it('gives the sequencer a witness timeout from witnessTimeoutMs, and refuses one longer than a third of the lease', () => {
    // Act
    const given = synthesizeStack({ witnessTimeoutMs: '5000' });
    const functionId = given.logicalIdOf(given.stack.ledgerLog.sequencerFunction);
    // Assess
    expect(given.template.toJSON().Resources[functionId].Properties.Environment.Variables).toMatchObject({
      LEDGER_WITNESS_TIMEOUT_MS: '5000',
    });
    // The default bound's lease is 25 s; at a 10 s bound it is 12 s.
    expect(() => synthesizeStack({ witnessTimeoutMs: '9000' })).toThrow(
      /witnessTimeoutMs must be a whole number of milliseconds from 100 to 8333/,
    );
    expect(() => synthesizeStack({ witnessTimeoutMs: '5000', ledgerCheckpointSeconds: '10' })).toThrow(
      /from 100 to 4000 \(a third of the 12 s lease\)/,
    );
  });

  it('denies every function changing, deleting, or putting outside a transaction, ledger event items', () => {
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
          // In any order: the synthesis may sort a statement's actions (minimizePolicies).
          Action: expect.arrayContaining([...LEDGER_REWRITE_ACTIONS]),
          Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] } },
        }),
      );
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'dynamodb:PutItem',
          Condition: {
            'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [LEDGER_PARTITION_PATTERN] },
            ...LEDGER_BARE_PUT_CONDITION,
          },
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
