/**
 * The committed client types are what `npm run client` makes of the current OpenAPI document:
 * a change to the operation table or a schema fails here until the client is regenerated.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../support/local-server';

jest.setTimeout(120_000);

const COMMITTED = join(projectRoot, 'client', 'openapi-types.ts');

/** `tsx scripts/generate-client.ts --check [file]`, as `npm run client -- --check` runs it. */
const check = (file?: string) =>
  spawnSync(
    join(projectRoot, 'node_modules', '.bin', 'tsx'),
    ['scripts/generate-client.ts', '--check', ...(file ? [file] : [])],
    {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env },
    },
  );

describe('npm run client -- --check', () => {
  it('finds the committed client/openapi-types.ts fresh (run `npm run client` when this fails)', () => {
    // Act
    const result = check();
    // Assess
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a stale copy (one operation summary changed)', () => {
    // Prepare
    const folder = mkdtempSync(join(tmpdir(), 'asset-registry-client-'));
    const stale = join(folder, 'openapi-types.ts');
    writeFileSync(
      stale,
      readFileSync(COMMITTED, 'utf8').replace('List categories (spec 4.5)', 'List categories'),
    );
    // Act
    const result = check(stale);
    rmSync(folder, { recursive: true, force: true });
    // Assess
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/is stale: run npm run client/);
  });
});
