/**
 * tlog-cosignature and tlog-policy in the shared verifier. Cosignatures are made here from the
 * C2SP text (message, key id, line) with Node's Ed25519, not with the verifier's formatters.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import {
  formatCheckpointBody,
  formatCosignerKey,
  formatSignatureLine,
  formatVerifierKey,
  parseCosignerKey,
  parseWitnessPolicy,
  quorumMet,
  verifyCosignature,
  verifyWitnessedCheckpoint,
} from '../../verifier/index.js';

const rawKey = (key: KeyObject) => new Uint8Array(key.export({ format: 'der', type: 'spki' }).subarray(12));

function newSigner(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { name, privateKey, publicKey: rawKey(publicKey) };
}
type Signer = ReturnType<typeof newSigner>;

/** A cosignature line as tlog-cosignature defines it, built by hand. */
function cosignatureLine(witness: Signer, checkpointText: string, timestamp: number): string {
  const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
  const keyId = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${witness.name}\n`), Buffer.from([0x04]), witness.publicKey]))
    .digest()
    .subarray(0, 4);
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = sign(null, message, witness.privateKey);
  return `— ${witness.name} ${Buffer.concat([keyId, time, signature]).toString('base64')}\n`;
}

const log = newSigner('example.com/log');
const [w1, w2, w3] = ['w1.example', 'w2.example', 'w3.example'].map(newSigner) as [Signer, Signer, Signer];
const text = formatCheckpointBody(log.name, 7, new Uint8Array(32).fill(3));

async function logSigned(): Promise<string> {
  const signature = new Uint8Array(sign(null, Buffer.from(text), log.privateKey));
  return `${text}\n${await formatSignatureLine(log.name, log.publicKey, signature)}`;
}

async function policyText(quorumLines: string): Promise<string> {
  return [
    `log ${await formatVerifierKey(log.name, log.publicKey)}`,
    `witness W1 ${await formatCosignerKey(w1.name, w1.publicKey)} http://127.0.0.1:1`,
    `witness W2 ${await formatCosignerKey(w2.name, w2.publicKey)}`,
    `  # a comment, then an empty line`,
    '',
    `witness W3\t${await formatCosignerKey(w3.name, w3.publicKey)}`,
    quorumLines,
  ].join('\n');
}

describe('cosignature/v1', () => {
  it('verifies a cosignature made from the spec, and gives its timestamp', async () => {
    const note = (await logSigned()) + cosignatureLine(w1, text, 1_700_000_000);
    const key = await parseCosignerKey(await formatCosignerKey(w1.name, w1.publicKey));
    await expect(verifyCosignature(note, key)).resolves.toEqual({
      ok: true,
      name: w1.name,
      timestamp: 1_700_000_000,
    });
  });

  it('refuses a cosignature over other text, or by another key under the same name', async () => {
    const other = formatCheckpointBody(log.name, 8, new Uint8Array(32).fill(3));
    const key = await parseCosignerKey(await formatCosignerKey(w1.name, w1.publicKey));
    const forged = (await logSigned()) + cosignatureLine(w1, other, 1);
    expect((await verifyCosignature(forged, key)).ok).toBe(false);
    const impostor = { ...newSigner(w1.name) };
    const byImpostor = (await logSigned()) + cosignatureLine(impostor, text, 1);
    expect(await verifyCosignature(byImpostor, key)).toMatchObject({ ok: false });
  });

  it('takes a log key (type 0x01) for no cosigner key', async () => {
    await expect(parseCosignerKey(await formatVerifierKey(w1.name, w1.publicKey))).rejects.toThrow(
      'type 0x04',
    );
  });
});

