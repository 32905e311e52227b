/**
 * The authorizations of requests to the services the functions reach with JSON: KMS
 * (`X-Amz-Target: TrentService.<Operation>`), SQS (`AmazonSQS.<Operation>`, the queue named by
 * its `QueueUrl`), EventBridge (`AWSEvents.PutEvents`, once per entry's bus), Secrets Manager
 * (`secretsmanager.<Operation>`) and Lambda's Invoke (`POST
 * /2015-03-31/functions/<name>/invocations`).
 */
import {
  type AuthorizationRequest,
  type AwsAccount,
  type AwsHttpRequest,
  headerOf,
  jsonBodyOf,
  queryOf,
} from './authorization-request.js';

export interface KmsTranslation extends AwsAccount {
  /** The key an alias names (`alias/ledger` → its key's ARN); KMS authorizes on the key. */
  kmsKeyArnOfAlias?: (aliasArn: string) => string | undefined;
  /** The key a ciphertext was made under (a Decrypt without `KeyId` names its key only there). */
  kmsKeyArnOfCiphertext?: (ciphertextBlob: Buffer) => string | undefined;
}

const arnPrefix = (account: AwsAccount, service: string) =>
  `arn:${account.partition ?? 'aws'}:${service}:${account.region}:${account.accountId}`;

const operationOf = (request: AwsHttpRequest): string =>
  (headerOf(request.headers, 'x-amz-target') ?? '').split('.').pop() ?? '';

/** A key's ARN from a `KeyId`: a key ARN, an alias ARN, a key id or `alias/<name>`. */
function kmsKeyArn(keyId: string, translation: KmsTranslation): { resource: string; alias?: string } {
  const aliasArn = keyId.startsWith('alias/')
    ? `${arnPrefix(translation, 'kms')}:${keyId}`
    : /^arn:[^:]+:kms:[^:]*:[^:]*:alias\//.test(keyId)
      ? keyId
      : undefined;
  if (aliasArn) {
    return { resource: translation.kmsKeyArnOfAlias?.(aliasArn) ?? aliasArn, alias: aliasArn };
  }
  return { resource: keyId.startsWith('arn:') ? keyId : `${arnPrefix(translation, 'kms')}:key/${keyId}` };
}

/** A KMS request: the operation on the key it names (`kms:RequestAlias` when named by an alias). */
export function kmsAuthorizations(
  request: AwsHttpRequest,
  translation: KmsTranslation,
): AuthorizationRequest[] {
  const operation = operationOf(request);
  const body = jsonBodyOf(request);
  const context: Record<string, string | string[]> = { 'kms:CallerAccount': translation.accountId };
  if (typeof body.SigningAlgorithm === 'string') context['kms:SigningAlgorithm'] = body.SigningAlgorithm;
  if (typeof body.MessageType === 'string') context['kms:MessageType'] = body.MessageType;
  if (typeof body.EncryptionAlgorithm === 'string')
    context['kms:EncryptionAlgorithm'] = body.EncryptionAlgorithm;
  const encryptionContext = body.EncryptionContext as Record<string, string> | undefined;
  if (encryptionContext) {
    context['kms:EncryptionContextKeys'] = Object.keys(encryptionContext);
    for (const [name, value] of Object.entries(encryptionContext))
      context[`kms:EncryptionContext:${name}`] = value;
  }
  if (typeof body.KeyId === 'string') {
    const { resource, alias } = kmsKeyArn(body.KeyId, translation);
    return [
      {
        action: `kms:${operation}`,
        resource,
        context: alias ? { ...context, 'kms:RequestAlias': alias } : context,
      },
    ];
  }
  if (operation === 'Decrypt' && typeof body.CiphertextBlob === 'string') {
    const keyArn = translation.kmsKeyArnOfCiphertext?.(Buffer.from(body.CiphertextBlob, 'base64'));
    // Without the key, no statement naming a key can match: the call is refused, not let through.
    return [
      { action: 'kms:Decrypt', resource: keyArn ?? `${arnPrefix(translation, 'kms')}:key/unknown`, context },
    ];
  }
  return [{ action: `kms:${operation}`, resource: '*', context }];
}

