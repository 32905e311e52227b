#!/usr/bin/env node
/**
 * The CDK app: one stack. `cdk deploy -c stackName=MyRegistry` deploys a second copy under
 * another name (the stack's construct id follows the name, so `cdk` commands select it by it).
 */
import { App } from 'aws-cdk-lib';
import { AssetRegistryStack, DEFAULT_STACK_NAME } from '../lib/asset-registry-stack.js';

const app = new App();
const stackName: string = app.node.tryGetContext('stackName') ?? DEFAULT_STACK_NAME;

new AssetRegistryStack(app, stackName, {
  stackName,
  description: 'Asset Registry: objects, categories, files and wallets with a verifiable ledger',
});
