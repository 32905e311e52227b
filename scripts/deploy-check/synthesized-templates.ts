/**
 * The templates a `cdk deploy --all` would send to CloudFormation, for the deploy check's
 * modules to read: the app is built as `bin/asset-registry.ts` builds it (the main stack and
 * the console-files stack), with the context of `cdk.json` (feature flags change templates),
 * and synthesized without esbuild (an empty `aws:cdk:bundling-stacks` list makes every
 * NodejsFunction skip bundling), so that a synth takes seconds. Nothing a template says depends
 * on the bundles but the asset hashes of the functions' code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type NestedStack, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { AssetRegistryStack, DEFAULT_STACK_NAME } from '../../lib/asset-registry-stack.js';
import { WebConsoleFilesStack } from '../../lib/web-console.js';

/** One resource of a template, as synthesized. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string | string[];
  Condition?: string;
  Metadata?: Record<string, unknown>;
}

/** A CloudFormation template, as synthesized. */
export interface CloudFormationTemplate {
  Resources: Record<string, TemplateResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: unknown }>;
  Conditions?: Record<string, unknown>;
  [section: string]: unknown;
}

/** One stack's template, named. */
export interface StackTemplate {
  /**
   * The stack's name: the CloudFormation stack name for a top-level stack
   * (`AssetRegistryStack`, `AssetRegistryStack-ConsoleFiles`); for a nested stack, whose
   * CloudFormation name is only known once deployed, its parent's name and its construct id
   * (`AssetRegistryStack/CategoriesFunctions`).
   */
  stackName: string;
  /** For a nested stack: the stack holding it and the logical id of its `AWS::CloudFormation::Stack` there. */
  nestedIn?: { stackName: string; logicalId: string };
  template: CloudFormationTemplate;
}

/** The project's `cdk.json`, whose `context` every `cdk` command applies. */
const CDK_JSON = join(__dirname, '..', '..', 'cdk.json');

/**
 * Builds the app's stacks into `app`, as `bin/asset-registry.ts` does (without cdk-nag's
 * checks, which add no resource), and returns the top-level stacks.
 */
export function buildStacks(app: App): Stack[] {
  const stackName: string = app.node.tryGetContext('stackName') ?? DEFAULT_STACK_NAME;
  const stack = new AssetRegistryStack(app, stackName, { stackName });
  const consoleFiles = new WebConsoleFilesStack(app, `${stackName}-ConsoleFiles`, {
    stackName: `${stackName}-ConsoleFiles`,
    webConsole: stack.webConsole,
    restApi: stack.api.restApi,
    signIn: stack.peopleSignIn?.consoleSignIn,
  });
  return [stack, consoleFiles];
}

/**
 * Every stack's template, parents before the stacks nested in them: the main stack, its nested
 * stacks, the console-files stack. `context` is added to `cdk.json`'s, as `cdk -c key=value` does.
 *
 * @example
 * for (const { stackName, template } of synthesizedTemplates()) {
 *   console.log(stackName, Object.keys(template.Resources).length);
 * }
 */
export function synthesizedTemplates(context: Record<string, unknown> = {}): StackTemplate[] {
  const cdkJsonContext = (JSON.parse(readFileSync(CDK_JSON, 'utf8')) as { context?: Record<string, unknown> })
    .context;
  const app = new App({ context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const topLevelStacks = buildStacks(app);
  const assembly = app.synth();
  const templateOf = (stack: Stack): CloudFormationTemplate =>
    JSON.parse(readFileSync(join(assembly.directory, stack.templateFile), 'utf8')) as CloudFormationTemplate;
  const nameOf = new Map<Stack, string>();
  const templates: StackTemplate[] = [];
  for (const topLevel of topLevelStacks) {
    for (const stack of stacksUnder(topLevel)) {
      const parent = stack.nestedStackParent;
      if (!parent) {
        nameOf.set(stack, stack.stackName);
        templates.push({ stackName: stack.stackName, template: templateOf(stack) });
        continue;
      }
      const parentName = nameOf.get(parent)!;
      const stackName = `${parentName}/${stack.node.id}`;
      nameOf.set(stack, stackName);
      const logicalId = parent.resolve((stack as NestedStack).nestedStackResource!.logicalId) as string;
      templates.push({
        stackName,
        nestedIn: { stackName: parentName, logicalId },
        template: templateOf(stack),
      });
    }
  }
  return templates;
}

/** A stack and every stack nested in it (at any depth), parents first. */
function stacksUnder(root: Stack): Stack[] {
  const stacks: Stack[] = [];
  const visit = (construct: IConstruct) => {
    if (construct instanceof Stack && (construct === root || construct.nestedStackParent))
      stacks.push(construct);
    for (const child of construct.node.children) {
      // Another top-level stack is not nested here, nor is anything inside it.
      if (child instanceof Stack && !child.nestedStackParent) continue;
      visit(child);
    }
  };
  visit(root);
  return stacks;
}
