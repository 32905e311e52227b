/**
 * The web console's first load stays small (issue 27, docs/console-code.md): what a first visit
 * fetches (`index.html`, `console.js`, `console.css`), bundled with the options `npm start` and
 * the stack build it with, is at most 150 KB gzip-compressed. One esbuild run, in memory.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { CONSOLE_BUILD_FILES, consoleBuildOptions } from '../../console/build';

/** The console's budget for a first load, compressed (the bench reports the figure: `web-console`). */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1000;

const gzipBytes = (contents: Uint8Array) => gzipSync(contents, { level: 9 }).length;

it('loads at most 150 KB compressed on a first visit', () => {
  // Act
  const built = buildSync({ ...consoleBuildOptions, write: false });
  const sizes = new Map(built.outputFiles.map((file) => [basename(file.path), gzipBytes(file.contents)]));
  sizes.set('index.html', gzipBytes(readFileSync(join(__dirname, '../../console/index.html'))));

  // Assess: every file of a first load is built, and together they fit the budget
  expect([...sizes.keys()].sort()).toEqual([...CONSOLE_BUILD_FILES].sort());
  const firstLoadBytes = [...sizes.values()].reduce((total, bytes) => total + bytes, 0);
  // (a failure shows each file's compressed size beside the verdict)
  const figures = { firstLoadBytes, sizes: Object.fromEntries(sizes) };
  expect({ ...figures, withinBudget: firstLoadBytes <= FIRST_LOAD_BUDGET_BYTES }).toEqual({
    ...figures,
    withinBudget: true,
  });
});