describe('tlog-policy', () => {
  it('parses logs, witnesses with and without URLs, groups and the quorum', async () => {
    const policy = await parseWitnessPolicy(
      `${await policyText('group G 2 W1 W2 W3')}\ngroup TOP all G\nquorum TOP\n`,
    );
    expect(policy.logs).toHaveLength(1);
    expect(policy.witnesses.map(({ name, url }) => [name, url])).toEqual([
      ['W1', 'http://127.0.0.1:1'],
      ['W2', undefined],
      ['W3', undefined],
    ]);
    expect(policy.groups.get('G')).toEqual({ threshold: 2, members: ['W1', 'W2', 'W3'] });
    expect(quorumMet(policy, new Set(['W1']))).toBe(false);
    expect(quorumMet(policy, new Set(['W1', 'W3']))).toBe(true);
  });

  it('reads any and all, a single witness and none as the quorum', async () => {
    const any = await parseWitnessPolicy(`${await policyText('group G any W1 W2')}\nquorum G`);
    expect(quorumMet(any, new Set(['W2']))).toBe(true);
    const all = await parseWitnessPolicy(`${await policyText('group G all W1 W2')}\nquorum G`);
    expect(quorumMet(all, new Set(['W2']))).toBe(false);
    const single = await parseWitnessPolicy(await policyText('quorum W3'));
    expect(quorumMet(single, new Set(['W3']))).toBe(true);
    const none = await parseWitnessPolicy('quorum none\n');
    expect(quorumMet(none, new Set())).toBe(true);
  });

  it.each([
    ['no quorum', '', 'no quorum line'],
    ['two quorums', 'quorum W1\nquorum W2', 'one quorum line'],
    ['an undefined name', 'quorum W9', '"W9" is not defined'],
    ['a forward reference', 'group G any W1 H\ngroup H any W2\nquorum G', '"H" is not defined'],
    ['a member used twice', 'group G any W1 W2\ngroup H any W1\nquorum G', '"W1" is already a member'],
    ['a threshold above n', 'group G 3 W1 W2\nquorum G', 'threshold'],
    ['a threshold of 0', 'group G 0 W1\nquorum G', 'threshold'],
    ['a name defined twice', 'group W1 any W2\nquorum W1', '"W1" is already defined'],
    ['none as a member', 'group G any none\nquorum G', '"none" is not defined'],
    ['an unknown keyword', 'witnesses W1\nquorum W1', 'unknown keyword'],
    ['a carriage return', 'quorum W1\r', 'control character'],
  ])('refuses %s', async (_case, lines, message) => {
    await expect(parseWitnessPolicy(`${await policyText('')}\n${lines}`)).rejects.toThrow(message);
  });

  it('refuses a witness key repeated under another name, and a log key given as a witness', async () => {
    const repeated = `witness A ${await formatCosignerKey(w1.name, w1.publicKey)}\nwitness B ${await formatCosignerKey('other', w1.publicKey)}\nquorum A`;
    await expect(parseWitnessPolicy(repeated)).rejects.toThrow('line 2: repeats a public key');
    const logAsWitness = `witness A ${await formatVerifierKey(w1.name, w1.publicKey)}\nquorum A`;
    await expect(parseWitnessPolicy(logAsWitness)).rejects.toThrow('line 1');
  });

  it('accepts a checkpoint cosigned to quorum, and names the missing witnesses otherwise', async () => {
    const policy = await parseWitnessPolicy(await policyText('group G 2 W1 W2 W3\nquorum G'));
    const once = (await logSigned()) + cosignatureLine(w2, text, 5);
    await expect(verifyWitnessedCheckpoint(once, policy)).resolves.toMatchObject({
      ok: false,
      cosigned: ['W2'],
      missing: ['W1', 'W3'],
      reason: expect.stringContaining('missing W1, W3'),
    });
    const twice = once + cosignatureLine(w3, text, 6);
    await expect(verifyWitnessedCheckpoint(twice, policy)).resolves.toMatchObject({
      ok: true,
      cosigned: ['W2', 'W3'],
      treeSize: 7,
    });
  });

  it('refuses a checkpoint signed by no log of the policy, whatever its cosignatures', async () => {
    const policy = await parseWitnessPolicy(await policyText('quorum W1'));
    const stranger = newSigner(log.name);
    const signature = new Uint8Array(sign(null, Buffer.from(text), stranger.privateKey));
    const note = `${text}\n${await formatSignatureLine(log.name, stranger.publicKey, signature)}${cosignatureLine(w1, text, 1)}`;
    expect((await verifyWitnessedCheckpoint(note, policy)).ok).toBe(false);
  });
});
