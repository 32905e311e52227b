/**
 * The synthesized stack as local mode runs it: every Lambda function of the templates (nested
 * stacks included) with its entry, the environment variables its template gives it, its timeout,
 * memory and role policies, and the stack's resource policies and event source mappings, every
 * reference resolved to a local name or ARN (`template-values.ts`). Nothing here is a second list
 * of functions: whatever `cdk deploy` would create, local mode runs.
 */
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { DEFAULT_LOG_ORIGIN } from '../../lambdas/domain/ledger/log-signer.js';
import type { BackgroundJobName } from '../../lambdas/shared/background-jobs.js';
import { DEFAULT_STACK_NAME } from '../../lib/asset-registry-stack.js';
import { entryOf, nodejsFunctionsUnder } from '../../lib/bundled-function.js';
import { synthesizeStack } from '../../lib/synthesized-stack.js';
import { LOCAL_DIGEST_BUCKET, LOCAL_FILES_BUCKET, LOCAL_TABLE_NAME } from '../embedded-stack.js';
import type { PolicyDocument } from '../iam/iam-evaluation.js';
import { LocalTemplateValues, type TemplateResource } from './template-values.js';

export interface LocalFunction {
  /** The function's name (its ARN's last part), as AWS would name it. */
  name: string;
  logicalId: string;
  arn: string;
  /** The TypeScript file its bundle is built from. */
  entry: string;
  /** Exactly the variables its template gives it, references resolved. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  memoryMb: number;
  roleArn: string;
  /** The identity policies of its role, each by its logical id. */
  policies: Array<{ name: string; policy: PolicyDocument }>;
}

/** A resource policy (bucket, key or queue policy) and the resource it applies to. */
interface ResourcePolicy {
  resourceArn: string;
  policy: PolicyDocument;
}

export interface LocalStack {
  stackName: string;
  region: string;
  functions: LocalFunction[];
  resourcePolicies: ResourcePolicy[];
  /** Each `AWS::Lambda::EventSourceMapping`'s properties, references resolved. */
  eventSourceMappings: Array<Record<string, unknown>>;
  /** Each `AWS::Lambda::EventInvokeConfig`'s properties (asynchronous invocations), references resolved. */
  eventInvokeConfigs: Array<Record<string, unknown>>;
  /** Each SQS queue's ARN with its properties (its redrive policy), references resolved. */
  queues: Array<{ arn: string; properties: Record<string, unknown> }>;
  /** The functions behind the API: its authorizer's, and each operation's by operation id. */
  api: { authorizer: string; operations: Record<string, string> };
  /** The names of the functions that are not behind the API, by what they do. */
  workers: Record<BackgroundJobName | 'publishLedgerEvents' | 'deliverWebhooks' | 'sequenceLedger', string>;
  /** The ARN of the key that signs the log's checkpoints. */
  ledgerSigningKeyArn: string;
}

export interface LocalStackOptions {
  region: string;
  /** Origins whose pages may call the API (the context value `corsAllowedOrigins`). */
  corsAllowedOrigins: readonly string[];
  /** Context values besides `cdk.json`'s, as `cdk -c key=value` gives them. */
  context?: Record<string, string>;
}

/**
 * Synthesizes the stack (without bundling) and reads it as local mode runs it. The table and the
 * data buckets keep the names local mode has always given them, so that data kept in a data
 * folder stays where it was; the log keeps local mode's origin.
 */
