/**
 * Checks every resource of synthesized templates against the CloudFormation resource schemas
 * (`resource-schemas.ts`) before CloudFormation does: an unknown resource type or property, a
 * missing required property, a value of the wrong type (a string where a list goes, a word
 * outside a property's allowed values, ...) or an unknown resource attribute. A value computed
 * by an intrinsic function (`Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::If`, ...) cannot be
 * typed before deployment: it passes if it is well formed and names what exists (a `Ref` to a
 * resource, parameter or pseudo parameter of its template; a `Fn::GetAtt` of an attribute the
 * resource type has). `Fn::If` is checked branch by branch.
 */
import {
  type PropertyType,
  type Resource,
  resourceSchemaOf,
  type TypeDefinition,
  typeDefinitionOf,
} from './resource-schemas.js';
import type { CloudFormationTemplate, StackTemplate } from './synthesized-templates.js';

/** One problem in one resource of one template. */
export interface TemplateFinding {
  stackName: string;
  logicalId: string;
  resourceType: string;
  /** Where in the resource: `Properties.KeySchema[0].KeyType`, `DeletionPolicy`, ... */
  path: string;
  message: string;
}

/** Resource-level keys CloudFormation accepts beside `Type` and `Properties`. */
const RESOURCE_KEYS = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Metadata',
  'Condition',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'UpdatePolicy',
  'CreationPolicy',
]);
const REMOVAL_POLICIES = new Set(['Delete', 'Retain', 'RetainExceptOnCreate', 'Snapshot']);

/** CloudFormation's pseudo parameters (`{ "Ref": "AWS::Region" }`). */
const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

/**
 * Types the schemas do not describe, and why they pass: CDK's version metadata (which
 * CloudFormation ignores), and custom resources, whose properties are whatever their function
 * reads (only `ServiceToken` is required).
 */
const isUnschematized = (type: string): boolean =>
  type === 'AWS::CDK::Metadata' || type.startsWith('Custom::');

/** What a template holds for the reference checks of its intrinsic functions. */
interface TemplateScope {
  template: CloudFormationTemplate;
  report(path: string, message: string): void;
}

/**
 * Validates every resource of the given templates; an empty list means every one conforms.
 *
 * @example
 * const findings = validateTemplates(synthesizedTemplates());
 * for (const finding of findings) console.log(`${finding.stackName} ${finding.logicalId} ${finding.path}: ${finding.message}`);
 */
export function validateTemplates(templates: readonly StackTemplate[]): TemplateFinding[] {
  const findings: TemplateFinding[] = [];
  for (const { stackName, template } of templates) {
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      const resourceType = resource.Type;
      const scope: TemplateScope = {
        template,
        report: (path, message) => findings.push({ stackName, logicalId, resourceType, path, message }),
      };
      validateResource(resource as unknown as Record<string, unknown>, scope);
    }
  }
  return findings;
}

function validateResource(resource: Record<string, unknown>, scope: TemplateScope): void {
  for (const key of Object.keys(resource)) {
    if (!RESOURCE_KEYS.has(key))
      scope.report(key, `"${key}" is not a resource attribute CloudFormation knows`);
  }
  for (const key of ['DeletionPolicy', 'UpdateReplacePolicy']) {
    const policy = resource[key];
    if (policy !== undefined && !(typeof policy === 'string' && REMOVAL_POLICIES.has(policy))) {
      scope.report(key, `${JSON.stringify(policy)} is not one of ${[...REMOVAL_POLICIES].join(', ')}`);
    }
  }
  const type = resource.Type;
  if (typeof type !== 'string') {
    scope.report('Type', 'a resource needs a Type');
    return;
  }
  const properties = resource.Properties ?? {};
  if (isUnschematized(type)) {
    if (type.startsWith('Custom::') && !(isObject(properties) && 'ServiceToken' in properties)) {
      scope.report('Properties.ServiceToken', 'a custom resource needs a ServiceToken');
    }
    checkIntrinsicsIn(properties, 'Properties', scope);
    return;
  }
  const schema = resourceSchemaOf(type);
  if (!schema) {
    scope.report('Type', `${type} is not a resource type of the CloudFormation schemas`);
    return;
  }
  if (!isObject(properties)) {
    scope.report('Properties', 'Properties must be an object');
    return;
  }
  checkObject(properties, schema.properties, 'Properties', scope);
}

