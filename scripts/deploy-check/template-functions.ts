/**
 * The Lambda functions of synthesized templates, with what their cost depends on (memory,
 * architecture, timeout, environment, the actions their role may call), and the function an
 * expression refers to: `{"Fn::GetAtt": [<function>, "Arn"]}` in the same stack, or a nested
 * stack's output that holds one (an API method in the root stack calls a function of a nested
 * stack that way).
 */
import type { StackTemplate, TemplateResource } from './synthesized-templates.js';

/** Lambda's defaults for properties a template leaves out. */
const DEFAULT_MEMORY_MB = 128;
const DEFAULT_ARCHITECTURE = 'x86_64';
const DEFAULT_TIMEOUT_SECONDS = 3;

/** One `AWS::Lambda::Function` of a template. */
export interface TemplateFunction {
  stackName: string;
  logicalId: string;
  memoryMb: number;
  architecture: string;
  timeoutSeconds: number;
  /** Its environment variables as synthesized (values may be CloudFormation expressions). */
  environment: Readonly<Record<string, unknown>>;
  /** Every IAM action the policies attached to its role allow (`kms:Encrypt`, ...). */
  allowedActions: ReadonlySet<string>;
}

/** Every Lambda function of the templates. */
export function functionsOf(templates: readonly StackTemplate[]): TemplateFunction[] {
  return templates.flatMap((stack) =>
    Object.entries(stack.template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .map(([logicalId, resource]) => templateFunction(stack, logicalId, resource)),
  );
}

/** The function `expression` (in `stack`) refers to, or undefined when it refers to none. */
export function functionReferencedBy(
  templates: readonly StackTemplate[],
  stack: StackTemplate,
  expression: unknown,
): TemplateFunction | undefined {
  for (const [logicalId, attribute] of referencesIn(expression)) {
    const resource = stack.template.Resources[logicalId];
    if (resource?.Type === 'AWS::Lambda::Function') return templateFunction(stack, logicalId, resource);
    if (resource?.Type === 'AWS::CloudFormation::Stack' && attribute?.startsWith('Outputs.')) {
      const nested = templates.find(
        (each) => each.nestedIn?.stackName === stack.stackName && each.nestedIn.logicalId === logicalId,
      );
      const output = nested?.template.Outputs?.[attribute.slice('Outputs.'.length)];
      const found = nested && output ? functionReferencedBy(templates, nested, output.Value) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

/** The resources an expression names: `Ref` (attribute undefined) and `Fn::GetAtt`, depth first. */
function referencesIn(expression: unknown): Array<[string, string | undefined]> {
  if (Array.isArray(expression)) return expression.flatMap(referencesIn);
  if (expression === null || typeof expression !== 'object') return [];
  const object = expression as Record<string, unknown>;
  if (typeof object.Ref === 'string') return [[object.Ref, undefined]];
  const getAtt = object['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return [[String(getAtt[0]), String(getAtt[1])]];
  return Object.values(object).flatMap(referencesIn);
}

function templateFunction(
  stack: StackTemplate,
  logicalId: string,
  resource: TemplateResource,
): TemplateFunction {
  const properties = resource.Properties ?? {};
  const environment = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)
    ?.Variables;
  return {
    stackName: stack.stackName,
    logicalId,
    memoryMb: Number(properties.MemorySize ?? DEFAULT_MEMORY_MB),
    architecture: String((properties.Architectures as string[] | undefined)?.[0] ?? DEFAULT_ARCHITECTURE),
    timeoutSeconds: Number(properties.Timeout ?? DEFAULT_TIMEOUT_SECONDS),
    environment: environment ?? {},
    allowedActions: roleActions(stack, properties.Role),
  };
}

/** The actions of the `Allow` statements of every `AWS::IAM::Policy` attached to the role `role` refers to. */
function roleActions(stack: StackTemplate, role: unknown): Set<string> {
  const roleId = referencesIn(role)[0]?.[0];
  const actions = new Set<string>();
  if (!roleId) return actions;
  for (const resource of Object.values(stack.template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const properties = resource.Properties as {
      Roles?: unknown[];
      PolicyDocument?: { Statement?: Array<{ Effect?: string; Action?: string | string[] }> };
    };
    if (!(properties.Roles ?? []).some((each) => referencesIn(each)[0]?.[0] === roleId)) continue;
    for (const statement of properties.PolicyDocument?.Statement ?? []) {
      if (statement.Effect !== 'Allow') continue;
      for (const action of [statement.Action ?? []].flat()) actions.add(action);
    }
  }
  return actions;
}
