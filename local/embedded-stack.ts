/**
 * The embedded stack: DynamoDB Local and s3rver on loopback, with the table and the files
 * bucket created, and the environment set so that the handler modules reach them. `npm start`
 * and the integration tests both run on it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOOPBACK_HTTP_ISSUERS_ENVIRONMENT } from '../lambdas/domain/identity/issuer-urls.js';
import { LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT } from '../lambdas/domain/webhooks/webhook-address.js';
import { LOCAL_DELIVERY_QUEUE_ENVIRONMENT } from '../lambdas/repositories/delivery-queue-environment.js';
import { LOCAL_CURSOR_KEY_ENV } from '../lambdas/shared/cursor-key.js';
import { LOCAL_EVENT_BUS_FILE_ENVIRONMENT } from '../lambdas/shared/event-bus.js';
import { LOCAL_SECRETS_KEY_FILE_ENVIRONMENT } from '../lambdas/shared/secret-box.js';
import { localCursorKey } from './cursor-key-file.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { freePort } from './free-port.js';
import { runBackgroundJobsInProcess } from './in-process-jobs.js';
import { keepDataDirectoryPrivate } from './private-files.js';
import { startS3Local } from './s3-local.js';
import { createTableIfMissing } from './table-setup.js';

export const LOCAL_TABLE_NAME = 'asset-registry';
export const LOCAL_FILES_BUCKET = 'asset-registry-files';
export const LOCAL_DIGEST_BUCKET = 'asset-registry-ledger-digests';

/** The environment the handler modules read (see `lambdas/shared/clients.ts`). */
export interface StackEnvironment {
  TABLE_NAME: string;
  FILES_BUCKET_NAME: string;
  DIGEST_BUCKET_NAME: string;
  LOCAL_DYNAMODB_ENDPOINT: string;
  AWS_ENDPOINT_URL_S3: string;
  AWS_REGION: string;
  LOCAL_BACKGROUND_JOBS: string;
  [name: string]: string;
}

export interface EmbeddedStack {
  environment: StackEnvironment;
  stop(): Promise<void>;
}

export interface EmbeddedStackOptions {
  /** Keeps data under this folder; in memory (DynamoDB) and a temporary folder (S3) when undefined. */
  dataDirectory?: string;
  s3Directory: string;
}

export async function startEmbeddedStack(options: EmbeddedStackOptions): Promise<EmbeddedStack> {
  if (options.dataDirectory) keepDataDirectoryPrivate(options.dataDirectory);
  const [dynamoDbPort, s3Port] = await Promise.all([freePort(), freePort()]);
  // Both start side by side; whichever started is stopped again if the other fails.
  const [dynamoDbStart, s3Start] = await Promise.allSettled([
    startDynamoDbLocal({
      port: dynamoDbPort,
      dataDirectory: options.dataDirectory ? join(options.dataDirectory, 'dynamodb') : undefined,
    }),
    startS3Local({
      port: s3Port,
      directory: options.s3Directory,
      bucketNames: [LOCAL_FILES_BUCKET, LOCAL_DIGEST_BUCKET],
    }),
  ]);
  const stopStarted = async () => {
    if (s3Start.status === 'fulfilled') await s3Start.value.close();
    if (dynamoDbStart.status === 'fulfilled') await stopProcess(dynamoDbStart.value);
  };
  if (dynamoDbStart.status === 'rejected' || s3Start.status === 'rejected') {
    await stopStarted();
    throw dynamoDbStart.status === 'rejected'
      ? dynamoDbStart.reason
      : (s3Start as PromiseRejectedResult).reason;
  }
  // Events out keeps its local files (bus log, secrets key, stream checkpoint) with the data.
  const eventsDirectory = options.dataDirectory
    ? join(options.dataDirectory, 'events')
    : mkdtempSync(join(tmpdir(), 'asset-registry-events-'));
  mkdirSync(eventsDirectory, { recursive: true });
  runBackgroundJobsInProcess();
  const environment: StackEnvironment = {
    TABLE_NAME: LOCAL_TABLE_NAME,
    FILES_BUCKET_NAME: LOCAL_FILES_BUCKET,
    DIGEST_BUCKET_NAME: LOCAL_DIGEST_BUCKET,
    LOCAL_DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoDbPort}`,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${s3Port}`,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    // Background jobs run in the API's own process instead of as separate Lambda functions.
    LOCAL_BACKGROUND_JOBS: 'inline',
    // No CloudWatch or X-Ray here: metrics and traces off, warnings and errors logged.
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    [LOCAL_CURSOR_KEY_ENV]: localCursorKey(options.dataDirectory),
    LOCAL_EVENTS_DIRECTORY: eventsDirectory,
    // No EventBridge here: the bus's entries are appended to a file (`docs/events.md`).
    [LOCAL_EVENT_BUS_FILE_ENVIRONMENT]: join(eventsDirectory, 'event-bus.jsonl'),
    // No KMS here: webhook secrets are sealed with a key file only this machine holds.
    [LOCAL_SECRETS_KEY_FILE_ENVIRONMENT]: join(eventsDirectory, 'webhook-secrets.key'),
    // No SQS here: the delivery queue is kept in the table, so a restart loses nothing.
    [LOCAL_DELIVERY_QUEUE_ENVIRONMENT]: 'table',
    // A developer may receive webhooks on their own machine (http to loopback).
    [LOCAL_WEBHOOKS_ALLOW_LOOPBACK_ENVIRONMENT]: 'true',
    // The local identity provider (and a developer's own) serves plain http on loopback.
    [LOOPBACK_HTTP_ISSUERS_ENVIRONMENT]: 'allowed',
  };
  const client = new DynamoDBClient({
    endpoint: environment.LOCAL_DYNAMODB_ENDPOINT,
    region: environment.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await createTableIfMissing(client, LOCAL_TABLE_NAME);
  } catch (error) {
    await stopStarted();
    throw error;
  } finally {
    client.destroy();
  }
  return { environment, stop: stopStarted };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