/** An object against a schema's properties: unknown and missing required ones, then each value. */
function checkObject(
  value: Record<string, unknown>,
  properties: Resource['properties'] | TypeDefinition['properties'],
  path: string,
  scope: TemplateScope,
): void {
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (!property) {
      scope.report(
        `${path}.${name}`,
        `unknown property "${name}" (known: ${Object.keys(properties).join(', ')})`,
      );
      continue;
    }
    checkValue(item, [property.type, ...(property.previousTypes ?? [])], `${path}.${name}`, scope);
  }
  for (const [name, property] of Object.entries(properties)) {
    if (property.required && !(name in value))
      scope.report(`${path}.${name}`, `required property "${name}" is missing`);
  }
}

/**
 * A value against the types it may have (a property's current type and its previous ones):
 * it passes if it conforms to one. The problems reported are those of the type that came
 * closest (the first, when none did).
 */
function checkValue(
  value: unknown,
  types: readonly PropertyType[],
  path: string,
  scope: TemplateScope,
): void {
  if (isIntrinsic(value)) {
    checkIntrinsic(value, types, path, scope);
    return;
  }
  let best: Array<[string, string]> | undefined;
  for (const type of types) {
    const problems: Array<[string, string]> = [];
    conform(value, type, path, { ...scope, report: (at, message) => problems.push([at, message]) });
    if (problems.length === 0) return;
    if (!best || problems.length < best.length) best = problems;
  }
  for (const [at, message] of best ?? []) scope.report(at, message);
}

/** Reports where a (non-intrinsic) value does not conform to one type. */
function conform(value: unknown, type: PropertyType, path: string, scope: TemplateScope): void {
  const describe = () => `${JSON.stringify(value)?.slice(0, 80)} is not ${typeName(type)}`;
  switch (type.type) {
    case 'string':
      // CloudFormation turns numbers and booleans into strings.
      if (!['string', 'number', 'boolean'].includes(typeof value)) scope.report(path, describe());
      else if (type.allowedValues && !type.allowedValues.includes(String(value))) {
        scope.report(path, `${JSON.stringify(value)} is not one of ${type.allowedValues.join(', ')}`);
      }
      return;
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const fits = typeof number === 'number' && Number.isFinite(number);
      if (!fits || (type.type === 'integer' && !Number.isInteger(number))) scope.report(path, describe());
      else if (type.type === 'integer' && type.allowedValues && !type.allowedValues.includes(number)) {
        scope.report(path, `${JSON.stringify(value)} is not one of ${type.allowedValues.join(', ')}`);
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean' && value !== 'true' && value !== 'false') scope.report(path, describe());
      return;
    case 'date-time':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) scope.report(path, describe());
      return;
    case 'null':
      if (value !== null) scope.report(path, describe());
      return;
    case 'json':
      // Any JSON document (a policy, an event pattern); its intrinsics must still be well formed.
      if (!isObject(value) && typeof value !== 'string' && !Array.isArray(value))
        scope.report(path, describe());
      else checkIntrinsicsIn(value, path, scope);
      return;
    case 'tag':
      if (!isObject(value)) scope.report(path, describe());
      else checkObject(value, TAG_PROPERTIES, path, scope);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        scope.report(path, describe());
        return;
      }
      value.forEach((item, index) => {
        checkValue(item, [type.element], `${path}[${index}]`, scope);
      });
      return;
    case 'map':
      if (!isObject(value)) {
        scope.report(path, describe());
        return;
      }
      for (const [key, item] of Object.entries(value))
        checkValue(item, [type.element], `${path}.${key}`, scope);
      return;
    case 'ref': {
      if (!isObject(value)) {
        scope.report(path, describe());
        return;
      }
      checkObject(value, typeDefinitionOf(type).properties, path, scope);
      return;
    }
    case 'union': {
      const problems: Array<[string, string]> = [];
      for (const member of type.types) {
        problems.length = 0;
        checkValue(value, [member], path, {
          ...scope,
          report: (at, message) => problems.push([at, message]),
        });
        if (problems.length === 0) return;
      }
      scope.report(path, describe());
      return;
    }
  }
}

