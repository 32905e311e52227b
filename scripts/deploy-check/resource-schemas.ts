/**
 * The CloudFormation resource schemas, as the CDK team's service specification
 * (`@aws-cdk/aws-service-spec`) holds them: per resource type, its properties with their types,
 * whether each is required and whether changing it replaces the resource (the schema's
 * `createOnlyProperties`), and its attributes. Loaded once per process (about 0.6 s).
 */
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { Property, PropertyType, Resource, TypeDefinition } from '@aws-cdk/service-spec-types';

export type { Property, PropertyType, Resource, TypeDefinition };

let database: ReturnType<typeof loadAwsServiceSpecSync> | undefined;
const specDatabase = () => {
  database ??= loadAwsServiceSpecSync();
  return database;
};

/** The schema of a resource type (`AWS::S3::Bucket`), or undefined for a type the spec does not know. */
export function resourceSchemaOf(cloudFormationType: string): Resource | undefined {
  return specDatabase().lookup('resource', 'cloudFormationType', 'equals', cloudFormationType)[0];
}

/** The definition a `ref` property type points to (a nested object's properties). */
export function typeDefinitionOf(type: Extract<PropertyType, { type: 'ref' }>): TypeDefinition {
  return specDatabase().get('typeDefinition', type.reference.$ref) as TypeDefinition;
}

/** How a change of a top-level property affects its resource: replaced (`yes`), perhaps (`maybe`), or updated in place. */
export type ReplacementBehaviour = 'yes' | 'maybe' | 'no';

/**
 * The top-level properties of a resource type whose change replaces the resource, by name,
 * with `yes` or `maybe` (replaced for some changes only).
 *
 * @example
 * replacingPropertiesOf('AWS::SQS::Queue'); // Map { 'FifoQueue' => 'yes', 'QueueName' => 'yes' }
 */
export function replacingPropertiesOf(
  cloudFormationType: string,
): Map<string, Exclude<ReplacementBehaviour, 'no'>> {
  const schema = resourceSchemaOf(cloudFormationType);
  const replacing = new Map<string, Exclude<ReplacementBehaviour, 'no'>>();
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.causesReplacement === 'yes' || property.causesReplacement === 'maybe') {
      replacing.set(name, property.causesReplacement);
    }
  }
  for (const [name] of schema?.additionalReplacementProperties ?? []) if (name) replacing.set(name, 'yes');
  return replacing;
}
