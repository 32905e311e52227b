/**
 * The log's side of C2SP tlog-witness (`lambdas/domain/ledger/witness-client.ts`), offline:
 * the add-checkpoint body, the 409 size and cosignature parsing, and every answer a witness can
 * give, through `fetch` functions that answer as a witness would (no network).
 */
import { generateKeyPairSync } from 'node:crypto';
import { signCheckpoint } from '../../lambdas/domain/ledger/log-signer';
import {
  collectCosignatures,
  cosignedNote,
  formatAddCheckpointBody,
  parseConflictSize,
  parseCosignatureLines,
  requestCosignature,
} from '../../lambdas/domain/ledger/witness-client';
import { metrics } from '../../lambdas/shared/observability';
import {
  formatCosignerKey,
  type PolicyWitness,
  parseWitnessPolicy,
  verifyCosignature,
} from '../../verifier/index';
import { inMemorySigner } from '../support/ledger-signing';
import { testWitness } from '../support/test-witness';

const root = (byte: number) => new Uint8Array(32).fill(byte);

async function givenLog() {
  const signer = inMemorySigner();
  const { checkpoint, verifierKey } = await signCheckpoint(signer, 5, root(1));
  return { signer, checkpoint, verifierKey };
}

async function policyWitness(
  name: string,
  vkey: string,
  url: string,
): Promise<PolicyWitness & { url: string }> {
  const policy = await parseWitnessPolicy(`witness ${name} ${vkey} ${url}\nquorum ${name}\n`);
  return policy.witnesses[0] as PolicyWitness & { url: string };
}

