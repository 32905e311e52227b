/**
 * Builds the web console (`console/src`, Preact) into `console/dist`: `index.html`,
 * `console.js` and `console.css`, minified. esbuild is the project's bundler already (the
 * Lambda functions), so the console needs no second build tool. `npm start`, the CDK stack and
 * the benchmarks call it; the output is generated and gitignored.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, buildSync } from 'esbuild';

export const consoleSourceDirectory = join(__dirname, 'src');
export const consoleDistDirectory = join(__dirname, 'dist');
/** What the console fetches at start to learn where the API is (see `src/config.ts`). */
export const CONSOLE_CONFIG_FILE = 'config.json';
/** The files of a build, relative to `consoleDistDirectory`: what a first visit loads. */
export const CONSOLE_BUILD_FILES = ['index.html', 'console.js', 'console.css'] as const;

/** How the console is bundled: one place, for the build and for the test of its size. */
export const consoleBuildOptions = {
  entryPoints: { console: join(consoleSourceDirectory, 'main.tsx') },
  outdir: consoleDistDirectory,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16.4'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'error',
} satisfies BuildOptions;

/**
 * Builds the console into `consoleDistDirectory` and returns that folder. Synchronous (well
 * under a second), because the CDK stack builds it while synthesizing, which cannot wait.
 */
export function buildConsole(): string {
  mkdirSync(consoleDistDirectory, { recursive: true });
  buildSync(consoleBuildOptions);
  copyFileSync(join(__dirname, 'index.html'), join(consoleDistDirectory, 'index.html'));
  return consoleDistDirectory;
}
