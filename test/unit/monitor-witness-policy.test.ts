/**
 * The monitor with a witness policy: it accepts a log that grew consistently and was cosigned
 * to the quorum, and refuses (naming the missing witnesses) a checkpoint the quorum did not
 * cosign, including a fork the log's own key signed (another root at the same size, a smaller
 * tree) that the honest witness refused; a fork a colluding quorum cosigned still fails the
 * consistency check. The log is four entries held in memory.
 */
import { type LogSource, monitorLog } from '../../cli/ledger-monitor';
import {
  formatVerifierKey,
  leafHash,
  nodeHash,
  parseWitnessPolicy,
  type WitnessPolicy,
} from '../../verifier/index';
import { cosigned, logSignedCheckpoint, newSigner, policyText } from '../support/witnessing';

const log = newSigner('registry.example/ledger');
const auditor = newSigner('auditor.example');
const insurer = newSigner('insurer.example');

const leaves = Promise.all([1, 2, 3, 4].map((entry) => leafHash(new Uint8Array(32).fill(entry))));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The log at 2 and at 4 entries, and a source serving `checkpoint` with honest proofs. */
async function honestLog() {
  const [l0, l1, l2, l3] = (await leaves) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  const rootAt2 = await nodeHash(l0, l1);
  const right = await nodeHash(l2, l3);
  const rootAt4 = await nodeHash(rootAt2, right);
  const source = (checkpoint: string): LogSource => ({
    checkpoint: async () => checkpoint,
    // RFC 9162: from 2 (a full subtree) to 4, the proof is the right subtree's hash
    consistency: async (from, to) => {
      if (from !== 2 || to !== 4) throw new Error(`no proof from ${from} to ${to}`);
      return [toHex(right)];
    },
  });
  return {
    at2: await logSignedCheckpoint(log, 2, rootAt2),
    at4: await logSignedCheckpoint(log, 4, rootAt4),
    source,
  };
}

let policy: WitnessPolicy;
beforeAll(async () => {
  policy = await parseWitnessPolicy(
    await policyText(log, [auditor, insurer], 'group both all auditor.example insurer.example\nquorum both'),
  );
});

describe('monitorLog with a witness policy', () => {
  it('accepts checkpoints cosigned to the quorum, growing consistently, and says who cosigned', async () => {
    // Prepare
    const { at2, at4, source } = await honestLog();
    const witnessed2 = cosigned(cosigned(at2, auditor), insurer);
    // Act
    const first = await monitorLog(source(witnessed2), { policy }, {});
    if (!first.ok) throw new Error(first.message);
    const second = await monitorLog(
      source(cosigned(cosigned(at4, insurer), auditor)),
      { policy },
      first.state,
    );
    // Assess
    expect(first.message).toMatch(
      /^first checkpoint: tree size 2, .*cosigned by auditor\.example, insurer\.example$/,
    );
    expect(second).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^consistent: tree size 2 -> 4/),
    });
  });

  it('refuses a checkpoint the quorum did not cosign, naming the missing witness (the key alone still accepts it)', async () => {
    const { at2, at4, source } = await honestLog();
    const seen = await monitorLog(source(cosigned(cosigned(at2, auditor), insurer)), { policy }, {});
    if (!seen.ok) throw new Error(seen.message);
    const refused = await monitorLog(source(cosigned(at4, auditor)), { policy }, seen.state);
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^NOT WITNESSED: the checkpoint at tree size 4 .*missing insurer\.example$/,
      ),
    });
    // without a policy, as before, the same checkpoint passes
    expect(
      (
        await monitorLog(
          source(cosigned(at4, auditor)),
          await formatVerifierKey(log.name, log.publicKey),
          seen.state,
        )
      ).ok,
    ).toBe(true);
  });

  it.each([
    ['another root at the same size', 2],
    ['a smaller tree', 1],
  ])('refuses a fork (%s) the log signed and the honest auditor did not cosign', async (_case, size) => {
    // Prepare: the monitor saw the honest, witnessed tree of 2
    const { at2, source } = await honestLog();
    const seen = await monitorLog(source(cosigned(cosigned(at2, auditor), insurer)), { policy }, {});
    if (!seen.ok) throw new Error(seen.message);
    const fork = cosigned(await logSignedCheckpoint(log, size, new Uint8Array(32).fill(9)), insurer);
    // Act
    const verdict = await monitorLog(source(fork), { policy }, seen.state);
    // Assess
    expect(verdict).toEqual({
      ok: false,
      message: expect.stringMatching(/^NOT WITNESSED: .*missing auditor\.example$/),
    });
  });

  it('refuses a fork that a colluding quorum cosigned, because it is not consistent with what it saw', async () => {
    const { at2, source } = await honestLog();
    const anyOne = await parseWitnessPolicy(
      await policyText(log, [auditor, insurer], 'group one any auditor.example insurer.example\nquorum one'),
    );
    const seen = await monitorLog(source(cosigned(at2, auditor)), { policy: anyOne }, {});
    if (!seen.ok) throw new Error(seen.message);
    const forkAt4 = cosigned(await logSignedCheckpoint(log, 4, new Uint8Array(32).fill(9)), insurer);
    expect(await monitorLog(source(forkAt4), { policy: anyOne }, seen.state)).toEqual({
      ok: false,
      message: expect.stringMatching(/^FORK: the checkpoint at 4 is not consistent with the one at 2/),
    });
    const forkAt2 = cosigned(await logSignedCheckpoint(log, 2, new Uint8Array(32).fill(9)), insurer);
    expect(await monitorLog(source(forkAt2), { policy: anyOne }, seen.state)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^FORK: two roots for tree size 2/),
    });
  });

  it('refuses a checkpoint signed by no log the policy names', async () => {
    const { source } = await honestLog();
    const stranger = newSigner(log.name);
    const forged = cosigned(
      cosigned(await logSignedCheckpoint(stranger, 2, new Uint8Array(32)), auditor),
      insurer,
    );
    expect(await monitorLog(source(forged), { policy }, {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^BAD SIGNATURE/),
    });
  });
});
