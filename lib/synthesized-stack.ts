/**
 * Synthesizes the real stack, without esbuild, for the infra tests' Template assertions and for
 * local mode (which runs each function as its template declares it). An empty
 * `aws:cdk:bundling-stacks` list makes every NodejsFunction skip bundling, so a synth takes
 * seconds and needs no network.
 *
 * The stack keeps the operations' functions in nested stacks (`lib/operation-functions-stack.ts`).
 * `template` is the root template with every nested stack's resources merged in and the
 * references between the stacks followed, as CloudFormation follows them: a nested stack's
 * parameter is replaced by the value its parent passes, and a parent's `Fn::GetAtt` of a nested
 * stack's output by that output's value. So a function's role in a nested stack names the
 * table as `{"Fn::GetAtt": [<table>, "Arn"]}`, as it would in one stack, and the assertions read
 * every function, role and alarm wherever it is. `stackTemplates` are the templates as
 * synthesized, one per stack.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { Operation } from '../lambdas/operation-row.js';
import { methodsOfRow } from '../lambdas/operation-row.js';
import { AssetRegistryStack } from './asset-registry-stack.js';
import { projectRoot } from './project-paths.js';

/** `GET /v2/categories`, `HEAD /v2/categories`, ...: the API Gateway methods the rows give. */
export const routesOfRows = (rows: readonly Operation[]): string[] =>
  rows.flatMap((row) => methodsOfRow(row).map((method) => `${method} ${row.path}`));

/** One stack's own template, as synthesized. */
interface StackTemplate {
  stack: Stack;
  template: Template;
}

export interface SynthesizedStack {
  stack: AssetRegistryStack;
  /** Every stack's resources in one template, references across stacks followed (see above). */
  template: Template;
  /** The root stack's own template. */
  rootTemplate: Template;
  /** The root stack's template, then each nested stack's. */
  stackTemplates: StackTemplate[];
  /** The logical id of an L2 construct's CloudFormation resource (in its own stack's template). */
  logicalIdOf(construct: IConstruct): string;
}

/** The context every `cdk` command applies: `cdk.json`'s (feature flags included). */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/** Synthesizes the stack with `cdk.json`'s context and `context`, as given with `cdk -c key=value`. */
export function synthesizeStack(
  context: Record<string, unknown> = {},
  stackName = 'AssetRegistryStackUnderTest',
): SynthesizedStack {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new AssetRegistryStack(app, stackName);
  const stackTemplates = stacksUnder(stack).map((each) => ({
    stack: each,
    template: Template.fromStack(each),
  }));
  return {
    stack,
    template: Template.fromJSON(mergedTemplate(stackTemplates)),
    rootTemplate: stackTemplates[0]!.template,
    stackTemplates,
    logicalIdOf: (construct) => Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement),
  };
}

/** The stack and every stack nested in it, parents before their nested stacks. */
function stacksUnder(root: Stack): Stack[] {
  const stacks: Stack[] = [];
  const visit = (construct: IConstruct) => {
    if (construct instanceof Stack) stacks.push(construct);
    for (const child of construct.node.children) visit(child);
  };
  visit(root);
  return stacks.filter((each) => each === root || each.nestedStackParent !== undefined);
}

type TemplateJson = {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: unknown }>;
  Parameters?: Record<string, unknown>;
  [section: string]: unknown;
};

/**
 * The root template with the nested stacks' resources merged in and every reference between
 * the stacks replaced by what it refers to. Throws when two stacks use the same logical id
 * (the merged template could not tell them apart).
 */
