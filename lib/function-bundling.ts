/**
 * How every function's code is built: the esbuild settings NodejsFunction passes for each
 * function (`bundled-function.ts`), which the bench (`bench/scenarios/cold-start.ts`) and the
 * bundled-handler test build with too.
 */
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { projectRoot } from './project-paths.js';

/**
 * NodejsFunction's bundling settings that shape the code (`bundled-function.ts` adds the rest).
 *
 * `mainFields` puts packages' ES module builds before their CommonJS ones. The AWS SDK's
 * CommonJS build is one file per package, which esbuild must keep whole; its ES module build
 * lets esbuild drop every command, serializer and error class a function never uses. Measured
 * in `npm run bench`: the bare DynamoDB handler went from 535 to 334 KB, and every function's
 * bundle lost about 200 KB.
 */
export const FUNCTION_BUNDLING = {
  /** The runtime is Node.js 24. */
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  // Stack traces need only the mappings; embedding every bundled source would triple the zip.
  sourcesContent: false,
};

/**
 * The esbuild options NodejsFunction derives from {@link FUNCTION_BUNDLING} (platform node,
 * CommonJS, `@aws-sdk/*` bundled), for building a function outside CDK.
 *
 * @example
 * await build(functionBuildOptions(handlerEntry('objects/get-object'), outputDirectory));
 */
export function functionBuildOptions(entry: string, outputDirectory: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile: join(outputDirectory, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: FUNCTION_BUNDLING.target,
    mainFields: FUNCTION_BUNDLING.mainFields,
    minify: FUNCTION_BUNDLING.minify,
    sourcemap: FUNCTION_BUNDLING.sourceMap,
    sourcesContent: FUNCTION_BUNDLING.sourcesContent,
    absWorkingDir: projectRoot,
    logLevel: 'error',
  };
}
