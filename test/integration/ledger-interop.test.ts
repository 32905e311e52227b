/**
 * Interoperability: Go's reference implementation of the formats (golang.org/x/mod/sumdb/tlog
 * and sumdb/note, Debian's golang-golang-x-mod-dev) checks our checkpoints, signatures, tiles,
 * inclusion and consistency proofs and tlog-proofs (test/interop/tlog-check/main.go), and opens
 * the cosigned checkpoints a witnessed log serves with only the log's key. Skipped
 * only where Go is missing outside CI; in CI (`CI` set) a missing Go fails the test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { parseTilePath } from '../../lambdas/domain/ledger/log-tiles';
import { runSequencerCycle } from '../../lambdas/domain/ledger/sequencer';
import { checkWitnessPolicy } from '../../lambdas/domain/ledger/witness-config';
import { handler as updateObject } from '../../lambdas/handlers/objects/update-object';
import { readTile } from '../../lambdas/repositories/log-tile-store';
import { formatVerifierKey, verifyWitnessedCheckpoint } from '../../verifier/index';
import { startWitnessServer } from '../../witness/start-witness-server';
import { invoke } from '../support/api-events';
import { givenObject, givenSubcategoryPath } from '../support/fixtures';
import { type IsolatedLedger, useIsolatedLedger } from '../support/isolated-ledger';
import { requestConsistency, requestKey, requestProof, requestTlogProof } from '../support/ledger-requests';
import { companyPrincipal } from '../support/principals';
import { localS3 } from '../support/s3-client';

const GO_ENVIRONMENT = { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' };
const goAvailable = spawnSync('go', ['version'], { env: GO_ENVIRONMENT }).status === 0;
const describeWithGo = goAvailable || process.env.CI ? describe : describe.skip;

// Generous: on a loaded run DynamoDB Local has made this take over 3 minutes; it checks agreement, not speed.
jest.setTimeout(600_000);

let ledger: IsolatedLedger;
beforeAll(async () => {
  ledger = await useIsolatedLedger('asset-registry.test/interop');
});
afterAll(() => ledger.restore());

async function givenObjects(count: number, updatesEach: number) {
  const principal = companyPrincipal();
  const place = await givenSubcategoryPath(principal);
  const objects = [];
  for (let start = 0; start < count; start += 10) {
    objects.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, async () => {
          const object = await givenObject(principal, place, { owner: 'Alice' });
          for (let u = 0; u < updatesEach; u++) {
            await invoke(updateObject, {
              method: 'PUT',
              path: `/v2/objects/${object.id}`,
              principal,
              pathParameters: { objectId: object.id },
              body: { action: 'transfer', owner: `Owner ${u}` },
            });
          }
          return object;
        }),
      )),
    );
  }
  return { principal, objects };
}

/** Every tile and entry bundle of the bucket, copied to a folder at its C2SP path. */
async function copyTiles(folder: string) {
  let ContinuationToken: string | undefined;
  do {
    const page = await localS3().send(
      new ListObjectsV2Command({
        Bucket: process.env.DIGEST_BUCKET_NAME,
        Prefix: 'log/tile/',
        ContinuationToken,
      }),
    );
    for (const { Key } of page.Contents ?? []) {
      const path = Key!.slice('log/'.length);
      const data = await readTile(parseTilePath(path)!);
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), data!);
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/** Cycles until the outbox is drained (a cycle takes at most a share of each company's events). */
async function integrateAll() {
  while (!(await runSequencerCycle({ signer: ledger.signer, leaseMs: 100 })).caughtUp);
}

describeWithGo('Go sumdb/tlog and sumdb/note', () => {
  it('agree with our checkpoints, tiles and proofs across full and partial tiles', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tlog-check-'));
    execFileSync(
      'go',
      ['build', '-o', join(folder, 'tlog-check'), join(__dirname, '../interop/tlog-check/main.go')],
      {
        env: { ...GO_ENVIRONMENT, GOCACHE: join(folder, 'gocache') },
      },
    );
    const first = await givenObjects(20, 2);
    await integrateAll();
    const second = await givenObjects(60, 4);
    await integrateAll();
    const { principal } = first;
    const earlierProofs = await Promise.all(
      first.objects.map((object) => requestProof(principal, object.id, 2)),
    );
    const laterProofs = await Promise.all(
      [
        ...first.objects.slice(0, 5).map((object) => ({ object, principal, sequence: 1 })),
        ...second.objects.map((object) => ({ object, principal: second.principal, sequence: 5 })),
      ].map(({ object, principal: owner, sequence }) => requestProof(owner, object.id, sequence)),
    );
    const older = earlierProofs[0]!.body;
    const newer = laterProofs[0]!.body;
    expect(newer.treeSize).toBeGreaterThan(256);
    const pinnedOld = await requestProof(second.principal, second.objects[0]!.id, 1, {
      treeSize: String(newer.treeSize),
    });
    await copyTiles(join(folder, 'tiles'));
    const input = {
      verifierKey: (await requestKey(principal)).text().trim(),
      checkpoints: { older: older.checkpoint, newer: newer.checkpoint },
      tileDir: join(folder, 'tiles'),
      inclusions: [...earlierProofs, ...laterProofs, pinnedOld].map(({ body }) => ({
        index: body.logIndex,
        treeSize: body.treeSize,
        proof: body.inclusionProof,
        leafHash: body.leafHash,
      })),
      consistency: [
        {
          from: older.treeSize,
          to: newer.treeSize,
          proof: (await requestConsistency(principal, older.treeSize, newer.treeSize)).body.proof,
        },
      ],
      tlogProofs: await Promise.all(
        second.objects
          .slice(0, 10)
          .map(async (object) => (await requestTlogProof(second.principal, object.id, 3)).text()),
      ),
    };
    writeFileSync(join(folder, 'input.json'), JSON.stringify(input));
    const check = spawnSync(join(folder, 'tlog-check'), [join(folder, 'input.json')], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.stdout).toBe('ok\n');
    expect(check.status).toBe(0);
  });

  it('refuses a forged checkpoint (a root from another tree) and a proof against it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tlog-check-'));
    execFileSync(
      'go',
      ['build', '-o', join(folder, 'tlog-check'), join(__dirname, '../interop/tlog-check/main.go')],
      {
        env: { ...GO_ENVIRONMENT, GOCACHE: join(folder, 'gocache') },
      },
    );
    const { principal, objects } = await givenObjects(3, 1);
    await integrateAll();
    const proof = (await requestProof(principal, objects[0]!.id, 2)).body;
    const forgedRoot = Buffer.alloc(32, 7).toString('base64');
    const forged = proof.checkpoint.replace(/\n[A-Za-z0-9+/]{43}=\n/, `\n${forgedRoot}\n`);
    writeFileSync(
      join(folder, 'input.json'),
      JSON.stringify({
        verifierKey: (await requestKey(principal)).text().trim(),
        checkpoints: { forged },
        tileDir: join(folder, 'none'),
        inclusions: [],
        consistency: [],
        tlogProofs: [],
      }),
    );
    const check = spawnSync(join(folder, 'tlog-check'), [join(folder, 'input.json')], { encoding: 'utf8' });
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/note.Open/);
  });
  it('opens the cosigned checkpoints of a witnessed log with only the log key', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tlog-check-'));
    execFileSync(
      'go',
      ['build', '-o', join(folder, 'tlog-check'), join(__dirname, '../interop/tlog-check/main.go')],
      {
        env: { ...GO_ENVIRONMENT, GOCACHE: join(folder, 'gocache') },
      },
    );
    const logKey = await formatVerifierKey(ledger.signer.keyName, await ledger.signer.publicKey());
    const witnesses = await Promise.all(
      ['w1.test/witness', 'w2.test/witness'].map((name) =>
        startWitnessServer({ dataDir: mkdtempSync(join(tmpdir(), 'witness-')), logs: [logKey], name }),
      ),
    );
    try {
      const policy = await checkWitnessPolicy(
        [
          ...witnesses.map((witness, i) => `witness W${i + 1} ${witness.verifierKey} ${witness.url}`),
          'group both all W1 W2',
          'quorum both',
        ].join('\n'),
        logKey,
      );
      const witnessing = { policy, timeoutMs: 2000 };
      const witnessedCycles = async () => {
        while (!(await runSequencerCycle({ signer: ledger.signer, leaseMs: 100, witnessing })).caughtUp);
      };
      const first = await givenObjects(3, 1);
      await witnessedCycles();
      const older = (await requestProof(first.principal, first.objects[0]!.id, 2)).body;
      const second = await givenObjects(3, 2);
      await witnessedCycles();
      const newer = (await requestProof(second.principal, second.objects[0]!.id, 3)).body;
      for (const checkpoint of [older.checkpoint, newer.checkpoint]) {
        expect(checkpoint.split('\n').filter((line: string) => line.startsWith('\u2014 '))).toHaveLength(3);
        expect(await verifyWitnessedCheckpoint(checkpoint, policy, logKey)).toMatchObject({ ok: true });
      }
      await copyTiles(join(folder, 'tiles'));
      writeFileSync(
        join(folder, 'input.json'),
        JSON.stringify({
          verifierKey: (await requestKey(first.principal)).text().trim(),
          checkpoints: { older: older.checkpoint, newer: newer.checkpoint },
          tileDir: join(folder, 'tiles'),
          inclusions: [older, newer].map((body) => ({
            index: body.logIndex,
            treeSize: body.treeSize,
            proof: body.inclusionProof,
            leafHash: body.leafHash,
          })),
          consistency: [
            {
              from: older.treeSize,
              to: newer.treeSize,
              proof: (await requestConsistency(first.principal, older.treeSize, newer.treeSize)).body.proof,
            },
          ],
          tlogProofs: [(await requestTlogProof(second.principal, second.objects[0]!.id, 3)).text()],
        }),
      );
      const check = spawnSync(join(folder, 'tlog-check'), [join(folder, 'input.json')], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.stdout).toBe('ok\n');
      expect(check.status).toBe(0);
    } finally {
      await Promise.all(witnesses.map((witness) => witness.close()));
    }
  });
});
