/**
 * The witness's own stack (`bin/witness.ts`): one function behind a public function URL, one
 * table kept on delete, one Ed25519 KMS key, and a role that may read and conditionally put
 * items of that table and sign with that key, nothing else; cdk-nag leaves no finding open.
 */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { cdkJsonContext } from '../../lib/synthesized-stack.js';
import { WitnessStack } from '../../lib/witness/witness-stack.js';
import { testLog } from '../support/witness-log';

interface Statement {
  Effect: string;
  Action: string | string[];
}

const synthesize = (context: Record<string, unknown>) =>
  new WitnessStack(
    new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } }),
    'WitnessUnderTest',
  );

let stack: WitnessStack;
let template: Template;
let logKeys: string[];

beforeAll(async () => {
  // Prepare
  logKeys = [(await testLog('log.example/one')).verifierKey, (await testLog('log.example/two')).verifierKey];
  // Act
  stack = synthesize({ witnessLogs: logKeys.join(','), witnessName: 'auditor.example/w1' });
  template = Template.fromStack(stack);
});

describe('the witness stack', () => {
  it('has one function, one function URL, one table and one key', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.resourceCountIs('AWS::KMS::Key', 1);
  });

  it('runs the witness on Node.js 24 with the logs, the name, the table and the key', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Environment: {
        Variables: Match.objectLike({
          WITNESS_LOGS: logKeys.join('\n'),
          WITNESS_NAME: 'auditor.example/w1',
          WITNESS_TABLE_NAME: { Ref: Match.anyValue() },
          WITNESS_KMS_KEY_ID: { Ref: Match.anyValue() },
        }),
      },
    });
    template.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'NONE' });
  });

  it('keys the table by origin, keeps it on delete, with deletion protection and point-in-time recovery', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [{ AttributeName: 'origin', KeyType: 'HASH' }],
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      },
    });
  });

  it('signs with an Ed25519 KMS key that is kept on delete', () => {
    template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'Retain',
      Properties: { KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY' },
    });
  });

  it("lets the function's role read and put table items and sign, and nothing more on data", () => {
    // Act
    const actions = Object.values(template.findResources('AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => /^(dynamodb|kms):/.test(action))
      .sort();
    // Assess
    expect(actions).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'kms:GetPublicKey', 'kms:Sign']);
  });

  it('leaves no cdk-nag AWS Solutions finding open', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    const open = report.violations.map(
      (violation) =>
        `${violation.ruleName}: ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
    );
    expect(open).toEqual([]);
  });

  it.each([
    ['no log', {}],
    ['a log that is no verifier key', { witnessLogs: 'log.example/one' }],
    ['a name with a space', { witnessLogs: 'x+01234567+AQ==', witnessName: 'a b' }],
  ])('refuses to synthesize with %s', (_, context) => {
    expect(() => synthesize(context)).toThrow();
  });
});
