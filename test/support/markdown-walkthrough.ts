/**
 * Running a Markdown walkthrough as written (the README's quick start, "Try it with your own
 * data"): its `bash` blocks run, in order, in one bash session that stops at the first failing
 * command, and each `# → text` comment is what its line prints: the output must hold them, in
 * that order.
 */
import { spawn } from 'node:child_process';
import { projectRoot } from './local-server';

/** The `bash` blocks of the Markdown section titled `title` (a `## ` heading), in order. */
export function bashBlocksOf(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`\n## ${title}`);
  const atTop = markdown.startsWith(`## ${title}`);
  if (start < 0 && !atTop) throw new Error(`No section "## ${title}"`);
  const from = atTop ? 0 : start;
  const end = markdown.indexOf('\n## ', from + 1);
  const section = markdown.slice(from, end < 0 ? undefined : end);
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** The commands of a block, without comments and blank lines. */
export const commandsOf = (block: string): string[] =>
  block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

/** The texts of the `# → text` comments, in order. */
export const expectedOutputsOf = (blocks: readonly string[]): string[] =>
  blocks.flatMap((block) => [...block.matchAll(/# → (.+)$/gm)].map((match) => (match[1] as string).trim()));

interface BashResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a bash script with `set -euo pipefail`; resolves with its exit code and output. The
 * shell leads a process group of its own, and the whole group is killed once the shell ends
 * (or at the timeout), so that nothing it started in the background outlives the test.
 */
export function runBash(
  script: string,
  environment: NodeJS.ProcessEnv,
  timeoutMs = 240_000,
): Promise<BashResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\nshopt -s inherit_errexit\n${script}`], {
      cwd: projectRoot,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group has ended already
      }
    };
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`the walkthrough did not end within ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', () => killGroup());
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      killGroup();
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/**
 * The expected outputs that the output lacks, in order: each must appear after the one before.
 * Empty when all are there.
 */
export function missingOutputs(output: string, expected: readonly string[]): string[] {
  const missing: string[] = [];
  let searchFrom = 0;
  for (const text of expected) {
    const found = output.indexOf(text, searchFrom);
    if (found < 0) missing.push(text);
    else searchFrom = found + text.length;
  }
  return missing;
}
