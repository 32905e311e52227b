/**
 * The KMS signing path (an AWS path, so the KMS client is mocked): the public key is read from
 * KMS's DER SubjectPublicKeyInfo, Sign is called with ED25519_SHA_512 over the raw message, and
 * the checkpoint it makes verifies with a real Ed25519 key standing in for the KMS key.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { kmsSigner, signCheckpoint } from '../../lambdas/domain/ledger/log-signer';
import { verifyCheckpoint } from '../../verifier/index';

describe('the KMS checkpoint signer', () => {
  const kms = mockClient(KMSClient);
  const keys = generateKeyPairSync('ed25519');
  afterEach(() => kms.reset());

  it('signs the checkpoint text with ED25519_SHA_512 and RAW, and the note verifies', async () => {
    // Prepare: KMS responds as it does for an ECC_NIST_EDWARDS25519 key
    kms
      .on(GetPublicKeyCommand)
      .resolves({ PublicKey: keys.publicKey.export({ format: 'der', type: 'spki' }) });
    kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => ({
      Signature: new Uint8Array(sign(null, Buffer.from(input.Message), keys.privateKey)),
    }));
    const signer = kmsSigner(
      'asset-registry/Test',
      'arn:aws:kms:eu-west-1:111122223333:key/abc',
      new KMSClient({}),
    );
    // Act
    const { checkpoint, verifierKey } = await signCheckpoint(signer, 3, new Uint8Array(32).fill(9));
    // Assess
    const [signCall] = kms.commandCalls(SignCommand);
    expect(signCall?.args[0].input).toMatchObject({
      KeyId: 'arn:aws:kms:eu-west-1:111122223333:key/abc',
      MessageType: 'RAW',
      SigningAlgorithm: 'ED25519_SHA_512',
    });
    expect(Buffer.from(signCall!.args[0].input.Message as Uint8Array).toString()).toBe(
      `asset-registry/Test\n3\n${Buffer.alloc(32, 9).toString('base64')}\n`,
    );
    expect(await verifyCheckpoint(checkpoint, verifierKey)).toMatchObject({ ok: true, treeSize: 3 });
  });

  it('refuses a KMS key that is not Ed25519, and a missing signature', async () => {
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    kms
      .on(GetPublicKeyCommand)
      .resolves({ PublicKey: ecKey.publicKey.export({ format: 'der', type: 'spki' }) });
    kms.on(SignCommand).resolves({});
    const signer = kmsSigner('asset-registry/Test', 'key', new KMSClient({}));
    await expect(signer.publicKey()).rejects.toThrow(/not an Ed25519 key/);
    await expect(signer.sign(new Uint8Array([1]))).rejects.toThrow(/no Ed25519 signature/);
  });
});
