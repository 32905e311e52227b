/**
 * The admin CLI's exit codes as other tools see them, through `npm run --silent admin`: usage
 * errors exit 2 with one line on stderr and nothing on stdout, before any stack is needed, so
 * no `npm start` runs here (the rules themselves are in test/unit/admin-arguments.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/local-server';

jest.setTimeout(60_000);

/** What the CLI wrote on stderr, without warnings npm itself may print about its own config. */
const cliLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line !== '' && !/^npm (warn|notice|error)/i.test(line));

describe('admin CLI exit codes without a running stack', () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-admin-usage-'));
  const settings = { port: 1, dataDirectory };

  afterAll(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it.each([
    ['--name without its value', ['create-app', '--name']],
    ['an unknown option', ['create-company', '--name', 'X', '--extra', '1']],
    ['a positional argument', ['create-app', '--name', 'X', 'Y']],
    ['--key-id without its value', ['revoke-key', '--key-id']],
    ['create-key without --permissions', ['create-key', '--app', '11111111-1111-4111-8111-111111111111']],
    ['import without a file', ['import', '--company', '11111111-1111-4111-8111-111111111111']],
    ['import with an unknown mode', ['import', 'a.csv', '--company', 'x', '--mode', 'replace']],
    ['export with an unknown sort', ['export', '--company', 'x', '--sort', 'owner:asc']],
  ])('exits 2 with one line on stderr and nothing on stdout for %s', async (_label, args) => {
    // Act
    const result = await runAdmin(args, settings);
    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(cliLines(result.stderr)).toEqual([
      expect.stringMatching(/^admin: .*Usage: npm run --silent admin -- --help$/),
    ]);
  });

  it('prints the usage text on stdout, no JSON line, and exits 0 for create-app --help', async () => {
    // Act
    const result = await runAdmin(['create-app', '--help'], settings);
    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run --silent admin -- <command> \[options\]\n/);
    expect(result.stdout).not.toMatch(/^\{/m);
    expect(cliLines(result.stderr)).toEqual([]);
  });

  it('exits 1 for a valid command when no stack runs on the data folder', async () => {
    // Act
    const result = await runAdmin(['create-key', '--app', 'x', '--permissions', ''], settings);
    // Assess
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(cliLines(result.stderr)).toEqual([
      expect.stringContaining('No running local stack for the data folder'),
    ]);
  });
});
