#!/usr/bin/env node
/**
 * The CDK app: one stack. `cdk deploy -c stackName=MyRegistry` deploys a second copy under
 * another name (the stack's construct id follows the name, so `cdk` commands select it by it).
 * Every synth (and so every deploy) runs cdk-nag's AWS Solutions checks: a finding that is
 * neither fixed nor acknowledged with a reason stops it.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { checkWitnessPolicy } from '../lambdas/domain/ledger/witness-config.js';
import { AssetRegistryStack, DEFAULT_STACK_NAME } from '../lib/asset-registry-stack.js';
import { witnessPolicyOf } from '../lib/ledger-log.js';
import { WebConsoleFilesStack } from '../lib/web-console.js';

const app = new App();
const stackName: string = app.node.tryGetContext('stackName') ?? DEFAULT_STACK_NAME;

const stack = new AssetRegistryStack(app, stackName, {
  stackName,
  description: 'Asset Registry: objects, categories, files and wallets with a verifiable ledger',
});
new WebConsoleFilesStack(app, `${stackName}-ConsoleFiles`, {
  stackName: `${stackName}-ConsoleFiles`,
  description: "Asset Registry: the web console's files, copied into the console bucket",
  webConsole: stack.webConsole,
  restApi: stack.api.restApi,
  signIn: stack.peopleSignIn?.consoleSignIn,
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));

// The witness policy (context `witnessPolicyFile`) is parsed in full here, with Web Crypto,
// which a construct cannot await: one the log could not follow stops the synth before the app
// writes its output (the synth runs when the event loop empties).
const witnessPolicy = witnessPolicyOf(stack);
if (witnessPolicy !== undefined) {
  checkWitnessPolicy(witnessPolicy).catch((error: Error) => {
    console.error(`witnessPolicyFile: ${error.message}`);
    process.exit(1);
  });
}
