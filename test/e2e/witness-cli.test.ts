/**
 * `npm run witness` as an auditor runs it: it makes its key at first start and prints its
 * cosigner verifier key first, cosigns a real checkpoint over HTTP on loopback, keeps its key
 * across restarts, and exits 2 on bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCosignerKey } from '../../verifier/index';
import { DataFolderInUseError } from '../../witness/data-folder-lock';
import { startWitnessServer } from '../../witness/start-witness-server';
import { checkCosignature, noteText } from '../support/cosignature-check';
import { type TestLog, testLog } from '../support/witness-log';
import { killWitnesses, startWitnessProcess } from '../support/witness-process';

jest.setTimeout(120_000);

let log: TestLog;
beforeAll(async () => {
  log = await testLog('log.example/cli');
});
afterEach(killWitnesses);

/** The usage errors come before the data folder is touched; it is never made. */
const unusedDir = join(tmpdir(), 'witness-cli-never-made');

describe('npm run witness', () => {
  it('prints its verifier key first, then cosigns a checkpoint posted to it', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const witness = await startWitnessProcess(
      ['--port', '0', '--data', dataDir, '--log', log.verifierKey, '--name', 'auditor.example/witness'],
      { viaNpm: true },
    );
    const key = await parseCosignerKey(witness.verifierKey);
    const checkpoint = await log.checkpoint(6);
    // Act
    const response = await fetch(`${witness.url}/add-checkpoint`, {
      method: 'POST',
      body: `old 0\n\n${checkpoint}`,
    });
    // Assess
    expect(key.name).toBe('auditor.example/witness');
    expect(witness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(response.status).toBe(200);
    checkCosignature(witness.verifierKey, noteText(checkpoint), await response.text());
    expect(statSync(join(dataDir, 'witness-key.pem')).mode & 0o777).toBe(0o600);
    await witness.kill();
  });

  it('keeps its key and what it cosigned across a restart', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const args = ['--port', '0', '--data', dataDir, '--log', log.verifierKey];
    const first = await startWitnessProcess(args);
    const cosigned = await fetch(`${first.url}/add-checkpoint`, {
      method: 'POST',
      body: await log.body(0, 4),
    });
    expect(cosigned.status).toBe(200);
    await first.kill();
    // Act
    const second = await startWitnessProcess(args);
    const fromZero = await fetch(`${second.url}/add-checkpoint`, {
      method: 'POST',
      body: await log.body(0, 5),
    });
    // Assess
    expect(second.verifierKey).toBe(first.verifierKey);
    expect(fromZero.status).toBe(409);
    expect(fromZero.headers.get('content-type')).toBe('text/x.tlog.size');
    expect(await fromZero.text()).toBe('4\n');
  });

  it('refuses a second witness on the same data folder while the first runs, not after it was killed', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const args = ['--port', '0', '--data', dataDir, '--log', log.verifierKey];
    const first = await startWitnessProcess(args);
    // Act
    const second = spawnSync(process.execPath, ['--import', 'tsx', 'cli/witness.ts', ...args], {
      cwd: join(__dirname, '..', '..'),
      encoding: 'utf8',
    });
    await first.kill();
    const third = await startWitnessProcess(args);
    // Assess
    expect(second.status).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`another witness (pid ${first.child.pid}) uses ${dataDir}`);
    expect(third.verifierKey).toBe(first.verifierKey);
  });

  it('stops on SIGTERM with exit code 0 and releases its data folder', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const witness = await startWitnessProcess(['--port', '0', '--data', dataDir, '--log', log.verifierKey]);
    const exited = new Promise<number | null>((resolve) =>
      witness.child.once('exit', (code) => resolve(code)),
    );
    // Act
    witness.child.kill('SIGTERM');
    // Assess
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'witness.lock'))).toBe(false);
  });

  it('lets one in-process server hold a data folder until it is closed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const first = await startWitnessServer({ dataDir, logs: [log.verifierKey], name: 'test.example/w' });
    await expect(startWitnessServer({ dataDir, logs: [log.verifierKey] })).rejects.toThrow(
      DataFolderInUseError,
    );
    await first.close();
    const second = await startWitnessServer({ dataDir, logs: [log.verifierKey], name: 'test.example/w' });
    expect(second.verifierKey).toBe(first.verifierKey);
    await second.close();
  });

  it.each([
    ['no --log', ['--port', '0', '--data', unusedDir]],
    ['a --log that is no verifier key', ['--port', '0', '--data', unusedDir, '--log', 'log.example/x']],
    ['a port that is no number', ['--port', 'http', '--data', unusedDir, '--log', 'k']],
    ['an unknown option', ['--port', '0', '--data', unusedDir, '--log', 'k', '--verbose']],
  ])('exits 2 with the usage and prints nothing on stdout for %s', (_, args) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'cli/witness.ts', ...args], {
      cwd: join(__dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Usage: npm run witness -- --port <port> --data <dir> --log/);
    expect(existsSync(unusedDir)).toBe(false);
  });
});
