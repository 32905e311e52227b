/**
 * Function bundles as the stack builds them (`lib/function-bundling.ts`), run in a child Node
 * process against the local stores the tests use.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../lib/function-bundling';
import { handlerEntry } from '../../lib/project-paths';

/** Bundles an operation's handler (`categories/create-category`) into `directory`; returns the bundle's path. */
export async function bundleHandler(handlerModule: string, directory: string): Promise<string> {
  await build(functionBuildOptions(handlerEntry(handlerModule), directory));
  return join(directory, 'index.js');
}

/** Calls a bundle's handler with one event in a fresh process, with this process's environment. */
export function runBundledHandler(
  bundlePath: string,
  event: APIGatewayProxyEvent,
): Promise<APIGatewayProxyResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--enable-source-maps', join(__dirname, 'bundled-handler-runner.cjs'), bundlePath],
      { env: process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${bundlePath}: ${error.message}\n${stderr}`));
        resolve(JSON.parse(stdout) as APIGatewayProxyResult);
      },
    );
    child.stdin?.end(JSON.stringify(event));
  });
}
