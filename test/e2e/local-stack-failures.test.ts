/**
 * `npm start` when it cannot start: it must fail with a message and leave nothing running.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, type LocalServer, startLocalServer } from '../support/local-server';

jest.setTimeout(120_000);

/** Ids of running processes whose command line contains `text`. */
function processesMentioning(text: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, state, ...args]) => state !== undefined && !state.startsWith('Z') && args.join(' ').includes(text),
    )
    .map(([pid]) => Number(pid));
}

describe('npm start that fails to start', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-broken-'));
  const started: LocalServer[] = [];

  afterAll(async () => {
    for (const server of started) await server.kill();
    // DynamoDB Local was started by this test's npm start: end it by id if it outlived it.
    for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('exits 1 and leaves no DynamoDB Local behind when the S3 server cannot start', async () => {
    // Prepare: the S3 folder's place is taken by a file, so s3rver cannot start
    writeFileSync(join(dataDirectory, 's3'), 'not a folder');
    // Act
    let failure: unknown;
    try {
      started.push(await startLocalServer({ dataDirectory, timeoutMs: 90_000 }));
    } catch (error) {
      failure = error;
    }
    // Assess
    expect(String(failure)).toContain('npm start ended (1) before listening');
    expect(String(failure)).toContain('npm start failed:');
    const javaGone = await eventually(
      () => processesMentioning(join(dataDirectory, 'dynamodb')).length === 0,
      5000,
    );
    expect(javaGone).toBe(true);
  });
});