/** The legacy tag type: `{ Key, Value }`. */
const TAG_PROPERTIES: TypeDefinition['properties'] = {
  Key: { type: { type: 'string' }, required: true },
  Value: { type: { type: 'string' }, required: true },
};

/** `string`, `list of Tag`, `KeySchema`, ...: a type as a reader would name it. */
function typeName(type: PropertyType): string {
  switch (type.type) {
    case 'array':
      return `a list of ${typeName(type.element)}`;
    case 'map':
      return `a map of ${typeName(type.element)}`;
    case 'ref':
      return `a ${typeDefinitionOf(type).name} object`;
    case 'union':
      return type.types.map(typeName).join(' or ');
    case 'tag':
      return 'a tag ({Key, Value})';
    case 'integer':
      return 'an integer';
    default:
      return `a ${type.type}`;
  }
}

const INTRINSIC_FUNCTIONS = new Set([
  'Ref',
  'Fn::GetAtt',
  'Fn::Join',
  'Fn::Sub',
  'Fn::If',
  'Fn::Select',
  'Fn::Split',
  'Fn::ImportValue',
  'Fn::GetStackOutput',
  'Fn::FindInMap',
  'Fn::Base64',
  'Fn::GetAZs',
  'Fn::Cidr',
  'Fn::Length',
  'Fn::ToJsonString',
  'Fn::Transform',
]);

/** An object with one key that names an intrinsic function. */
function isIntrinsic(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && INTRINSIC_FUNCTIONS.has(keys[0]!);
}

/**
 * An intrinsic function's form and references. Its result is typed only for `Fn::If`, whose
 * branches are values of the expected type; other functions' arguments are checked recursively.
 */