export function synthesizeLocalStack(options: LocalStackOptions): LocalStack {
  const synthesized = synthesizeStack(
    {
      ledgerLogOrigin: DEFAULT_LOG_ORIGIN,
      ...options.context,
      corsAllowedOrigins: options.corsAllowedOrigins.join(','),
    },
    DEFAULT_STACK_NAME,
  );
  const { stack, logicalIdOf } = synthesized;
  const resources = (synthesized.template.toJSON() as { Resources: Record<string, TemplateResource> })
    .Resources;
  const values = new LocalTemplateValues({
    resources,
    stackName: DEFAULT_STACK_NAME,
    region: options.region,
    physicalNames: {
      [logicalIdOf(stack.dataStore.table)]: LOCAL_TABLE_NAME,
      [logicalIdOf(stack.dataStore.filesBucket)]: LOCAL_FILES_BUCKET,
      [logicalIdOf(stack.ledgerLog.bucket)]: LOCAL_DIGEST_BUCKET,
    },
  });
  const resolved = <T>(value: unknown): T => values.resolve(value as never) as T;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  const policiesOfRole = (roleLogicalId: string): LocalFunction['policies'] =>
    ofType('AWS::IAM::Policy')
      .filter(([, policy]) =>
        ((policy.Properties?.Roles ?? []) as Array<{ Ref?: string }>).some(
          (role) => role.Ref === roleLogicalId,
        ),
      )
      .map(([name, policy]) => ({
        name,
        policy: resolved<PolicyDocument>(policy.Properties?.PolicyDocument),
      }));

  const byLogicalId = new Map<string, LocalFunction>();
  for (const construct of nodejsFunctionsUnder(stack)) {
    const logicalId = logicalIdOf(construct);
    const properties = resources[logicalId]?.Properties ?? {};
    const roleLogicalId = (properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    byLogicalId.set(logicalId, {
      name: values.physicalName(logicalId),
      logicalId,
      arn: values.arn(logicalId),
      entry: entryOf(construct),
      environment: resolved<Record<string, string>>(
        (properties.Environment as { Variables?: unknown } | undefined)?.Variables ?? {},
      ),
      timeoutSeconds: Number(properties.Timeout ?? 3),
      memoryMb: Number(properties.MemorySize ?? 128),
      roleArn: values.arn(roleLogicalId),
      policies: policiesOfRole(roleLogicalId),
    });
  }
  const functions = [...byLogicalId.values()];
  const nameOf = (construct: NodejsFunction) => values.physicalName(logicalIdOf(construct));

  const resourcePolicies: ResourcePolicy[] = [
    ...ofType('AWS::S3::BucketPolicy').map(([, policy]) => ({
      resourceArn: `arn:aws:s3:::${resolved<string>(policy.Properties?.Bucket)}`,
      policy: resolved<PolicyDocument>(policy.Properties?.PolicyDocument),
    })),
    ...ofType('AWS::KMS::Key').map(([logicalId, key]) => ({
      resourceArn: values.arn(logicalId),
      policy: resolved<PolicyDocument>(key.Properties?.KeyPolicy),
    })),
    ...ofType('AWS::SQS::QueuePolicy').flatMap(([, policy]) =>
      ((policy.Properties?.Queues ?? []) as unknown[]).map((queue) => ({
        resourceArn: queueArnOfUrl(resolved<string>(queue)),
        policy: resolved<PolicyDocument>(policy.Properties?.PolicyDocument),
      })),
    ),
  ];

  return {
    stackName: DEFAULT_STACK_NAME,
    region: options.region,
    functions,
    resourcePolicies,
    eventSourceMappings: ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) =>
      resolved<Record<string, unknown>>(mapping.Properties),
    ),
    eventInvokeConfigs: ofType('AWS::Lambda::EventInvokeConfig').map(([, config]) =>
      resolved<Record<string, unknown>>(config.Properties),
    ),
    queues: ofType('AWS::SQS::Queue').map(([logicalId, queue]) => ({
      arn: values.arn(logicalId),
      properties: resolved<Record<string, unknown>>(queue.Properties ?? {}),
    })),
    ledgerSigningKeyArn: values.arn(logicalIdOf(stack.ledgerLog.signingKey)),
    workers: {
      ...(Object.fromEntries(
        [...stack.backgroundJobs.functions].map(([job, construct]) => [job, nameOf(construct)]),
      ) as Record<BackgroundJobName, string>),
      publishLedgerEvents: nameOf(stack.eventsOut.publisherFunction),
      deliverWebhooks: nameOf(stack.eventsOut.deliveryFunction),
      sequenceLedger: nameOf(stack.ledgerLog.sequencerFunction),
    },
    api: {
      authorizer: nameOf(stack.api.authorizerFunction),
      operations: Object.fromEntries(
        [...stack.api.operationFunctions].map(([operationId, construct]) => [operationId, nameOf(construct)]),
      ),
    },
  };
}

/** `https://sqs.<region>.amazonaws.com/<account>/<name>` → `arn:aws:sqs:<region>:<account>:<name>`. */
function queueArnOfUrl(queueUrl: string): string {
  const url = new URL(queueUrl);
  const [, account, name] = url.pathname.split('/');
  const region = url.hostname.split('.')[1];
  return `arn:aws:sqs:${region}:${account}:${name}`;
}
