/**
 * The functions' bundles for local mode: built with the settings NodejsFunction uses for
 * `cdk deploy` (`lib/function-bundling.ts`), all entries in one esbuild run, and kept under
 * `.cache/functions/<hash>/` where the hash covers everything a bundle is made of (the runtime
 * code, the lock file and the settings). A start after no change builds nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { FUNCTION_BUNDLING, functionBuildOptions } from '../../lib/function-bundling.js';
import { lambdasDirectory, lockFilePath, projectRoot } from '../../lib/project-paths.js';

const BUNDLES_DIRECTORY = join(projectRoot, '.cache', 'functions');

/** Every file under a folder, sorted, so the hash does not depend on the file system's order. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** A hash of what the bundles are built from. */
function sourcesHash(entries: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(FUNCTION_BUNDLING));
  hash.update(JSON.stringify([...entries].sort()));
  for (const file of [...filesUnder(lambdasDirectory), lockFilePath, join(projectRoot, 'package.json')]) {
    hash.update(relative(projectRoot, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The bundle's folder name of an entry: its path under `lambdas/`, without the extension. */
const bundleNameOf = (entry: string): string =>
  relative(lambdasDirectory, entry).replace(/\.ts$/, '').replace(/[\\/]/g, '__');

/**
 * Builds (or finds built) the bundle of every entry; resolves to each entry's `index.js`.
 *
 * @example
 * const bundles = await functionBundles(stack.functions.map((f) => f.entry));
 * require(bundles.get(entry)!).handler;
 */
export async function functionBundles(entries: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(entries)];
  const directory = join(BUNDLES_DIRECTORY, sourcesHash(unique));
  const bundlePath = (entry: string) => join(directory, bundleNameOf(entry), 'index.js');
  if (!existsSync(directory)) {
    // Built beside the final folder and renamed into place: a stopped build leaves no half set.
    const building = `${directory}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const {
      entryPoints: _entryPoints,
      outfile: _outfile,
      ...settings
    } = functionBuildOptions(unique[0]!, building);
    await build({
      ...settings,
      entryPoints: Object.fromEntries(unique.map((entry) => [join(bundleNameOf(entry), 'index'), entry])),
      outdir: building,
    });
    // Older sets are of older sources: only the newest is kept.
    const current = relative(BUNDLES_DIRECTORY, directory);
    for (const name of existsSync(BUNDLES_DIRECTORY) ? readdirSync(BUNDLES_DIRECTORY) : []) {
      if (name !== current && !name.includes('.building-')) {
        rmSync(join(BUNDLES_DIRECTORY, name), { recursive: true, force: true });
      }
    }
    mkdirSync(BUNDLES_DIRECTORY, { recursive: true });
    try {
      renameSync(building, directory);
    } catch (error) {
      // Another start built the same set at the same moment.
      if (!existsSync(directory)) throw error;
      rmSync(building, { recursive: true, force: true });
    }
  }
  return new Map(unique.map((entry) => [entry, bundlePath(entry)]));
}
