/**
 * The synthesized stack as local mode reads it (`local-stack.ts`), kept under
 * `.cache/local-stack/<hash>.json` where the hash covers what a synthesis reads (the CDK app, its
 * constructs, the runtime code they import, the packages, the options): a start after no change
 * loads neither the CDK nor its constructs.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/project-paths.js';
import { filesUnder, runtimeSources, sourcesHash } from '../functions/function-bundles.js';
import type { LocalStack, LocalStackOptions } from './local-stack.js';

const CACHE_DIRECTORY = join(projectRoot, '.cache', 'local-stack');

/** The stack, from the cache when nothing it is made of changed; synthesized (and kept) otherwise. */
export async function cachedLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const sources = [
    ...filesUnder(join(projectRoot, 'lib')),
    join(projectRoot, 'bin', 'asset-registry.ts'),
    join(projectRoot, 'cdk.json'),
    ...runtimeSources(),
  ];
  const file = join(CACHE_DIRECTORY, `${sourcesHash(sources, JSON.stringify(options))}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalStack;
  const { synthesizeLocalStack } = await import('./local-stack.js');
  const stack = synthesizeLocalStack(options);
  mkdirSync(CACHE_DIRECTORY, { recursive: true });
  // Written beside and renamed: a reader never sees half a file.
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(stack));
  renameSync(`${file}.${process.pid}`, file);
  return stack;
}
