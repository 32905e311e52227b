/**
 * `npm start -- --witness`: a witness starts beside the log, the policy it writes names the
 * log and that witness, and the checkpoint the API serves carries the witness's cosignature
 * (checked against the cosigner key `npm start` printed) once the sequencer has published.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWitnessPolicy, verifyWitnessedCheckpoint } from '../../verifier/index';
import { type LocalServer, processesMentioning, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(300_000);

const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-local-witness-'));
let server: LocalServer | undefined;

afterAll(async () => {
  await server?.kill();
  for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
  rmSync(dataDirectory, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The local sequencer function's log (`<data>/logs/<function>.log`), its last lines. */
function sequencerLog(): string {
  const logs = join(dataDirectory, 'logs');
  const names = readdirSync(logs);
  return `logs: ${names.join(', ')}\nnpm start: ${server?.output().slice(-3000)}\n${names
    .filter((name) => name.includes('Sequence'))
    .map((name) => `${name}:\n${readFileSync(join(logs, name), 'utf8').split('\n').slice(-40).join('\n')}`)
    .join('\n')}`;
}

it('serves checkpoints cosigned by the witness it started', async () => {
  // Prepare
  server = await startLocalServer({ dataDirectory, arguments: ['--witness'] });
  for (let attempt = 0; attempt < 50 && !server.output().includes('Witness policy: '); attempt++)
    await sleep(100);
  const printedKey = /cosigner key (\S+)/.exec(server.output())?.[1];
  const policyFile = /Witness policy: (\S+)/.exec(server.output())?.[1] as string;
  const policyText = readFileSync(policyFile, 'utf8');
  const policy = await parseWitnessPolicy(policyText);
  const created = await runAdmin(['create-company', '--name', 'Witnessed'], {
    port: server.port,
    dataDirectory,
  });
  const apiKey = JSON.parse(created.stdout).apiKey as string;

  const post = (path: string, body: unknown) =>
    fetch(`${server!.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  // Act: a subcategory's creation (a ledger event), then the checkpoint once published.
  const category = await post('/v2/categories', { name: 'Vehicles' });
  const { id: categoryId } = (await category.json()) as { id: string };
  const subcategory = await post(`/v2/categories/${categoryId}/subcategories`, { name: 'Trucks' });
  let checkpoint = { status: 0, text: '' };
  // Two minutes: under a full test run the sequencer's worker and the witness's fsync share the
  // machine with every other tier.
  for (let attempt = 0; attempt < 240 && checkpoint.status !== 200; attempt++) {
    await sleep(500);
    const response = await fetch(`${server.baseUrl}/v2/ledger/checkpoint`, {
      headers: { 'X-API-Key': apiKey },
    });
    checkpoint = { status: response.status, text: await response.text() };
  }

  // Assess (the sequencer's log says why, should nothing be published)
  if (checkpoint.status !== 200) console.log(sequencerLog());
  expect(category.status).toBe(201);
  expect(subcategory.status).toBe(200);
  expect(policy.witnesses.map((witness) => witness.vkey)).toEqual([printedKey]);
  expect(policy.logs).toHaveLength(1);
  expect(checkpoint.status).toBe(200);
  expect(await verifyWitnessedCheckpoint(checkpoint.text, policy)).toMatchObject({
    ok: true,
    cosigned: ['local'],
  });
});
