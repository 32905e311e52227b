/**
 * `npm run bench:start [-- <project folder>]`: how long `npm start` takes to its first response,
 * and how much memory the whole local stack holds once every API function has responded once
 * (each function then has a warm execution environment). The project folder defaults to this
 * one; give another checkout (a `git worktree` of an older commit) to measure it the same way.
 * Rounds alternate "warm caches" (a start after one with the same sources) and, in this project,
 * "cold caches" (bundles and synthesized stack rebuilt). Prints a Markdown table.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../local/free-port';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS || 3);
const projectFolder = resolve(process.argv[2] ?? join(__dirname, '..'));
const caches = ['functions', 'local-stack'].map((name) => join(projectFolder, '.cache', name));

const sleep = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

/** Resident memory of every process in the group, in MiB, by command name. */
function groupMemory(groupId: number): Record<string, number> {
  const lines = execFileSync('ps', ['-o', 'rss=,comm=', '-g', String(groupId)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  const byCommand: Record<string, number> = {};
  for (const line of lines) {
    const [rss, command] = line.trim().split(/\s+/, 2) as [string, string];
    byCommand[command] = (byCommand[command] ?? 0) + Math.round(Number(rss) / 1024);
  }
  return byCommand;
}

async function oneStart(coldCaches: boolean) {
  if (coldCaches) {
    for (const cache of caches) if (existsSync(cache)) renameSync(cache, `${cache}.bench-aside`);
  }
  const port = await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: projectFolder,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDirectory },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    let firstResponseMs = 0;
    for (;;) {
      const responded = await fetch(`${base}/v2/openapi.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (responded) {
        firstResponseMs = Date.now() - started;
        break;
      }
      if (Date.now() - started > 300_000) throw new Error('npm start did not respond within 5 minutes');
      await sleep(50);
    }
    // Every operation once, with a key (responds 4xx for the made-up ids: each function still runs).
    const admin = execFileSync(
      'npm',
      ['run', '--silent', 'admin', '--', 'create-company', '--name', 'Bench'],
      {
        cwd: projectFolder,
        env: { ...process.env, DATA_DIR: dataDirectory },
        encoding: 'utf8',
      },
    );
    const { apiKey } = JSON.parse(admin) as { apiKey: string };
    const { operationList } = await import('../lambdas/operations.js');
    const id = '00000000-0000-4000-8000-000000000000';
    const warmStarted = Date.now();
    for (const operation of operationList) {
      const path = operation.path.replace(/\{[^}]+\}/g, id);
      await fetch(`${base}${path}`, {
        method: operation.method,
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : '{}',
      }).then((response) => response.arrayBuffer());
    }
    const everyOperationMs = Date.now() - warmStarted;
    return { firstResponseMs, everyOperationMs, memory: groupMemory(child.pid as number) };
  } finally {
    try {
      process.kill(-(child.pid as number), 'SIGINT');
    } catch {
      // already gone
    }
    await sleep(3000);
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // stopped by SIGINT
    }
    rmSync(dataDirectory, { recursive: true, force: true });
    if (coldCaches) {
      for (const cache of caches) {
        if (existsSync(`${cache}.bench-aside`)) {
          rmSync(cache, { recursive: true, force: true });
          renameSync(`${cache}.bench-aside`, cache);
        }
      }
    }
  }
}

async function main() {
  const cachesExist = existsSync(join(projectFolder, 'local', 'functions'));
  // A first start fills the caches (and DynamoDB Local's download), unreported.
  await oneStart(false);
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const cold of cachesExist ? [false, true] : [false]) {
      const result = await oneStart(cold);
      const total = Object.values(result.memory).reduce((sum, each) => sum + each, 0);
      rows.push(
        `| ${round} | ${cold ? 'cold' : 'warm'} | ${result.firstResponseMs} | ${result.everyOperationMs} | ` +
          `${total} | ${Object.entries(result.memory)
            .map(([command, mib]) => `${command} ${mib}`)
            .join(', ')} |`,
      );
      console.error(rows.at(-1));
    }
  }
  console.log(`Project: ${projectFolder}`);
  console.log(
    '| round | caches | first response (ms) | every operation once (ms) | memory, all processes (MiB) | by process (MiB) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
