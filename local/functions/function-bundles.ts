/**
 * The functions' bundles for local mode: built with the settings NodejsFunction uses for
 * `cdk deploy` (`lib/function-bundling.ts`), all entries in one esbuild run, and kept under
 * `.cache/functions/<hash>/` where the hash covers everything a bundle is made of (the runtime
 * code, the lock file and the settings). A start after no change builds nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, stop } from 'esbuild';
import { FUNCTION_BUNDLING, functionBuildOptions } from '../../lib/function-bundling.js';
import { lambdasDirectory, lockFilePath, projectRoot } from '../../lib/project-paths.js';

const BUNDLES_DIRECTORY = join(projectRoot, '.cache', 'functions');
/** How old a set of bundles of other sources is when it is removed. */
const STALE_BUNDLES_MS = 24 * 60 * 60 * 1000;

/** Every file under a folder, sorted, so the hash does not depend on the file system's order. */
export function filesUnder(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/**
 * A hash of files' paths and contents (and of `extra`), naming a cache of what is made of them.
 *
 * @example
 * sourcesHash(runtimeSources(), JSON.stringify(settings));
 */
export function sourcesHash(files: readonly string[], extra: string): string {
  const hash = createHash('sha256');
  hash.update(extra);
  for (const file of files) {
    hash.update(relative(projectRoot, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** What every bundle is made of besides its entry: the runtime code and the installed packages. */
export const runtimeSources = (): string[] => [
  ...filesUnder(lambdasDirectory),
  lockFilePath,
  join(projectRoot, 'package.json'),
];

/** The bundle's folder name of an entry: its path in the project, without the extension. */
const bundleNameOf = (entry: string): string =>
  relative(projectRoot, entry).replace(/\.ts$/, '').replace(/[\\/]/g, '__');

/**
 * Builds (or finds built) the bundle of every entry; resolves to each entry's `index.js`.
 *
 * @example
 * const bundles = await functionBundles(stack.functions.map((f) => f.entry));
 * require(bundles.get(entry)!).handler;
 */
export async function functionBundles(entries: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(entries)];
  const outside = unique.filter((entry) => relative(lambdasDirectory, entry).startsWith('..'));
  const hash = sourcesHash(
    [...runtimeSources(), ...outside],
    JSON.stringify([FUNCTION_BUNDLING, [...unique].sort()]),
  );
  const directory = join(BUNDLES_DIRECTORY, hash);
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
    // esbuild's service process keeps about 1.3 GB after building 57 bundles: it is let go.
    await stop();
    // Older sets are of older sources; one a running start may still load from is kept a day.
    const current = relative(BUNDLES_DIRECTORY, directory);
    for (const name of existsSync(BUNDLES_DIRECTORY) ? readdirSync(BUNDLES_DIRECTORY) : []) {
      const path = join(BUNDLES_DIRECTORY, name);
      if (name !== current && Date.now() - statSync(path).mtimeMs > STALE_BUNDLES_MS) {
        rmSync(path, { recursive: true, force: true });
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