function mergedTemplate(stackTemplates: StackTemplate[]): TemplateJson {
  const json = new Map<Stack, TemplateJson>(
    stackTemplates.map(({ stack, template }) => [stack, template.toJSON() as TemplateJson]),
  );
  const jsonOf = (stack: Stack): TemplateJson => json.get(stack)!;
  /** The nested stacks of a stack, by the logical id of their AWS::CloudFormation::Stack. */
  const nestedById = (parent: Stack): Map<string, NestedStack> =>
    new Map(
      stackTemplates
        .map(({ stack }) => stack)
        .filter((each): each is NestedStack => each.nestedStackParent === parent)
        .map((nested) => [parent.getLogicalId(nested.nestedStackResource as CfnElement), nested]),
    );
  const follow = (stack: Stack, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((item) => follow(stack, item));
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (keys.length === 1 && typeof object.Ref === 'string' && stack.nestedStackParent) {
      const parameter = object.Ref;
      if (jsonOf(stack).Parameters?.[parameter] !== undefined) {
        const parent = stack.nestedStackParent;
        const resourceId = parent.getLogicalId((stack as NestedStack).nestedStackResource as CfnElement);
        const passed = (jsonOf(parent).Resources[resourceId]?.Properties?.Parameters ?? {}) as Record<
          string,
          unknown
        >;
        if (!(parameter in passed))
          throw new Error(`${stack.node.path}: parameter ${parameter} gets no value`);
        return follow(parent, passed[parameter]);
      }
    }
    const getAtt = object['Fn::GetAtt'];
    if (keys.length === 1 && Array.isArray(getAtt) && String(getAtt[1]).startsWith('Outputs.')) {
      const nested = nestedById(stack).get(String(getAtt[0]));
      if (nested) {
        const outputName = String(getAtt[1]).slice('Outputs.'.length);
        const output = jsonOf(nested).Outputs?.[outputName];
        if (!output) throw new Error(`${nested.node.path} has no output ${outputName}`);
        return follow(nested, output.Value);
      }
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, follow(stack, item)]));
  };

  const [root] = stackTemplates;
  const merged: TemplateJson = { ...jsonOf(root!.stack), Resources: {} };
  for (const { stack } of stackTemplates) {
    for (const [logicalId, resource] of Object.entries(jsonOf(stack).Resources)) {
      // The CDK's version metadata (with `aws:cdk:version-reporting`) is in every template: the root's is kept.
      if (resource.Type === 'AWS::CDK::Metadata' && logicalId in merged.Resources) continue;
      if (logicalId in merged.Resources) {
        throw new Error(`Logical id ${logicalId} is used in two stacks (${stack.node.path})`);
      }
      merged.Resources[logicalId] = follow(stack, resource) as TemplateJson['Resources'][string];
    }
  }
  if (merged.Outputs) merged.Outputs = follow(root!.stack, merged.Outputs) as TemplateJson['Outputs'];
  return merged;
}

interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
}

/**
 * The full path of every AWS::ApiGateway::Resource (`/v2/categories/{categoryId}`), by logical
 * id, rebuilt from each resource's PathPart and ParentId chain.
 */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, CfnResource>;
  const paths = new Map<string, string>();
  const pathOf = (logicalId: string): string => {
    const known = paths.get(logicalId);
    if (known) return known;
    const { PathPart, ParentId } = resources[logicalId]!.Properties as {
      PathPart: string;
      ParentId: { Ref?: string };
    };
    // A parent that is not a Ref is the API's root resource (Fn::GetAtt RootResourceId).
    const parentPath = ParentId.Ref ? pathOf(ParentId.Ref) : '';
    const path = `${parentPath}/${PathPart}`;
    paths.set(logicalId, path);
    return path;
  };
  for (const logicalId of Object.keys(resources)) pathOf(logicalId);
  return paths;
}

/** Every action the IAM policies attached to a role allow (the role given by its logical id). */
export function policyActionsOfRole(template: Template, roleLogicalId: string): Set<string> {
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, CfnResource>;
  const actions = new Set<string>();
  for (const policy of Object.values(policies)) {
    const properties = policy.Properties as {
      Roles: Array<{ Ref?: string }>;
      PolicyDocument: { Statement: Array<{ Effect: string; Action: string | string[] }> };
    };
    if (!properties.Roles.some((role) => role.Ref === roleLogicalId)) continue;
    for (const statement of properties.PolicyDocument.Statement) {
      if (statement.Effect !== 'Allow') continue;
      for (const action of [statement.Action].flat()) actions.add(action);
    }
  }
  return actions;
}

/** One statement of an IAM policy document, as synthesized. */
export interface IamStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** Every statement of the IAM policies attached to a role (given by the role's logical id). */
export function statementsOfRole(template: Template, roleLogicalId: string): IamStatement[] {
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, CfnResource>;
  return Object.values(policies)
    .map(
      (policy) =>
        policy.Properties as {
          Roles: Array<{ Ref?: string }>;
          PolicyDocument: { Statement: IamStatement[] };
        },
    )
    .filter((properties) => properties.Roles.some((role) => role.Ref === roleLogicalId))
    .flatMap((properties) => properties.PolicyDocument.Statement);
}

/** A statement's actions as a list. */
export const actionsOf = (statement: IamStatement): string[] => [statement.Action].flat();

/** A statement's resources as a list. */
export const resourcesOf = (statement: IamStatement): unknown[] => [statement.Resource].flat();

/** An IAM `StringLike` pattern (`*`, `?`) as a regular expression over the whole value. */
export function likePattern(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\#]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}