const answering = (
  ...responses: (() => Response | Promise<Response>)[]
): typeof fetch & { bodies: string[] } => {
  const bodies: string[] = [];
  const answer = async (_input: string | URL | Request, init?: RequestInit) => {
    bodies.push(String(init?.body));
    const next = responses.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return Object.assign(answer as typeof fetch, { bodies });
};

const proofOf = (size: number) => [root(size), root(size + 100)];

describe('the add-checkpoint body', () => {
  it('is the old size line, one base64 hash a line, an empty line and the checkpoint', async () => {
    const { checkpoint } = await givenLog();
    expect(formatAddCheckpointBody(0, [], checkpoint)).toBe(`old 0\n\n${checkpoint}`);
    expect(formatAddCheckpointBody(3, [root(7), root(8)], checkpoint)).toBe(
      `old 3\n${Buffer.from(root(7)).toString('base64')}\n${Buffer.from(root(8)).toString('base64')}\n\n${checkpoint}`,
    );
  });

  it('refuses a negative size and more than 63 proof lines', async () => {
    const { checkpoint } = await givenLog();
    expect(() => formatAddCheckpointBody(-1, [], checkpoint)).toThrow(/not a size/);
    expect(() =>
      formatAddCheckpointBody(
        1,
        Array.from({ length: 64 }, () => root(1)),
        checkpoint,
      ),
    ).toThrow(/too long/);
    expect(
      formatAddCheckpointBody(
        1,
        Array.from({ length: 63 }, () => root(1)),
        checkpoint,
      ),
    ).toMatch(/^old 1\n/);
  });
});

describe('parsing answers', () => {
  it('reads the size of a 409 body and nothing else', () => {
    expect(parseConflictSize('12\n')).toBe(12);
    expect(parseConflictSize('0\n')).toBe(0);
    expect(parseConflictSize('7')).toBe(7);
    for (const body of ['012\n', '-1\n', 'twelve\n', '', '1 2\n', '12\n\n']) {
      expect(parseConflictSize(body)).toBeUndefined();
    }
  });

  it('keeps the signature lines of a 200 body', () => {
    expect(parseCosignatureLines('— w1 AAAA\n— w2 BBB+/==\nnot a line\n\n— bad\n')).toEqual([
      '— w1 AAAA\n',
      '— w2 BBB+/==\n',
    ]);
  });
});

describe('asking one witness', () => {
  it('keeps only the cosignatures that verify for its key, and the note opens with each', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = testWitness('w1.example', 'http://w1.example', verifierKey);
    const other = testWitness('w1.example', 'http://w1.example', verifierKey);
    const genuine = await (
      await witness.fetch(`${witness.url}/add-checkpoint`, {
        method: 'POST',
        body: formatAddCheckpointBody(0, [], checkpoint),
      })
    ).text();
    // Another key under the same name, and a genuine line whose signature is damaged.
    const foreign = await (
      await other.fetch(`${other.url}/add-checkpoint`, {
        method: 'POST',
        body: formatAddCheckpointBody(0, [], checkpoint),
      })
    ).text();
    const damaged = genuine.replace(/.{6}\n$/, 'AAAAAA\n');
    const fetchFake = answering(() => new Response(`${foreign}${damaged}${genuine}`));
    const result = await requestCosignature(
      await policyWitness('W1', await witness.vkey(), witness.url),
      { checkpoint, treeSize: 5, knownSize: 0, proofFrom: async () => [] },
      { timeoutMs: 1000, fetch: fetchFake },
    );
    expect(result).toEqual({ name: 'W1', outcome: 'cosigned', lines: [genuine], witnessSize: 5 });
    const note = cosignedNote(checkpoint, [result]);
    expect(note).toBe(`${checkpoint}${genuine}`);
    const key = (await parseWitnessPolicy(`witness W1 ${await witness.vkey()}\nquorum W1\n`)).witnesses[0]!
      .key;
    expect((await verifyCosignature(note, key)).ok).toBe(true);
  });

  it('tells a 200 without a valid cosignature apart', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = testWitness('w1.example', 'http://w1.example', verifierKey);
    const result = await requestCosignature(
      await policyWitness('W1', await witness.vkey(), witness.url),
      { checkpoint, treeSize: 5, knownSize: 3, proofFrom: async () => proofOf(3) },
      { timeoutMs: 1000, fetch: answering(() => new Response('— w1.example AAAA\n')) },
    );
    expect(result).toMatchObject({ outcome: 'invalid-cosignature', lines: [], witnessSize: 3 });
  });

  it('after a 409 asks once more from the size the witness holds, with a proof from it', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = testWitness('w1.example', 'http://w1.example', verifierKey);
    const genuine = await (
      await witness.fetch(`${witness.url}/add-checkpoint`, {
        method: 'POST',
        body: formatAddCheckpointBody(0, [], checkpoint),
      })
    ).text();
    const fetchFake = answering(
      () => new Response('2\n', { status: 409, headers: { 'Content-Type': 'text/x.tlog.size' } }),
      () => new Response(genuine),
    );
    const asked: number[] = [];
    const result = await requestCosignature(
      await policyWitness('W1', await witness.vkey(), witness.url),
      {
        checkpoint,
        treeSize: 5,
        knownSize: 4,
        proofFrom: async (size) => {
          asked.push(size);
          return proofOf(size);
        },
      },
      { timeoutMs: 1000, fetch: fetchFake },
    );
    expect(result.outcome).toBe('cosigned');
    expect(asked).toEqual([4, 2]);
    expect(fetchFake.bodies).toEqual([
      formatAddCheckpointBody(4, proofOf(4), checkpoint),
      formatAddCheckpointBody(2, proofOf(2), checkpoint),
    ]);
  });

  it('does not ask again after a 409 beyond the checkpoint, a second 409, or a 409 without a size', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = await policyWitness(
      'W1',
      await testWitness('w', 'http://w', verifierKey).vkey(),
      'http://w',
    );
    const conflict = (size: string) => () => new Response(size, { status: 409 });
    const request = {
      checkpoint,
      treeSize: 5,
      knownSize: 1,
      proofFrom: async (size: number) => proofOf(size),
    };
    const beyond = answering(conflict('9\n'));
    expect(await requestCosignature(witness, request, { timeoutMs: 1000, fetch: beyond })).toMatchObject({
      outcome: 'conflict-unresolved',
      witnessSize: 9,
    });
    expect(beyond.bodies).toHaveLength(1);
    const twice = answering(conflict('2\n'), conflict('3\n'));
    expect(await requestCosignature(witness, request, { timeoutMs: 1000, fetch: twice })).toMatchObject({
      outcome: 'conflict-unresolved',
      witnessSize: 3,
    });
    expect(twice.bodies).toHaveLength(2);
    const sizeless = answering(conflict('soon\n'));
    expect(await requestCosignature(witness, request, { timeoutMs: 1000, fetch: sizeless })).toMatchObject({
      outcome: 'conflict-unresolved',
      witnessSize: 1,
    });
  });

  it('sends old 0 when the size it knows is beyond the checkpoint', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = await policyWitness(
      'W1',
      await testWitness('w', 'http://w', verifierKey).vkey(),
      'http://w',
    );
    const fetchFake = answering(() => new Response('', { status: 404 }));
    await requestCosignature(
      witness,
      { checkpoint, treeSize: 5, knownSize: 8, proofFrom: async () => proofOf(8) },
      { timeoutMs: 1000, fetch: fetchFake },
    );
    expect(fetchFake.bodies).toEqual([formatAddCheckpointBody(0, [], checkpoint)]);
  });

  it.each([
    [400, 'bad-request'],
    [403, 'forbidden'],
    [404, 'unknown-log'],
    [422, 'inconsistent'],
    [500, 'other-status'],
    [503, 'other-status'],
  ])('tells a %i apart (%s) and gives no cosignature', async (status, outcome) => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = await policyWitness(
      'W1',
      await testWitness('w', 'http://w', verifierKey).vkey(),
      'http://w',
    );
    const result = await requestCosignature(
      witness,
      { checkpoint, treeSize: 5, knownSize: 5, proofFrom: async () => [] },
      { timeoutMs: 1000, fetch: answering(() => new Response('no', { status })) },
    );
    expect(result).toEqual({ name: 'W1', outcome, lines: [], witnessSize: 5 });
  });

  it('tells a timeout and a refused connection apart', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const witness = await policyWitness(
      'W1',
      await testWitness('w', 'http://w', verifierKey).vkey(),
      'http://w',
    );
    const request = { checkpoint, treeSize: 5, knownSize: 0, proofFrom: async () => [] };
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    expect((await requestCosignature(witness, request, { timeoutMs: 50, fetch: hanging })).outcome).toBe(
      'timeout',
    );
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    };
    expect((await requestCosignature(witness, request, { timeoutMs: 50, fetch: refused })).outcome).toBe(
      'unreachable',
    );
  });
});

