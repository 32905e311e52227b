/** The whole service in one stack: data store, API and functions, monitoring, and the outputs users need. */
import { Aspects, CfnOutput, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { parseOrigins } from '../lambdas/http/cors.js';
import { AssetRegistryApi } from './api.js';
import type { UsagePlanName } from './api-gateway-settings.js';
import { BackgroundJobFunctions } from './background-job-functions.js';
import { DataStore } from './data-store.js';
import { EventsOut } from './events-out.js';
import { FailedWork } from './failed-work.js';
import { LedgerLog, witnessPolicyOf } from './ledger-log.js';
import { LedgerProtection } from './ledger-protection.js';
import { Monitoring } from './monitoring.js';
import { type PeopleSignIn, peopleSignInOf } from './people-sign-in.js';
import { applyStatefulResourcePolicy } from './stateful-resources.js';
import { usagePlanOutputId } from './usage-plans.js';
import { apiOriginOf, consoleUrlOf, WebConsole } from './web-console.js';

export const DEFAULT_STACK_NAME = 'AssetRegistryStack';

export class AssetRegistryStack extends Stack {
  readonly dataStore: DataStore;
  readonly api: AssetRegistryApi;
  readonly ledgerLog: LedgerLog;
  readonly backgroundJobs: BackgroundJobFunctions;
  readonly monitoring: Monitoring;
  readonly eventsOut: EventsOut;
  readonly webConsole: WebConsole;
  readonly failedWork: FailedWork;
  /** The Cognito user pool people sign in with (context `identity=cognito`), else none. */
  readonly peopleSignIn: PeopleSignIn | undefined;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.dataStore = new DataStore(this, 'DataStore');
    this.failedWork = new FailedWork(this, 'FailedWork', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
    });
    this.ledgerLog = new LedgerLog(this, 'LedgerDigests', {
      table: this.dataStore.table,
      failedWork: this.failedWork,
      accessLogsBucket: this.dataStore.accessLogsBucket,
      retentionDays: numberContext(this, 'digestRetentionDays'),
      origin: this.node.tryGetContext('ledgerLogOrigin') ?? `asset-registry/${this.stackName}`,
      checkpointSeconds: numberContext(this, 'ledgerCheckpointSeconds'),
      witnessPolicy: witnessPolicyOf(this),
      witnessTimeoutMs: numberContext(this, 'witnessTimeoutMs'),
    });
    this.backgroundJobs = new BackgroundJobFunctions(this, 'BackgroundJobs', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
      failedWork: this.failedWork,
      // The export job reads the log's tiles for an as-of export with proofs.
      logBucket: this.ledgerLog.bucket,
    });
    // The sign-in's only callback is the console's URL, and the console's CSP names the
    // sign-in's origins: the console's URL is read lazily, once the console exists.
    this.peopleSignIn = peopleSignInOf(this, {
      consoleUrl: Lazy.string({ produce: () => consoleUrlOf(this.webConsole) }),
    });
    // The console's CSP names the API's origin and the API's CORS names the console's: the
    // API's is read lazily, once the API exists.
    this.webConsole = new WebConsole(this, 'WebConsole', {
      apiOrigin: Lazy.string({ produce: () => apiOriginOf(this.api.restApi) }),
      signInOrigins: this.peopleSignIn?.connectOrigins,
      accessLogsBucket: this.dataStore.accessLogsBucket,
    });
    this.api = new AssetRegistryApi(this, 'Api', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
      logBucket: this.ledgerLog.bucket,
      backgroundJobs: this.backgroundJobs,
      createCloudWatchRole: booleanContext(this, 'createApiGatewayCloudWatchRole'),
      corsAllowedOrigins: corsAllowedOriginsOf(this, [this.webConsole.origin]),
    });
    this.eventsOut = new EventsOut(this, 'EventsOut', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
      failedWork: this.failedWork,
    });
    this.eventsOut.grantOperations(this.api.operationFunctions);
    Aspects.of(this).add(new LedgerProtection(this.dataStore.table));
    applyStatefulResourcePolicy(this);

    // The authorizer throws "Unauthorized" for every refused key, which Lambda counts as an
    // error: it is on the dashboard, and its real failures show as API 5xx instead. Jobs are
    // named `<job>Job`: a job may share its name with the operation that starts it (exportObjects).
    const alarmedFunctions = uniqueNames([
      ...this.api.operationFunctions,
      ...[...this.backgroundJobs.functions].map(([job, jobFunction]) => [`${job}Job`, jobFunction] as const),
      ['sequenceLedger', this.ledgerLog.sequencerFunction],
      ['publishLedgerEvents', this.eventsOut.publisherFunction],
      ['deliverWebhooks', this.eventsOut.deliveryFunction],
      ['recordFailedJobs', this.failedWork.recorderFunction],
    ]);
    this.monitoring = new Monitoring(this, 'Monitoring', {
      restApi: this.api.restApi,
      accessLogGroup: this.api.accessLogGroup,
      table: this.dataStore.table,
      alarmedFunctions,
      otherFunctions: new Map([['authorizer', this.api.authorizerFunction]]),
      alarmEmail: this.node.tryGetContext('alarmEmail'),
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (stage included); operations live under /v2',
      value: this.api.restApi.url,
    });
    new CfnOutput(this, 'ConsoleUrl', {
      description: 'The web console (sign in with an API key)',
      value: consoleUrlOf(this.webConsole),
    });
    new CfnOutput(this, 'RestApiId', { value: this.api.restApi.restApiId });
    new CfnOutput(this, 'TableName', { value: this.dataStore.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.dataStore.filesBucket.bucketName });
    new CfnOutput(this, 'DigestBucketName', {
      description: "The Object Lock bucket of the ledger log's tiles and checkpoints",
      value: this.ledgerLog.bucket.bucketName,
    });
    new CfnOutput(this, 'LedgerSigningKeyArn', { value: this.ledgerLog.signingKey.keyArn });
    new CfnOutput(this, 'AccessLogsBucketName', {
      description: 'S3 server access logs of the files and digest buckets',
      value: this.dataStore.accessLogsBucket.bucketName,
    });
    for (const [planName, plan] of this.api.usagePlans.plans) {
      new CfnOutput(this, usagePlanOutputId(planName as UsagePlanName), {
        description: `Id of the API Gateway usage plan "${planName}"`,
        value: plan.usagePlanId,
      });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies (subscribe the on-call to it)',
      value: this.monitoring.alarmTopic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    this.eventsOut.addAlarms(this.monitoring.alarmTopic);
    this.failedWork.addAlarms(this.monitoring.alarmTopic);
    new CfnOutput(this, 'EventBusName', {
      description: 'EventBridge bus with every committed ledger event (source asset-registry)',
      value: this.eventsOut.eventBus.eventBusName,
    });
    new CfnOutput(this, 'EventBusArn', { value: this.eventsOut.eventBus.eventBusArn });
  }
}

