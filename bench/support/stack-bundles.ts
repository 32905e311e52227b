/**
 * Every Lambda function of the stack, bundled as `cdk deploy` bundles it (`lib/function-bundling.ts`),
 * all in one esbuild run, each bundle read from esbuild's metafile (`bundle-guard.ts`), for the
 * bundle budgets (`bench/bundle-budgets.ts`).
 */
import { relative } from 'node:path';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build, stop } from 'esbuild';
import { entryOf, nodejsFunctionsUnder } from '../../lib/bundled-function';
import { functionBuildOptions } from '../../lib/function-bundling';
import { projectRoot } from '../../lib/project-paths';
import { synthesizeStack } from '../../lib/synthesized-stack';
import type { FunctionKind, FunctionName } from '../bundle-budgets';
import { bundleContents, type FunctionBundle } from './bundle-guard';

/** One function of the stack: its name (as the stack's alarms name it) and its entry file. */
export interface StackFunction {
  name: FunctionName;
  kind: FunctionKind;
  /** The entry's path from the project root, as esbuild's metafile names it. */
  entry: string;
}

/**
 * The stack's functions, from a synthesis: the authorizer and each operation's function (kind
 * `api`), the background jobs (`<job>Job`), the sequencer, the events-out functions and the
 * recorder of failed jobs (`worker`).
 * Throws on a function of the stack that is none of these, so that no function goes unchecked.
 */
export function stackFunctions(): StackFunction[] {
  const { stack } = synthesizeStack();
  const named: Array<[FunctionName, FunctionKind, NodejsFunction]> = [
    ['authorizer', 'api', stack.api.authorizerFunction],
    ...[...stack.api.operationFunctions].map(
      ([operationId, construct]) =>
        [operationId, 'api', construct] as [FunctionName, FunctionKind, NodejsFunction],
    ),
    ...[...stack.backgroundJobs.functions].map(
      ([job, construct]) =>
        [`${job}Job`, 'worker', construct] as [FunctionName, FunctionKind, NodejsFunction],
    ),
    ['sequenceLedger', 'worker', stack.ledgerLog.sequencerFunction],
    ['publishLedgerEvents', 'worker', stack.eventsOut.publisherFunction],
    ['deliverWebhooks', 'worker', stack.eventsOut.deliveryFunction],
    ['recordFailedJobs', 'worker', stack.failedWork.recorderFunction],
  ];
  const known = new Set(named.map(([, , construct]) => construct));
  const unnamed = nodejsFunctionsUnder(stack).filter((construct) => !known.has(construct));
  if (unnamed.length > 0) {
    throw new Error(
      `Functions without a name in bench/support/stack-bundles.ts: ${unnamed.map((each) => each.node.path).join(', ')}`,
    );
  }
  return named.map(([name, kind, construct]) => ({
    name,
    kind,
    entry: relative(projectRoot, entryOf(construct)),
  }));
}

/**
 * Bundles every function with NodejsFunction's settings, in one esbuild run, writing nothing.
 *
 * @example
 * const bundles = await bundleFunctions(stackFunctions());
 * bundles.find((each) => each.name === 'getObject')?.bytes;
 */
export async function bundleFunctions(functions: readonly StackFunction[]): Promise<FunctionBundle[]> {
  const {
    entryPoints: _entryPoints,
    outfile: _outfile,
    ...settings
  } = functionBuildOptions(functions[0]!.entry, projectRoot);
  const outdir = '.cache/bundle-budgets';
  const result = await build({
    ...settings,
    entryPoints: Object.fromEntries(functions.map((each) => [`${each.name}/index`, each.entry])),
    outdir,
    write: false,
    metafile: true,
  });
  // esbuild's service process keeps over a gigabyte after building every function: it is let go.
  await stop();
  return functions.map((each) => {
    const output = result.metafile.outputs[`${outdir}/${each.name}/index.js`];
    if (!output) throw new Error(`esbuild wrote no bundle for ${each.name}`);
    return { ...each, ...bundleContents(result.metafile, output) };
  });
}