describe('counting answers', () => {
  it('counts each answer by outcome in the invocation metrics (EMF), a 409 and its retry apart', async () => {
    // Prepare
    const { checkpoint, verifierKey } = await givenLog();
    const witness = testWitness('w1.example', 'http://w1.example', verifierKey);
    await witness.fetch(`${witness.url}/add-checkpoint`, {
      method: 'POST',
      body: formatAddCheckpointBody(0, [], checkpoint),
    });
    const policyEntry = await policyWitness('W1', await witness.vkey(), witness.url);
    const request = { checkpoint, treeSize: 5, knownSize: 0, proofFrom: async () => [] };
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    // What the tests before counted is dropped (metrics off, as the tests run).
    metrics.publishStoredMetrics();
    const settings = process.env.POWERTOOLS_METRICS_DISABLED;
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const written: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      // Act: a 409 then a 200 (the witness holds 5), then a refused connection.
      await requestCosignature(policyEntry, request, { timeoutMs: 1000, fetch: witness.fetch });
      await requestCosignature(policyEntry, request, { timeoutMs: 1000, fetch: refused });
      metrics.publishStoredMetrics();
    } finally {
      spy.mockRestore();
      if (settings === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
      else process.env.POWERTOOLS_METRICS_DISABLED = settings;
    }
    // Assess
    const [document] = written.map((line) => JSON.parse(line)).filter((line) => line._aws);
    expect(document).toMatchObject({ WitnessConflict: 1, WitnessCosigned: 1, WitnessUnreachable: 1 });
    expect(document._aws.CloudWatchMetrics[0].Metrics).toEqual(
      expect.arrayContaining([{ Name: 'WitnessConflict', Unit: 'Count' }]),
    );
  });
});

describe('asking every witness', () => {
  it('asks those with a URL in parallel: one that hangs delays only its own answer', async () => {
    const { checkpoint, verifierKey } = await givenLog();
    const fast = testWitness('fast.example', 'http://fast.example', verifierKey);
    const slow = testWitness('slow.example', 'http://slow.example', verifierKey);
    const quiet = generateKeyPairSync('ed25519');
    const quietKey = await formatCosignerKey(
      'quiet.example',
      Buffer.from(quiet.publicKey.export({ format: 'jwk' }).x as string, 'base64url'),
    );
    const policy = await parseWitnessPolicy(
      [
        `witness fast ${await fast.vkey()} ${fast.url}`,
        `witness slow ${await slow.vkey()} ${slow.url}`,
        `witness quiet ${quietKey}`,
        'group all-of-them any fast slow quiet',
        'quorum all-of-them',
      ].join('\n'),
    );
    const called: string[] = [];
    const router: typeof fetch = async (input, init) => {
      called.push(String(input));
      if (String(input).startsWith(fast.url)) return fast.fetch(input, init);
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    };
    const started = Date.now();
    const results = await collectCosignatures(
      policy,
      { checkpoint, treeSize: 5, knownSizes: {}, proofFrom: async () => [] },
      { timeoutMs: 300, fetch: router },
    );
    expect(Date.now() - started).toBeLessThan(600);
    expect(results.map(({ name, outcome }) => [name, outcome])).toEqual([
      ['fast', 'cosigned'],
      ['slow', 'timeout'],
    ]);
    expect(called.sort()).toEqual([`${fast.url}/add-checkpoint`, `${slow.url}/add-checkpoint`]);
  });
});