/** The functions by name; a name given twice would lose a function's alarm, so it throws. */
function uniqueNames(
  entries: ReadonlyArray<readonly [string, NodejsFunction]>,
): ReadonlyMap<string, NodejsFunction> {
  const byName = new Map<string, NodejsFunction>();
  for (const [name, lambdaFunction] of entries) {
    if (byName.has(name)) throw new Error(`Two functions are named ${name} for their alarms`);
    byName.set(name, lambdaFunction);
  }
  return byName;
}

function numberContext(scope: Construct, key: string): number | undefined {
  const value = scope.node.tryGetContext(key);
  return value === undefined ? undefined : Number(value);
}

/**
 * The origins allowed by CORS: context `corsAllowedOrigins` (comma-separated, or a list in
 * cdk.json) when given, else `defaults` (the web console's origin, once the stack has one).
 */
function corsAllowedOriginsOf(scope: Construct, defaults: readonly string[]): string[] {
  const value = scope.node.tryGetContext('corsAllowedOrigins');
  if (value === undefined) return [...defaults];
  return Array.isArray(value) ? value.map(String) : parseOrigins(String(value));
}

/** `-c key=true` arrives as the string `'true'`; cdk.json may hold a real boolean. */
function booleanContext(scope: Construct, key: string): boolean {
  const value = scope.node.tryGetContext(key);
  return value === true || value === 'true';
}
