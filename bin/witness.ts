#!/usr/bin/env node
/**
 * The witness's CDK app, apart from the service's (`bin/asset-registry.ts`): an auditor deploys
 * only this stack into their own account.
 *   npx cdk deploy -a 'npx tsx bin/witness.ts' -c witnessLogs='<log verifier key>' [-c witnessName=<name>]
 * (`npm run deploy:witness -- -c witnessLogs=…` is the same). cdk-nag's AWS Solutions checks
 * run on every synth, as for the service.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DEFAULT_WITNESS_STACK_NAME, WitnessStack } from '../lib/witness/witness-stack.js';

const app = new App();
const stackName: string = app.node.tryGetContext('stackName') ?? DEFAULT_WITNESS_STACK_NAME;
new WitnessStack(app, stackName, {
  stackName,
  description: 'A C2SP tlog-witness that cosigns the checkpoints of the logs it follows',
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
