/**
 * The README's quick start, run exactly as written, so that it cannot rot: its first block must
 * be `npm install` and `npm start` (this test runs `npm start` itself, with a fresh DATA_DIR and
 * PORT), and every later `bash` block of the section runs, in order, in one bash session with
 * that PORT and DATA_DIR, stopping at the first failing command. Each `# → text` comment is
 * what its line prints: the output must hold them, in that order (`markdown-walkthrough.ts`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment, type LocalServer, projectRoot, startLocalServer } from '../support/local-server';
import {
  bashBlocksOf,
  commandsOf,
  expectedOutputsOf,
  missingOutputs,
  runBash,
} from '../support/markdown-walkthrough';

jest.setTimeout(300_000);

describe("the README's quick start, as written", () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const blocks = bashBlocksOf(readme, 'Quick start');
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-readme-'));
  const scratch = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-readme-scratch-'));
  let server: LocalServer | undefined;

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('starts with npm install and npm start (which this test runs itself), then walks the product', () => {
    // Assess
    expect(commandsOf(blocks[0] ?? '')).toEqual(['npm install', 'npm start']);
    expect(blocks.length).toBeGreaterThan(3);
    expect(expectedOutputsOf(blocks.slice(1)).length).toBeGreaterThan(5);
  });

  it('runs every later block in one shell against a fresh npm start, printing what the comments say', async () => {
    // Prepare
    server = await startLocalServer({ dataDirectory });
    const walkthrough = blocks.slice(1);
    const environment = {
      ...childEnvironment({ port: server.port, dataDirectory }),
      // `mktemp -d` in the walkthrough makes its scratch folder here, removed afterwards.
      TMPDIR: scratch,
    };
    // Act
    const result = await runBash(walkthrough.join('\n'), environment);
    // Assess
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const missing = missingOutputs(result.stdout, expectedOutputsOf(walkthrough));
    expect({ missing, output: missing.length > 0 ? result.stdout : '' }).toEqual({ missing: [], output: '' });
  });
});
