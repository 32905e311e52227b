/**
 * Running the project as its users do, for the end-to-end tests: `npm start` as a child process
 * (in a process group of its own, so that everything it starts can be stopped together) and
 * `npm run --silent admin -- ...` against it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../local/free-port';

export const projectRoot = join(__dirname, '..', '..');

/** The line `npm start` prints once the API responds. */
const LISTENING_LINE = 'Asset Registry API listening on';

/**
 * The environment of the child processes: this one's, without anything that would point the
 * admin CLI or the handlers at another stack (a set TABLE_NAME switches the CLI to AWS mode).
 */
export function childEnvironment(settings: { port: number; dataDirectory: string }): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'TABLE_NAME',
    'FILES_BUCKET_NAME',
    'DIGEST_BUCKET_NAME',
    'LOCAL_DYNAMODB_ENDPOINT',
    'AWS_ENDPOINT_URL_S3',
    'REST_API_ID',
    'API_STAGE',
    // The integration tier's signing key (its global setup runs in this process too).
    'LEDGER_SIGNING_KEY_FILE',
  ]) {
    delete environment[name];
  }
  return {
    ...environment,
    PORT: String(settings.port),
    DATA_DIR: settings.dataDirectory,
  };
}

export interface LocalServer {
  port: number;
  baseUrl: string;
  dataDirectory: string;
  /** The `npm` process (leader of the process group). */
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the `npm` process has ended. */
  exited: Promise<number | string>;
  /** Sends a signal to the whole process group, as Ctrl-C in a terminal does. */
  signalGroup(signal: NodeJS.Signals): void;
  /** Last resort for afterAll: SIGKILL to the whole group (npm, tsx, node, java). */
  kill(): Promise<void>;
}

export interface StartOptions {
  dataDirectory: string;
  port?: number;
  /** How long to wait for the listening line (the first run may download DynamoDB Local). */
  timeoutMs?: number;
  /** Context values, passed as `npm start -- -c key=value`. */
  context?: Record<string, string>;
  /** Variables added to `npm start`'s environment. */
  environment?: Record<string, string>;
  /** Other arguments of `npm start` (`--witness`). */
  arguments?: string[];
}

/** Starts `npm start`; resolves once it prints the listening line, rejects if it ends first. */
export async function startLocalServer(options: StartOptions): Promise<LocalServer> {
  const port = options.port ?? (await freePort());
  const startArguments = [
    ...Object.entries(options.context ?? {}).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    ...(options.arguments ?? []),
  ];
  const child = spawn('npm', ['start', ...(startArguments.length > 0 ? ['--', ...startArguments] : [])], {
    cwd: projectRoot,
    env: { ...childEnvironment({ port, dataDirectory: options.dataDirectory }), ...options.environment },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  const server: LocalServer = {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    dataDirectory: options.dataDirectory,
    child,
    output: () => output,
    exited,
    signalGroup,
    async kill() {
      signalGroup('SIGKILL');
      await settledWithin(exited, 5000);
    },
  };

  const timeoutMs = options.timeoutMs ?? 180_000;
  const deadline = Date.now() + timeoutMs;
  let ended: number | string | undefined;
  void exited.then((result) => {
    ended = result;
  });
  while (!output.includes(LISTENING_LINE)) {
    if (ended !== undefined) {
      throw new Error(`npm start ended (${ended}) before listening:\n${output}`);
    }
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`npm start did not listen within ${timeoutMs} ms:\n${output}`);
    }
    await delay(100);
  }
  return server;
}

export interface AdminResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run --silent admin -- <args>` exactly as docs/operating.md tells users to. */
export function runAdmin(
  args: readonly string[],
  settings: { port: number; dataDirectory: string },
  /** A long import or export may take longer than the default minute. */
  options: { timeoutMs?: number } = {},
): Promise<AdminResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
      cwd: projectRoot,
      env: childEnvironment(settings),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`admin ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/** The local stack's state file that `npm start` writes into the data folder, if any. */
export function readStackStateFile(
  dataDirectory: string,
): { pid: number; gatewayUrl: string; environment: Record<string, string> } | undefined {
  const file = join(dataDirectory, 'local-stack.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Whether something accepts TCP connections on the port (of loopback by default) right now. */
export function portAcceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether a process with this id still runs. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `condition` holds, checking every 100 ms; false when `timeoutMs` ran out. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await delay(100);
  }
  return condition();
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The promise's value, or 'timeout' after `ms`; the timer is cleared so that jest can exit. */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, ms, 'timeout');
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Ids of running processes whose command line contains `text` (a DynamoDB Local a test started). */
export function processesMentioning(text: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, state, ...args]) => state !== undefined && !state.startsWith('Z') && args.join(' ').includes(text),
    )
    .map(([pid]) => Number(pid));
}
