/**
 * The IAM evaluation library (`@cloud-copilot/iam-simulate`, AGPL-3.0) runs in local mode and in
 * tests only: no function's code names it, so esbuild cannot put it in a bundle that deploys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LAMBDAS = join(__dirname, '..', '..', 'lambdas');

/** Every TypeScript and JavaScript file under a folder. */
const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(c|m)?(t|j)s$/.test(entry.name) ? [path] : [];
  });

it('no file under lambdas/ names @cloud-copilot', () => {
  // Act
  const naming = sourceFiles(LAMBDAS).filter((path) => readFileSync(path, 'utf8').includes('@cloud-copilot'));
  // Assess
  expect(sourceFiles(LAMBDAS).length).toBeGreaterThan(50);
  expect(naming).toEqual([]);
});
