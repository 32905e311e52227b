/**
 * `cdk synth` prints no warning: every feature flag is configured in `cdk.json`, cross-stack
 * references are weak (`Fn::GetStackOutput`, as CDK recommends), and no construct leaves a
 * warning annotation, in any stack (nested ones included), in a normal or a trial synth. The
 * templates also pass the CloudFormation schemas (`scripts/deploy-check/template-validation.ts`).
 */
import { App, Annotations as CoreAnnotations, NestedStack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import recommendedFlags from 'aws-cdk-lib/recommended-feature-flags.json';
import { cdkJsonContext } from '../../lib/synthesized-stack.js';
import { buildStacks, synthesizedTemplates } from '../../scripts/deploy-check/synthesized-templates.js';
import { validateTemplates } from '../../scripts/deploy-check/template-validation.js';

describe.each([
  ['a normal synth', {}],
  ['a trial synth', { trial: 'true' }],
])('%s', (_label, context) => {
  it('leaves no warning annotation on any stack', () => {
    // Prepare
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } });
    const stacks = buildStacks(app);
    // Act
    app.synth();
    // Assess: a nested stack is no artifact of its own; its annotations are its parent's.
    const warnings = stacks.flatMap((stack) =>
      Annotations.fromStack(stack)
        .findWarning('*', Match.anyValue())
        .map((warning) => `${warning.id}: ${String(warning.entry.data)}`),
    );
    expect(warnings).toEqual([]);
  });
});

it('sees a warning when there is one: a cross-stack reference without a strength, one in a nested stack', () => {
  // Prepare
  const { '@aws-cdk/core:defaultCrossStackReferences': _strength, ...withoutStrength } = cdkJsonContext();
  const app = new App({ context: { ...withoutStrength, 'aws:cdk:bundling-stacks': [] } });
  const stacks = buildStacks(app);
  const nested = stacks[0]!.node.findAll().find((construct) => construct instanceof NestedStack)!;
  CoreAnnotations.of(nested.node.children[0]!).addWarningV2(
    'probe:nested',
    'A warning inside a nested stack',
  );
  // Act
  app.synth();
  // Assess
  const warnings = stacks.flatMap((stack) => Annotations.fromStack(stack).findWarning('*', Match.anyValue()));
  expect(warnings.map((warning) => String(warning.entry.data)).sort()).toEqual([
    expect.stringMatching(/^A warning inside a nested stack/),
    expect.stringMatching(/No cross-stack-reference strength configured/),
  ]);
});

/** Flags set against CDK's recommendation, each with its reason. */
const NOT_RECOMMENDED_VALUES: Record<string, { value: unknown; reason: string }> = {
  '@aws-cdk/core:enableAdditionalMetadataCollection': {
    value: false,
    reason: 'it reports how constructs are used to AWS with every deploy; the project sends no telemetry',
  },
};

it('configures every feature flag CDK recommends, at the recommended value or a value with a reason', () => {
  // Assess: a flag left out would be one of `cdk synth`'s "feature flags are not configured".
  const context = cdkJsonContext();
  for (const [flag, recommended] of Object.entries(recommendedFlags)) {
    const expected = NOT_RECOMMENDED_VALUES[flag]?.value ?? recommended;
    expect({ flag, value: context[flag] }).toEqual({ flag, value: expected });
  }
});

it('gives templates the CloudFormation schemas accept: every property known and well typed', () => {
  // Act
  const templates = synthesizedTemplates();
  const findings = validateTemplates(templates);
  // Assess
  expect(templates.map((each) => each.stackName)).toContain('AssetRegistryStack-ConsoleFiles');
  expect(
    findings.map(
      (finding) => `${finding.stackName} ${finding.logicalId} ${finding.path}: ${finding.message}`,
    ),
  ).toEqual([]);
});

it('reports an unknown, an ill-typed and a dangling property (so "no finding" means something)', () => {
  // Prepare
  const templates = synthesizedTemplates();
  const root = templates[0]!.template.Resources;
  const [tableId, table] = Object.entries(root).find(
    ([, resource]) => resource.Type === 'AWS::DynamoDB::Table',
  )!;
  table.Properties!.BillingMod = 'PAY_PER_REQUEST';
  table.Properties!.PointInTimeRecoverySpecification = { PointInTimeRecoveryEnabled: 'yes' };
  table.Properties!.StreamSpecification = 'NEW_IMAGE';
  const [, queue] = Object.entries(root).find(([, resource]) => resource.Type === 'AWS::SQS::Queue')!;
  queue.Properties!.MessageRetentionPeriod = '14 days';
  queue.Properties!.KmsMasterKeyId = { 'Fn::GetAtt': [tableId, 'KeyArn'] };
  queue.Properties!.RedriveAllowPolicy = { 'Fn::If': ['NoSuchCondition', 'a', 'b'] };
  // Act
  const findings = validateTemplates(templates).map((finding) => `${finding.path}: ${finding.message}`);
  // Assess
  expect(findings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^Properties\.BillingMod: unknown property "BillingMod"/),
      'Properties.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled: "yes" is not a boolean',
      'Properties.StreamSpecification: "NEW_IMAGE" is not a StreamSpecification object',
      'Properties.MessageRetentionPeriod: "14 days" is not an integer',
      expect.stringMatching(/^Properties\.KmsMasterKeyId\.Fn::GetAtt: .* has no attribute KeyArn/),
      expect.stringMatching(/^Properties\.RedriveAllowPolicy\.Fn::If: .*condition NoSuchCondition/),
    ]),
  );
  expect(findings).toHaveLength(6);
});
