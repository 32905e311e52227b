/**
 * The README's quick start, run exactly as written, so that it cannot rot: its first block must
 * be `npm install` and `npm start` (this test runs `npm start` itself, with a fresh DATA_DIR and
 * PORT), and every later `bash` block of the section runs, in order, in one bash session with
 * that PORT and DATA_DIR, stopping at the first failing command. Each `# → text` comment is
 * what its line prints: the output must hold them, in that order.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment, type LocalServer, projectRoot, startLocalServer } from '../support/local-server';

jest.setTimeout(300_000);

/** The `bash` blocks of the README section titled `title`, in order. */
function bashBlocksOf(readme: string, title: string): string[] {
  const start = readme.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`README has no section "## ${title}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** The commands of a block, without comments and blank lines. */
const commandsOf = (block: string): string[] =>
  block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

/** The texts of the `# → text` comments, in order. */
const expectedOutputsOf = (blocks: readonly string[]): string[] =>
  blocks.flatMap((block) => [...block.matchAll(/# → (.+)$/gm)].map((match) => (match[1] as string).trim()));

/** Runs a bash script; resolves with its exit code and output. */
function runBash(
  script: string,
  environment: NodeJS.ProcessEnv,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\nshopt -s inherit_errexit\n${script}`], {
      cwd: projectRoot,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the quick start did not end within 240 s\n${stdout}\n${stderr}`));
    }, 240_000);
    child.once('error', reject);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

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
    let searchFrom = 0;
    for (const expected of expectedOutputsOf(walkthrough)) {
      const found = result.stdout.indexOf(expected, searchFrom);
      expect({ expected, found: found >= 0, output: found >= 0 ? '' : result.stdout }).toEqual({
        expected,
        found: true,
        output: '',
      });
      searchFrom = found + expected.length;
    }
  });
});
