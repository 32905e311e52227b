/**
 * Synthesizes the real stack for Template assertions, without esbuild: an empty
 * `aws:cdk:bundling-stacks` list makes every NodejsFunction skip bundling, so a synth takes
 * seconds and needs no network.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { Operation } from '../../lambdas/operations.js';
import { methodsOfRow } from '../../lambdas/operations.js';
import { AssetRegistryStack } from '../../lib/asset-registry-stack.js';

/** `GET /v2/categories`, `HEAD /v2/categories`, ...: the API Gateway methods the rows give. */
export const routesOfRows = (rows: readonly Operation[]): string[] =>
  rows.flatMap((row) => methodsOfRow(row).map((method) => `${method} ${row.path}`));

export interface SynthesizedStack {
  stack: AssetRegistryStack;
  template: Template;
  /** The logical id of an L2 construct's CloudFormation resource. */
  logicalIdOf(construct: IConstruct): string;
}

/** Synthesizes the stack; `context` as given with `cdk -c key=value`. */
export function synthesizeStack(context: Record<string, unknown> = {}): SynthesizedStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new AssetRegistryStack(app, 'AssetRegistryStackUnderTest');
  return {
    stack,
    template: Template.fromStack(stack),
    logicalIdOf: (construct) => stack.getLogicalId(construct.node.defaultChild as CfnElement),
  };
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

/** Every action of the IAM policies attached to a role (given by the role's logical id). */
export function policyActionsOfRole(template: Template, roleLogicalId: string): Set<string> {
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, CfnResource>;
  const actions = new Set<string>();
  for (const policy of Object.values(policies)) {
    const properties = policy.Properties as {
      Roles: Array<{ Ref?: string }>;
      PolicyDocument: { Statement: Array<{ Action: string | string[] }> };
    };
    if (!properties.Roles.some((role) => role.Ref === roleLogicalId)) continue;
    for (const statement of properties.PolicyDocument.Statement) {
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
