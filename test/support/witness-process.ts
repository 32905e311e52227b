/**
 * The witness CLI (`cli/witness.ts`) in a child process, for the e2e tests: started on a free
 * port, its first two lines read (its verifier key and its URL), killed for real.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface WitnessProcess {
  child: ChildProcess;
  /** The first line of output. */
  verifierKey: string;
  url: string;
  /** Resolves once the witness printed `reached <step>` (with `stopAfter`). */
  reached: Promise<void>;
  /** SIGKILLs the process and waits for it to be gone. */
  kill(): Promise<void>;
  stderr(): string;
}

/** The witnesses started and not yet killed, each with what kills it (and its children). */
const running = new Map<ChildProcess, () => void>();

/** Kills every witness this module started and that is still running (an afterEach). */
export function killWitnesses(): void {
  for (const kill of running.values()) kill();
  running.clear();
}

/**
 * Starts `cli/witness.ts` with these arguments. `viaNpm` runs it as a user does
 * (`npm run --silent witness`); otherwise Node with tsx's loader runs it, so that SIGKILL reaches
 * the witness's own process and not a wrapper. `stopAfter` sets the CLI's test hook.
 */
export async function startWitnessProcess(
  args: string[],
  options: { stopAfter?: 'verified' | 'stored'; viaNpm?: boolean } = {},
): Promise<WitnessProcess> {
  const env = { ...process.env, WITNESS_STOP_AFTER_STEP: options.stopAfter ?? '' };
  const child = options.viaNpm
    ? spawn('npm', ['run', '--silent', 'witness', '--', ...args], { cwd: ROOT, env, detached: true })
    : spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'witness.ts'), ...args], {
        cwd: ROOT,
        env,
      });
  // A process group for npm: its shell and tsx must go with it.
  const sigkill = () => {
    try {
      if (options.viaNpm && child.pid) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
  running.set(child, sigkill);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let onReached: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    onReached = resolve;
  });
  const [verifierKey, url] = await new Promise<string[]>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      if (lines.length >= 3) resolve(lines.slice(0, 2));
      if (options.stopAfter && stdout.includes(`reached ${options.stopAfter}\n`)) onReached();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the witness exited (${code ?? signal}) before it listened: ${stdout}${stderr}`)),
    );
  });
  return {
    child,
    verifierKey: verifierKey as string,
    url: url as string,
    reached,
    stderr: () => stderr,
    async kill() {
      sigkill();
      await exited;
      running.delete(child);
    },
  };
}
