/**
 * The README's "Try it with your own data", run exactly as written (`markdown-walkthrough.ts`):
 * a CSV import to a finished job and its row errors, an export, a webhook received and verified
 * by `examples/webhook-receiver.ts`, and `examples/client.ts`, all in one bash session against
 * one fresh `npm start`. Every `# → text` comment must be in the output, in order.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/free-port';
import { childEnvironment, type LocalServer, projectRoot, startLocalServer } from '../support/local-server';
import { bashBlocksOf, expectedOutputsOf, missingOutputs, runBash } from '../support/markdown-walkthrough';

jest.setTimeout(300_000);

describe('"Try it with your own data" in the README, as written', () => {
  const blocks = bashBlocksOf(
    readFileSync(join(projectRoot, 'README.md'), 'utf8'),
    'Try it with your own data',
  );
  const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-try-it-'));
  const scratch = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-try-it-scratch-'));
  let server: LocalServer | undefined;

  afterAll(async () => {
    await server?.kill();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs every block in one shell against a fresh npm start, printing what the comments say', async () => {
    // Prepare
    expect(expectedOutputsOf(blocks).length).toBeGreaterThan(5);
    server = await startLocalServer({ dataDirectory });
    const environment = {
      ...childEnvironment({ port: server.port, dataDirectory }),
      // The receiver's port: a free one rather than the walkthrough's default.
      HOOK_PORT: String(await freePort()),
      // `mktemp -d` in the walkthrough makes its scratch folder here, removed afterwards.
      TMPDIR: scratch,
    };
    // Act
    const result = await runBash(blocks.join('\n'), environment, 120_000);
    // Assess
    expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: '' });
    const missing = missingOutputs(result.stdout, expectedOutputsOf(blocks));
    expect({ missing, output: missing.length > 0 ? result.stdout : '' }).toEqual({ missing: [], output: '' });
  });
});
