/**
 * cdk-nag's AWS Solutions checks on the synthesized stack: no finding is left open, and every
 * acknowledged one is on a resource (never the whole stack), narrowed to its finding where the
 * rule has findings, carries a written reason, and is on the list reviewed here. A new
 * acknowledgement therefore needs a change to this file.
 */
import { App, type CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { methodsOfRow } from '../../lambdas/operation-row.js';
import {
  actionsOf,
  resourcesOf,
  type SynthesizedStack,
  statementsOfRole,
  synthesizeStack,
} from './synthesized-stack.js';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
  construct: IConstruct;
}

/** Every acknowledgement recorded on the construct tree under `root`. */
function acknowledgementsUnder(root: IConstruct): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  const visit = (construct: IConstruct) => {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [qualifiedId, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push({
          path: construct.node.path,
          id: qualifiedId.replace(/^annotation::/i, ''),
          reason,
          construct,
        });
      }
    }
    for (const child of construct.node.children) visit(child);
  };
  visit(root);
  return found;
}

/** cdk-nag's own acknowledgements are `AwsSolutions-...`; CDK core adds some of its own. */
const nagAcknowledgements = (root: IConstruct) =>
  acknowledgementsUnder(root).filter((acknowledgement) => acknowledgement.id.startsWith('AwsSolutions-'));

/** The reviewed list: rule (finding) → where it may be acknowledged. */
const REVIEWED = [
  { id: /^AwsSolutions-IAM5\[Resource::\*\]$/, where: /\/\w+Role$/ },
  {
    id: /^AwsSolutions-IAM5\[Resource::<DataStoreFilesBucket\w+\.Arn>\/(companies|uploads)\/\*\]$/,
    where: /\/\w+Role$/,
  },
  {
    id: /^AwsSolutions-IAM5\[Resource::<LedgerDigestsDigestBucket\w+\.Arn>\/log\/\*\]$/,
    where: /\/\w+Role$/,
  },
  // The same buckets in the operations' nested stacks, whose parameters carry their ARNs (the
  // parameters' values are checked below).
  {
    id: /^AwsSolutions-IAM5\[Resource::<FilesBucketArn>\/(companies|uploads)\/\*\]$/,
    where: /\/Api\/Operations\/\w+Functions\/\w+Role$/,
  },
  {
    id: /^AwsSolutions-IAM5\[Resource::<LogBucketArn>\/log\/\*\]$/,
    where: /\/Api\/Operations\/\w+Functions\/\w+Role$/,
  },
  { id: /^AwsSolutions-S1$/, where: /\/DataStore\/AccessLogsBucket$/ },
  { id: /^AwsSolutions-CFR[1-4]$/, where: /\/WebConsole\/Distribution$/ },
  { id: /^AwsSolutions-SMG4$/, where: /\/PageCursorKey\/Secret$/ },
  // Optional MFA and the Essentials plan of the people's user pool (`-c identity=cognito`).
  { id: /^AwsSolutions-COG[28]$/, where: /\/PeopleSignIn\/UserPool$/ },
  { id: /^AwsSolutions-SQS3$/, where: /\/(EventsOut\/DeliveryDeadLetterQueue|FailedWork\/FailedWorkQueue)$/ },
  { id: /^AwsSolutions-APIG2$/, where: /\/Api\/RestApi$/ },
  { id: /^AwsSolutions-COG4$/, where: /\/Api\/RestApi$/ },
  { id: /^AwsSolutions-APIG3$/, where: /\/Api\/RestApi\/DeploymentStage\.prod$/ },
  {
    id: /^AwsSolutions-APIG4$/,
    where: /\/Api\/RestApi\/Default\/(.+\/)?(GET|HEAD|POST|PUT|DELETE|OPTIONS)$/,
  },
  {
    id: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AmazonAPIGatewayPushToCloudWatchLogs\]$/,
    where: /\/Api\/RestApi$/,
  },
];

describe('the checker itself', () => {
  it('reports a finding that nobody acknowledged (so "no finding" means something)', () => {
    // Prepare
    const app = new App();
    const stack = new Stack(app, 'NagProbe');
    new Bucket(stack, 'UnloggedBucket', { enforceSSL: true });
    // Act
    const report = new AwsSolutionsChecks().validateScope(stack);
    // Assess
    expect(report.violations.map((violation) => violation.ruleName)).toContain('AwsSolutions-S1');
  });

  it("checks the resources of nested stacks too (the operations' functions live in them)", () => {
    // Prepare
    const app = new App();
    const stack = new Stack(app, 'NagProbe');
    new Bucket(new NestedStack(stack, 'Nested'), 'UnloggedBucket', { enforceSSL: true });
    // Act
    const report = new AwsSolutionsChecks().validateScope(stack);
    // Assess
    expect(
      report.violations.flatMap((violation) =>
        violation.violatingResources.map((each) => each.constructPath),
      ),
    ).toContain('NagProbe/Nested/UnloggedBucket/Resource');
  });
});

