/** The whole service in one stack: data store, API and functions, and the outputs users need. */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AssetRegistryApi } from './api.js';
import { DataStore } from './data-store.js';

export const DEFAULT_STACK_NAME = 'AssetRegistryStack';

export class AssetRegistryStack extends Stack {
  readonly dataStore: DataStore;
  readonly api: AssetRegistryApi;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.dataStore = new DataStore(this, 'DataStore');
    this.api = new AssetRegistryApi(this, 'Api', {
      table: this.dataStore.table,
      filesBucket: this.dataStore.filesBucket,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (stage included); operations live under /v2',
      value: this.api.restApi.url,
    });
    new CfnOutput(this, 'RestApiId', { value: this.api.restApi.restApiId });
    new CfnOutput(this, 'TableName', { value: this.dataStore.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.dataStore.filesBucket.bucketName });
  }
}