/** The SQS actions of batch operations: each batch needs its single-message action. */
const SQS_BATCH_ACTIONS: Record<string, string> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/** An SQS request (JSON protocol): the action on the queue its `QueueUrl` names. */
export function sqsAuthorizations(request: AwsHttpRequest, account: AwsAccount): AuthorizationRequest[] {
  const operation = operationOf(request);
  const body = jsonBodyOf(request);
  const action = `sqs:${SQS_BATCH_ACTIONS[operation] ?? operation}`;
  if (typeof body.QueueUrl !== 'string') return [{ action, resource: '*', context: {} }];
  // `https://sqs.<region>.amazonaws.com/<account>/<queue>` (or the local endpoint's address).
  const [queueAccount, queueName] = new URL(body.QueueUrl).pathname.split('/').filter(Boolean);
  const resource = `arn:${account.partition ?? 'aws'}:sqs:${account.region}:${queueAccount ?? account.accountId}:${queueName}`;
  return [{ action, resource, context: {} }];
}

/** EventBridge PutEvents: `events:PutEvents` on each entry's bus (`default` when unnamed). */
export function eventsAuthorizations(request: AwsHttpRequest, account: AwsAccount): AuthorizationRequest[] {
  const operation = operationOf(request);
  const body = jsonBodyOf(request);
  if (operation !== 'PutEvents') return [{ action: `events:${operation}`, resource: '*', context: {} }];
  const entries = (body.Entries ?? []) as Array<{
    EventBusName?: string;
    Source?: string;
    DetailType?: string;
  }>;
  return entries.map((entry) => {
    const bus = entry.EventBusName ?? 'default';
    const context: Record<string, string> = {};
    if (entry.Source !== undefined) context['events:source'] = entry.Source;
    if (entry.DetailType !== undefined) context['events:detail-type'] = entry.DetailType;
    return {
      action: 'events:PutEvents',
      resource: bus.startsWith('arn:') ? bus : `${arnPrefix(account, 'events')}:event-bus/${bus}`,
      context,
    };
  });
}

/**
 * A Secrets Manager request: the action on the secret its `SecretId` names. A name (not an ARN)
 * is made an ARN without the six random characters AWS appends; policies name secrets by ARN.
 */
export function secretsManagerAuthorizations(
  request: AwsHttpRequest,
  account: AwsAccount,
): AuthorizationRequest[] {
  const operation = operationOf(request);
  const body = jsonBodyOf(request);
  const secretId = body.SecretId as string | undefined;
  const context: Record<string, string> = {};
  if (secretId !== undefined) context['secretsmanager:SecretId'] = secretId;
  if (typeof body.VersionId === 'string') context['secretsmanager:VersionId'] = body.VersionId;
  if (typeof body.VersionStage === 'string') context['secretsmanager:VersionStage'] = body.VersionStage;
  const resource =
    secretId === undefined
      ? '*'
      : secretId.startsWith('arn:')
        ? secretId
        : `${arnPrefix(account, 'secretsmanager')}:secret:${secretId}`;
  return [{ action: `secretsmanager:${operation}`, resource, context }];
}

/**
 * A Lambda request: Invoke (`POST /2015-03-31/functions/<name>/invocations`, the function by
 * name, partial ARN or ARN, with an optional `Qualifier`) is `lambda:InvokeFunction` on the
 * function (or its version or alias).
 */
export function lambdaAuthorizations(request: AwsHttpRequest, account: AwsAccount): AuthorizationRequest[] {
  const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(request.path);
  if (!invoke || request.method !== 'POST') {
    throw new Error(`Lambda: no operation known for ${request.method} ${request.path}`);
  }
  const named = decodeURIComponent(invoke[1] ?? '');
  const qualifier = queryOf(request.query, 'Qualifier');
  const functionArn = named.startsWith('arn:')
    ? named
    : /^\d{12}:function:/.test(named)
      ? `arn:${account.partition ?? 'aws'}:lambda:${account.region}:${named}`
      : `${arnPrefix(account, 'lambda')}:function:${named}`;
  return [
    {
      action: 'lambda:InvokeFunction',
      resource: qualifier ? `${functionArn}:${qualifier}` : functionArn,
      context: {},
    },
  ];
}
