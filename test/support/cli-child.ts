/**
 * One of the repository's CLIs (`cli/<script>`) in a child process, as `npm run <script>` runs it
 * (`node --import tsx`), with this process's environment: in the integration tier, its table and
 * buckets. Resolves with the exit code and everything it printed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export function runRepositoryCli(script: string, args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', script), ...args], {
      cwd: ROOT,
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}