describe.each([
  ['by default', {}],
  ['with the API Gateway CloudWatch role created', { createApiGatewayCloudWatchRole: 'true' }],
  ['with CORS for a console origin', { corsAllowedOrigins: 'https://console.example.com' }],
  ['with a Cognito user pool for people', { identity: 'cognito' }],
])('cdk-nag AwsSolutionsChecks, %s', (_label, context) => {
  let synthesized: SynthesizedStack;

  beforeAll(() => {
    // Act: the same synth the CDK app runs the checks on.
    synthesized = synthesizeStack(context);
  });

  it('leaves no finding open', () => {
    // Act
    const report = new AwsSolutionsChecks().validateScope(synthesized.stack);
    const open = report.violations.map(
      (violation) =>
        `${violation.ruleName}: ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`,
    );
    // Assess
    expect(open).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledges findings only on resources, each reviewed and with a written reason', () => {
    // Act
    const acknowledgements = nagAcknowledgements(synthesized.stack);
    // Assess
    expect(acknowledgements.length).toBeGreaterThan(0);
    expect(nagAcknowledgements(synthesized.stack.node.root).length).toBe(acknowledgements.length);
    for (const acknowledgement of acknowledgements) {
      expect(acknowledgement.construct).not.toBe(synthesized.stack);
      expect(acknowledgement.reason.length).toBeGreaterThanOrEqual(60);
      const reviewed = REVIEWED.find((entry) => entry.id.test(acknowledgement.id));
      expect({ id: acknowledgement.id, reviewed: reviewed !== undefined }).toEqual({
        id: acknowledgement.id,
        reviewed: true,
      });
      expect(acknowledgement.path).toMatch(reviewed!.where);
    }
  });

  it('acknowledges IAM5 "*" resources only on roles whose only "*" statement is X-Ray (and the stream reader\'s ListStreams)', () => {
    // Prepare
    const { template, logicalIdOf } = synthesized;
    const roles = nagAcknowledgements(synthesized.stack).filter(
      (acknowledgement) => acknowledgement.id === 'AwsSolutions-IAM5[Resource::*]',
    );
    // Assess
    expect(roles.length).toBe(Object.keys(template.findResources('AWS::Lambda::Function')).length);
    for (const { construct } of roles) {
      const wildcard = statementsOfRole(template, logicalIdOf(construct)).filter((statement) =>
        resourcesOf(statement).includes('*'),
      );
      // The event source mapping's dynamodb:ListStreams has no resource-level permissions.
      const streamReader = [
        synthesized.stack.eventsOut.publisherFunction,
        synthesized.stack.ledgerLog.sequencerFunction,
      ].some((reader) => construct === reader.role);
      expect(wildcard.flatMap(actionsOf).sort()).toEqual([
        ...(streamReader ? ['dynamodb:ListStreams'] : []),
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ]);
    }
  });

  it("acknowledges object-key wildcards in nested stacks only where their bucket parameters carry those buckets' ARNs", () => {
    // Prepare
    const { stack, rootTemplate, logicalIdOf } = synthesized;
    const bucketArns = {
      FilesBucketArn: { 'Fn::GetAtt': [logicalIdOf(stack.dataStore.filesBucket), 'Arn'] },
      LogBucketArn: { 'Fn::GetAtt': [logicalIdOf(stack.ledgerLog.bucket), 'Arn'] },
    };
    const nested = nagAcknowledgements(stack).filter((acknowledgement) =>
      /^AwsSolutions-IAM5\[Resource::<(FilesBucketArn|LogBucketArn)>/.test(acknowledgement.id),
    );
    // Assess
    expect(nested.length).toBeGreaterThan(0);
    for (const { id, construct } of nested) {
      const parameter = /<(\w+)>/.exec(id)![1] as keyof typeof bucketArns;
      const nestedStack = Stack.of(construct) as NestedStack;
      expect(nestedStack.nestedStackParent).toBe(stack);
      const passed =
        rootTemplate.toJSON().Resources[stack.getLogicalId(nestedStack.nestedStackResource as CfnElement)]
          .Properties.Parameters;
      expect(passed[parameter]).toEqual(bucketArns[parameter]);
    }
  });

  it('acknowledges APIG4 (no authorizer) only on the public routes of the operation table and CORS preflights', async () => {
    // Prepare
    const { operationList } = await import('../../lambdas/operations.js');
    const publicRoutes = operationList
      .filter((operation) => operation.authorization === 'none')
      .flatMap((operation) => methodsOfRow(operation).map((method) => `${operation.path}/${method}`));
    // Act
    const acknowledged = nagAcknowledgements(synthesized.stack)
      .filter((acknowledgement) => acknowledgement.id === 'AwsSolutions-APIG4')
      .map((acknowledgement) => acknowledgement.path.replace(/^.*\/Api\/RestApi\/Default/, ''));
    // Assess
    expect(acknowledged.filter((path) => !path.endsWith('/OPTIONS')).sort()).toEqual(publicRoutes.sort());
    const preflights = synthesized.stack.api.restApi.methods.filter(
      (method) => method.httpMethod === 'OPTIONS',
    );
    expect(acknowledged.filter((path) => path.endsWith('/OPTIONS'))).toHaveLength(preflights.length);
    // the web console's origin is allowed by default; `-c corsAllowedOrigins=` with none turns CORS off
    expect(preflights.length).toBeGreaterThan(0);
  });
});
