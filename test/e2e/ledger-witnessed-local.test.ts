/**
 * `npm start` with `LEDGER_WITNESS_POLICY_FILE`: the local sequencer (a function worker with its
 * template's environment) follows the policy. A witness that does not follow this log yet (404
 * to every add-checkpoint) holds publication; restarted to follow it, on the same port with the
 * same key, it is asked again by the run that waits (no new write needed) and the served
 * checkpoint carries its cosignature.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/free-port';
import { formatVerifierKey, parseWitnessPolicy, verifyWitnessedCheckpoint } from '../../verifier/index';
import { startWitnessServer, type WitnessServer } from '../../witness/start-witness-server';
import { type LocalServer, processesMentioning, runAdmin, startLocalServer } from '../support/local-server';

jest.setTimeout(300_000);

const dataDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-witnessed-'));
const witnessDirectory = mkdtempSync(join(tmpdir(), 'asset-registry-e2e-witness-'));
let server: LocalServer | undefined;
let witness: WitnessServer | undefined;

afterAll(async () => {
  await witness?.close();
  await server?.kill();
  for (const pid of processesMentioning(join(dataDirectory, 'dynamodb'))) process.kill(pid, 'SIGKILL');
  rmSync(dataDirectory, { recursive: true, force: true });
  rmSync(witnessDirectory, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('publishes only checkpoints the policy witness cosigned', async () => {
  // Prepare: the witness's key and port first; it follows another log for now.
  const witnessPort = await freePort();
  const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
  const strangerKey = await formatVerifierKey('stranger.example/log', Buffer.from(stranger, 'base64url'));
  const startWitness = (logKey: string) =>
    startWitnessServer({
      dataDir: witnessDirectory,
      logs: [logKey],
      port: witnessPort,
      name: 'local.test/witness',
    });
  witness = await startWitness(strangerKey);
  const policyText = `witness local ${witness.verifierKey} ${witness.url}\nquorum local\n`;
  const policyFile = join(witnessDirectory, 'policy.txt');
  writeFileSync(policyFile, policyText);
  server = await startLocalServer({ dataDirectory, environment: { LEDGER_WITNESS_POLICY_FILE: policyFile } });
  const settings = { port: server.port, dataDirectory };
  const created = await runAdmin(['create-company', '--name', 'Witnessed'], settings);
  expect(created.exitCode).toBe(0);
  const apiKey = JSON.parse(created.stdout).apiKey as string;
  const call = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(`${server!.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'X-API-Key': apiKey, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
      body: init.json ? JSON.stringify(init.json) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };

  // Act: events while the witness refuses this log (404).
  const categoryResponse = await call('/v2/categories', { method: 'POST', json: { name: 'Vehicles' } });
  expect(categoryResponse).toMatchObject({ status: 201 });
  const categoryId = JSON.parse(categoryResponse.text).id as string;
  const subcategory = await call(`/v2/categories/${categoryId}/subcategories`, {
    method: 'POST',
    json: { name: 'Trucks' },
  });
  expect(subcategory.status).toBe(200);
  // The key is served once the sequencer signed a checkpoint.
  let key = await call('/v2/ledger/key');
  for (let attempt = 0; attempt < 60 && key.status !== 200; attempt++) {
    await sleep(500);
    key = await call('/v2/ledger/key');
  }
  expect(key.status).toBe(200);
  const logKey = key.text.trim();
  await sleep(2000);
  // Assess: signed, not published.
  expect((await call('/v2/ledger/checkpoint')).status).toBe(404);

  // Act: the witness follows this log now; the waiting run asks again within seconds.
  await witness.close();
  witness = await startWitness(logKey);
  let checkpoint: { status: number; text: string } = { status: 0, text: '' };
  for (let attempt = 0; attempt < 60 && checkpoint.status !== 200; attempt++) {
    await sleep(500);
    checkpoint = await call('/v2/ledger/checkpoint');
  }
  // Assess
  expect(checkpoint.status).toBe(200);
  expect(
    await verifyWitnessedCheckpoint(checkpoint.text, await parseWitnessPolicy(policyText), logKey),
  ).toMatchObject({
    ok: true,
    cosigned: ['local'],
  });
});
