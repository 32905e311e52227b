/**
 * DynamoDB Local 1.25.1, taken from the npm package `amplify-dynamodb-simulator` (its folder
 * `emulator/`) with `npm pack` rather than `npm install`, which would pull 283 packages. The jar
 * is cached under `.cache/` in the project and started as a Java child process, on 127.0.0.1
 * only (`LoopbackDynamoDbLocal.java`: the jar itself has no host option and listens on every
 * interface).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './project-paths.js';

const SIMULATOR_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const installDirectory = join(projectRoot, '.cache', 'dynamodb-local-1.25.1');
/** Starts the jar's server with its connectors on loopback (run as a source file by `java`). */
const LOOPBACK_LAUNCHER = join(projectRoot, 'local', 'LoopbackDynamoDbLocal.java');

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer, and no `java` command was found.\n' +
        'Install it, for example on Debian or Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        'then run the command again.',
    );
  }
}

/** Throws {@link JavaMissingError} when no Java runtime is on the PATH. */
function assertJavaInstalled(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

/**
 * Whether this Java runs a source file (`java File.java` needs the `jdk.compiler` module, which
 * some runtime-only distributions leave out).
 */
function javaRunsSourceFiles(): boolean {
  const modules = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  return modules.status === 0 && /^jdk\.compiler@/m.test(modules.stdout);
}

/**
 * The Java arguments that start DynamoDB Local on loopback; the plain jar (every interface, with
 * a warning) when this Java cannot run the launcher.
 */
function launchArguments(): string[] {
  if (javaRunsSourceFiles()) return ['-cp', 'DynamoDBLocal.jar', LOOPBACK_LAUNCHER];
  console.warn(
    'DynamoDB Local listens on every interface: this Java has no jdk.compiler module to run ' +
      `${LOOPBACK_LAUNCHER}, which binds it to 127.0.0.1 (install a full JDK, e.g. openjdk-17-jdk-headless).`,
  );
  return ['-jar', 'DynamoDBLocal.jar'];
}

/** Makes sure the DynamoDB Local jar is in the project's cache; returns its folder. */
function ensureDynamoDbLocal(): string {
  if (existsSync(join(installDirectory, 'DynamoDBLocal.jar'))) return installDirectory;
  const workDirectory = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  try {
    const tarball = execFileSync(
      'npm',
      ['pack', SIMULATOR_PACKAGE, '--silent', '--pack-destination', workDirectory],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
      .trim()
      .split('\n')
      .pop();
    if (!tarball) throw new Error(`npm pack ${SIMULATOR_PACKAGE} printed no file name`);
    execFileSync('tar', ['-xzf', join(workDirectory, tarball), '-C', workDirectory, 'package/emulator']);
    mkdirSync(join(projectRoot, '.cache'), { recursive: true });
    // A rename is atomic: a concurrent first run sees either no folder or a whole one.
    rmSync(installDirectory, { recursive: true, force: true });
    renameSync(join(workDirectory, 'package', 'emulator'), installDirectory);
    return installDirectory;
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

export interface DynamoDbLocalOptions {
  port: number;
  /** Folder for the database file; in memory when undefined. */
  dataDirectory?: string;
}

/** Starts DynamoDB Local; resolves once it responds on its port. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<ChildProcess> {
  assertJavaInstalled();
  const directory = ensureDynamoDbLocal();
  const storage = options.dataDirectory ? ['-dbPath', options.dataDirectory] : ['-inMemory'];
  if (options.dataDirectory) mkdirSync(options.dataDirectory, { recursive: true });
  const child = spawn(
    'java',
    [
      '-Djava.library.path=./DynamoDBLocal_lib',
      ...launchArguments(),
      '-port',
      String(options.port),
      '-sharedDb',
      ...storage,
      '-disableTelemetry',
    ],
    {
      cwd: directory,
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errorOutput = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errorOutput = (errorOutput + chunk.toString()).slice(-4000);
  });
  await waitForPort(options.port, child, () => errorOutput);
  return child;
}

async function waitForPort(port: number, child: ChildProcess, errorOutput: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${errorOutput()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  child.kill();
  throw new Error(`DynamoDB Local did not start on port ${port} within 30 s: ${errorOutput()}`);
}
