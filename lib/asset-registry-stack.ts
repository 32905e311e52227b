/** The whole service in one stack: data store, API and functions, and the outputs users need. */
import { Aspects, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AssetRegistryApi } from './api.js';
import { BackgroundJobFunctions } from './background-job-functions.js';
import { DataStore } from './data-store.js';
import { LedgerDigests } from './ledger-digests.js';
import { LedgerProtection } from './ledger-protection.js';

export const DEFAULT_STACK_NAME = 'AssetRegistryStack';

export class AssetRegistryStack extends Stack {
  readonly dataStore: DataStore;
  readonly api: AssetRegistryApi;
  readonly ledgerDigests: LedgerDigests;
  readonly backgroundJobs: BackgroundJobFunctions;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.dataStore = new DataStore(this, 'DataStore');
    this.backgroundJobs = new BackgroundJobFunctions(this, 'BackgroundJobs', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
    });
    this.api = new AssetRegistryApi(this, 'Api', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
      backgroundJobs: this.backgroundJobs,
    });
    this.ledgerDigests = new LedgerDigests(this, 'LedgerDigests', {
      table: this.dataStore.table,
      retentionDays: numberContext(this, 'digestRetentionDays'),
      intervalMinutes: numberContext(this, 'digestIntervalMinutes'),
    });
    Aspects.of(this).add(new LedgerProtection(this.dataStore.table));

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (stage included); operations live under /v2',
      value: this.api.restApi.url,
    });
    new CfnOutput(this, 'RestApiId', { value: this.api.restApi.restApiId });
    new CfnOutput(this, 'TableName', { value: this.dataStore.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.dataStore.filesBucket.bucketName });
    new CfnOutput(this, 'DigestBucketName', { value: this.ledgerDigests.bucket.bucketName });
  }
}

function numberContext(scope: Construct, key: string): number | undefined {
  const value = scope.node.tryGetContext(key);
  return value === undefined ? undefined : Number(value);
}
