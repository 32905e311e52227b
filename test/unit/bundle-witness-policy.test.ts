/**
 * The offline verifier with a witness policy: a bundle verifies only when its checkpoint is
 * signed by a trusted log and cosigned to the policy's quorum; the verdict names who cosigned
 * and who is missing; the policy's `log` line is a trusted key; a fork the log signed but the
 * honest witness did not cosign is refused.
 */
import {
  BUNDLE_FORMAT,
  eventHash,
  formatTlogProof,
  formatVerifierKey,
  GENESIS_HASH,
  type LedgerBundle,
  leafHash,
  nodeHash,
  parseWitnessPolicy,
  verifyBundle,
} from '../../verifier/index';
import { cosigned, logSignedCheckpoint, newSigner, policyText } from '../support/witnessing';

const log = newSigner('registry.example/ledger');
const auditor = newSigner('auditor.example');
const insurer = newSigner('insurer.example');

/** An object of two events, logged as the first two entries of a tree of two. */
async function twoEventBundle(): Promise<{ bundle: LedgerBundle; rootHash: Uint8Array }> {
  const common = {
    chainId: 'object:t1:o1',
    performedBy: null,
    principal: 'company:t1',
    timestamp: '2026-11-28T10:00:00.000Z',
    eventDescription: null,
  };
  const first: Record<string, unknown> = {
    ...common,
    sequence: 1,
    action: 'create',
    changes: { owner: { to: 'Alice' } },
    prevHash: GENESIS_HASH,
  };
  first.hash = await eventHash(first);
  const second: Record<string, unknown> = {
    ...common,
    sequence: 2,
    action: 'transfer',
    changes: { owner: { from: 'Alice', to: 'Bob' } },
    prevHash: first.hash,
  };
  second.hash = await eventHash(second);
  const leaves = [
    await leafHash(Buffer.from(String(first.hash), 'hex')),
    await leafHash(Buffer.from(String(second.hash), 'hex')),
  ] as const;
  const rootHash = await nodeHash(leaves[0], leaves[1]);
  const checkpoint = await logSignedCheckpoint(log, 2, rootHash);
  return {
    rootHash,
    bundle: {
      format: BUNDLE_FORMAT,
      object: { id: 'o1', blockchain: { lastTxId: second.hash } },
      events: [first, second],
      proofs: [
        formatTlogProof({ index: 0, inclusionProof: [leaves[1]], checkpoint }),
        formatTlogProof({ index: 1, inclusionProof: [leaves[0]], checkpoint }),
      ],
      checkpoint,
      verifierKey: await formatVerifierKey(log.name, log.publicKey),
    },
  };
}

describe('verifyBundle with a witness policy', () => {
  it('refuses a checkpoint the quorum did not cosign, naming the missing witness, and accepts it once cosigned', async () => {
    // Prepare: both witnesses must cosign; the bundle's proofs carry the log-signed note only
    const { bundle } = await twoEventBundle();
    const policy = await parseWitnessPolicy(
      await policyText(
        log,
        [auditor, insurer],
        'group both all auditor.example insurer.example\nquorum both',
      ),
    );
    const onlyAuditor = { ...bundle, checkpoint: cosigned(bundle.checkpoint, auditor) };
    // Act
    const refused = await verifyBundle(onlyAuditor, { policy });
    const accepted = await verifyBundle(
      { ...bundle, checkpoint: cosigned(onlyAuditor.checkpoint, insurer) },
      { policy },
    );
    // Assess
    expect(refused.ok).toBe(false);
    expect(refused.checkpoint.ok).toBe(true);
    expect(refused.events.every((event) => event.ok)).toBe(true);
    expect(refused.witnesses).toMatchObject({
      ok: false,
      cosigned: ['auditor.example'],
      missing: ['insurer.example'],
      reason: expect.stringContaining('missing insurer.example'),
    });
    expect(accepted).toMatchObject({
      ok: true,
      witnesses: { ok: true, cosigned: ['auditor.example', 'insurer.example'], missing: [] },
    });
  });

  it("takes the log key from the policy's log line, or from the caller when the policy names no log", async () => {
    const { bundle } = await twoEventBundle();
    const witnessed = { ...bundle, checkpoint: cosigned(bundle.checkpoint, auditor) };
    const withLog = await parseWitnessPolicy(await policyText(log, [auditor], 'quorum auditor.example'));
    const withoutLog = await parseWitnessPolicy(
      await policyText(undefined, [auditor], 'quorum auditor.example'),
    );
    // policy's log line only
    expect(await verifyBundle(witnessed, { policy: withLog })).toMatchObject({
      ok: true,
      verifierKey: bundle.verifierKey,
    });
    // no log anywhere: nothing to trust
    const untrusted = await verifyBundle(witnessed, { policy: withoutLog });
    expect(untrusted.ok).toBe(false);
    expect(untrusted.checkpoint.reason).toMatch(/no log key/);
    // the caller's key with a policy of witnesses only
    expect((await verifyBundle(witnessed, { verifierKey: bundle.verifierKey, policy: withoutLog })).ok).toBe(
      true,
    );
    // the key argument as before, no policy: cosignature lines change nothing
    expect(await verifyBundle(witnessed, bundle.verifierKey)).toMatchObject({ ok: true });
    expect((await verifyBundle(witnessed, bundle.verifierKey)).witnesses).toBeUndefined();
  });

  it('verifies proofs that carry the checkpoint with other cosignatures than the bundle', async () => {
    // the log serves a newer set of cosignatures on the same tree head than a proof carried
    const { bundle } = await twoEventBundle();
    const policy = await parseWitnessPolicy(await policyText(log, [auditor], 'quorum auditor.example'));
    const verdict = await verifyBundle(
      { ...bundle, checkpoint: cosigned(cosigned(bundle.checkpoint, insurer), auditor) },
      { policy },
    );
    expect(verdict.ok).toBe(true);
  });

  it.each([
    ['another root at the same size', 2],
    ['a smaller tree', 1],
  ])('refuses a fork (%s) that the log signed and only a colluding witness cosigned', async (_case, size) => {
    // Prepare: the log's key signs a checkpoint the honest auditor never saw, so it never cosigned it
    const { bundle } = await twoEventBundle();
    const forkedCheckpoint = cosigned(
      await logSignedCheckpoint(log, size, new Uint8Array(32).fill(9)),
      insurer,
    );
    const policy = await parseWitnessPolicy(
      await policyText(
        log,
        [auditor, insurer],
        'group both all auditor.example insurer.example\nquorum both',
      ),
    );
    // Act
    const verdict = await verifyBundle({ ...bundle, checkpoint: forkedCheckpoint }, { policy });
    // Assess: the log's signature holds; the quorum does not
    expect(verdict.checkpoint.ok).toBe(true);
    expect(verdict.ok).toBe(false);
    expect(verdict.witnesses?.reason).toMatch(/missing auditor\.example$/);
  });
});
