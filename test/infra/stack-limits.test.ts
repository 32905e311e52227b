/**
 * CloudFormation caps a stack at 500 resources, a nested stack too (docs/api-decisions.md,
 * "Browsers: CORS and HEAD"). The operations' functions live in nested stacks, one per folder of
 * handlers, so the root stack grows by the API's methods, permissions and path resources of a new
 * row only. Every synthesized template is counted here: the root's and each nested stack's, with
 * the metadata resource `cdk synth` adds to each (version reporting), as they are deployed.
 */
import type { Stack } from 'aws-cdk-lib';
import { operationList } from '../../lambdas/operations.js';
import {
  functionGroupOf,
  functionStackId,
  OperationFunctionsStack,
} from '../../lib/operation-functions-stack.js';
import { type SynthesizedStack, synthesizeStack } from './synthesized-stack.js';

/** CloudFormation's quota of resources per stack (nested stacks included). */
const CLOUDFORMATION_RESOURCE_LIMIT = 500;
/**
 * What the root stack may grow to before more of it must move into nested stacks: a new row
 * adds about four resources to it (method, Lambda permission, path resource, CORS preflight).
 */
const ROOT_STACK_BUDGET = 430;

const resourceCount = ({ template }: { template: SynthesizedStack['template'] }): number =>
  Object.keys(template.toJSON().Resources ?? {}).length;

/** What `cdk synth` sets: every template gets an AWS::CDK::Metadata resource. */
const AS_DEPLOYED = { 'aws:cdk:version-reporting': true };
const METADATA = 'AWS::CDK::Metadata';

describe.each([
  ['by default', {}],
  ['with the API Gateway CloudWatch role created', { createApiGatewayCloudWatchRole: 'true' }],
])('resources per stack, %s', (_label, context) => {
  let synthesized: SynthesizedStack;

  beforeAll(() => {
    // Act
    synthesized = synthesizeStack({ ...AS_DEPLOYED, ...context });
  });

  it('counts the root template and one template per nested stack', () => {
    // Assess
    const [root, ...nested] = synthesized.stackTemplates;
    expect(root?.stack).toBe(synthesized.stack);
    expect(nested.length).toBe(new Set(operationList.map(functionGroupOf)).size);
    for (const { stack } of nested) expect(stack.nestedStackParent).toBe(synthesized.stack);
  });

  it(`keeps every template at or under ${CLOUDFORMATION_RESOURCE_LIMIT} resources`, () => {
    // Act
    const counts = synthesized.stackTemplates.map((each) => ({
      stack: each.stack.node.path,
      resources: resourceCount(each),
    }));
    // Assess
    for (const { template } of synthesized.stackTemplates) template.resourceCountIs(METADATA, 1);
    for (const count of counts) {
      expect(count.resources).toBeGreaterThan(1);
      expect({ ...count, withinLimit: count.resources <= CLOUDFORMATION_RESOURCE_LIMIT }).toEqual({
        ...count,
        withinLimit: true,
      });
    }
  });

  it(`leaves the root stack room: at most ${ROOT_STACK_BUDGET} resources`, () => {
    // Assess
    expect(resourceCount(synthesized.stackTemplates[0]!)).toBeLessThanOrEqual(ROOT_STACK_BUDGET);
  });

  it('puts each operation function in the nested stack of its handler folder, none in the root stack', () => {
    // Prepare
    const rootFunctions = Object.keys(synthesized.rootTemplate.findResources('AWS::Lambda::Function'));
    // Act / Assess
    for (const operation of operationList) {
      const operationFunction = synthesized.stack.api.operationFunctions.get(operation.id)!;
      const stack: Stack = operationFunction.stack;
      expect(stack).toBeInstanceOf(OperationFunctionsStack);
      expect(stack.node.id).toBe(functionStackId(functionGroupOf(operation)));
      expect(rootFunctions).not.toContain(synthesized.logicalIdOf(operationFunction));
    }
    // The root keeps the authorizer, the sequencer, the three jobs, the events-out functions and
    // the recorder of failed jobs.
    expect(rootFunctions).toHaveLength(8);
  });

  it("keeps each function's role, policy, log group and errors alarm in the function's stack", () => {
    for (const { stack, template } of synthesized.stackTemplates.slice(1)) {
      // Prepare
      const resources = Object.fromEntries(
        Object.entries(template.toJSON().Resources as Record<string, { Type: string }>).filter(
          ([, each]) => each.Type !== METADATA,
        ),
      );
      const count = (type: string) => Object.values(resources).filter((each) => each.Type === type).length;
      const functions = count('AWS::Lambda::Function');
      // Assess
      expect(functions).toBeGreaterThan(0);
      expect({ stack: stack.node.path, roles: count('AWS::IAM::Role') }).toEqual({
        stack: stack.node.path,
        roles: functions,
      });
      expect(count('AWS::IAM::Policy')).toBe(functions);
      expect(count('AWS::Logs::LogGroup')).toBe(functions);
      expect(count('AWS::CloudWatch::Alarm')).toBe(functions);
      expect(Object.keys(resources)).toHaveLength(5 * functions);
    }
  });
});