function checkIntrinsic(
  value: Record<string, unknown>,
  expected: readonly PropertyType[] | undefined,
  path: string,
  scope: TemplateScope,
): void {
  const [name, argument] = Object.entries(value)[0]!;
  const at = `${path}.${name}`;
  const malformed = (form: string) =>
    scope.report(at, `${name} takes ${form}, not ${JSON.stringify(argument)}`);
  switch (name) {
    case 'Ref':
      if (typeof argument !== 'string') malformed('a logical id or parameter name');
      else if (!refersToSomething(argument, scope.template)) {
        scope.report(at, `Ref ${argument}: no resource, parameter or pseudo parameter has that name`);
      }
      return;
    case 'Fn::GetAtt': {
      const [logicalId, attribute] =
        typeof argument === 'string' ? splitOnce(argument, '.') : asPair(argument);
      if (typeof logicalId !== 'string' || typeof attribute !== 'string') {
        malformed('[logicalId, attribute]');
        return;
      }
      checkAttribute(logicalId, attribute, at, scope);
      return;
    }
    case 'Fn::If': {
      if (!Array.isArray(argument) || argument.length !== 3 || typeof argument[0] !== 'string') {
        malformed('[condition, value if true, value if false]');
        return;
      }
      if (!(argument[0] in (scope.template.Conditions ?? {}))) {
        scope.report(at, `Fn::If names condition ${argument[0]}, which the template does not define`);
      }
      for (const [index, branch] of [argument[1], argument[2]].entries()) {
        const branchPath = `${at}[${index + 1}]`;
        const noValue = isObject(branch) && branch.Ref === 'AWS::NoValue';
        if (expected && !noValue) checkValue(branch, expected, branchPath, scope);
        else checkIntrinsicsIn(branch, branchPath, scope);
      }
      return;
    }
    case 'Fn::Join':
      if (!Array.isArray(argument) || argument.length !== 2 || typeof argument[0] !== 'string') {
        malformed('[delimiter, list]');
        return;
      }
      if (!Array.isArray(argument[1]) && !isIntrinsic(argument[1])) malformed('[delimiter, list]');
      checkIntrinsicsIn(argument[1], `${at}[1]`, scope);
      return;
    case 'Fn::Sub': {
      const [text, variables] = typeof argument === 'string' ? [argument, {}] : asPair(argument);
      if (typeof text !== 'string' || !isObject(variables)) {
        malformed('a string or [string, variables]');
        return;
      }
      for (const [, reference] of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
        const [target, attribute] = splitOnce(reference!, '.');
        if (target! in variables) continue;
        if (attribute === undefined) {
          if (!refersToSomething(target!, scope.template)) {
            scope.report(at, `Fn::Sub \${${reference}}: no resource, parameter or variable has that name`);
          }
        } else checkAttribute(target!, attribute, at, scope);
      }
      checkIntrinsicsIn(variables, `${at}[1]`, scope);
      return;
    }
    case 'Fn::Select':
      if (!Array.isArray(argument) || argument.length !== 2) malformed('[index, list]');
      else checkIntrinsicsIn(argument, at, scope);
      return;
    case 'Fn::Split':
      if (!Array.isArray(argument) || argument.length !== 2 || typeof argument[0] !== 'string') {
        malformed('[delimiter, string]');
      } else checkIntrinsicsIn(argument[1], `${at}[1]`, scope);
      return;
    case 'Fn::FindInMap':
      if (!Array.isArray(argument) || argument.length < 3)
        malformed('[map, top-level key, second-level key]');
      else checkIntrinsicsIn(argument, at, scope);
      return;
    case 'Fn::GetStackOutput':
      if (
        !isObject(argument) ||
        typeof argument.OutputName !== 'string' ||
        argument.StackName === undefined
      ) {
        malformed('{ StackName, OutputName, ... }');
      } else checkIntrinsicsIn(argument, at, scope);
      return;
    default:
      checkIntrinsicsIn(argument, at, scope);
  }
}

/** Checks the intrinsic functions anywhere inside a value whose type is not known. */
function checkIntrinsicsIn(value: unknown, path: string, scope: TemplateScope): void {
  if (isIntrinsic(value)) checkIntrinsic(value, undefined, path, scope);
  else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      checkIntrinsicsIn(item, `${path}[${index}]`, scope);
    });
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) checkIntrinsicsIn(item, `${path}.${key}`, scope);
  }
}

function refersToSomething(name: string, template: CloudFormationTemplate): boolean {
  return (
    PSEUDO_PARAMETERS.has(name) || name in (template.Resources ?? {}) || name in (template.Parameters ?? {})
  );
}

/** A `Fn::GetAtt` target: the resource exists and its type has the attribute. */
function checkAttribute(logicalId: string, attribute: string, path: string, scope: TemplateScope): void {
  const target = scope.template.Resources?.[logicalId];
  if (!target) {
    scope.report(path, `Fn::GetAtt ${logicalId}.${attribute}: the template has no resource ${logicalId}`);
    return;
  }
  if (isUnschematized(target.Type) || target.Type === 'AWS::CloudFormation::CustomResource') return;
  // A nested stack's outputs are read as `Outputs.<name>`.
  if (target.Type === 'AWS::CloudFormation::Stack' && attribute.startsWith('Outputs.')) return;
  const schema = resourceSchemaOf(target.Type);
  if (schema && !(attribute in schema.attributes)) {
    scope.report(
      path,
      `Fn::GetAtt ${logicalId}.${attribute}: ${target.Type} has no attribute ${attribute} (it has ${Object.keys(schema.attributes).join(', ')})`,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

function asPair(value: unknown): [unknown, unknown] {
  return Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : [undefined, undefined];
}
