/**
 * `npm start -- --witness`: one witness beside the log, so that the checkpoints the API serves,
 * the console shows and the quick start checks are cosigned. The witness (`witness/`) keeps its
 * key and what it cosigned in `<data>/witness`, and listens on a free loopback port; a policy
 * naming the log and this witness, with the witness as the quorum, is written to
 * `<data>/witness-policy.txt` and given to the stack as context `witnessPolicyFile`, as a
 * deployment would be given its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localSigner } from '../lambdas/domain/ledger/log-signer.js';
import { formatVerifierKey } from '../verifier/index.js';
import { startWitnessServer, type WitnessServer } from '../witness/start-witness-server.js';

/** The argument of `npm start` that starts the witness. */
export const WITNESS_ARGUMENT = '--witness';
/** The local witness's name, in its cosignature lines. */
const LOCAL_WITNESS_NAME = 'localhost/witness';
/** The witness's name in the policy (a policy's own label for it). */
const POLICY_WITNESS_NAME = 'local';

export interface LocalWitness {
  server: WitnessServer;
  /** The policy file written for the stack. */
  policyFile: string;
}

/**
 * Starts the witness for the log of this origin, whose signing key is `signingKeyFile` (made
 * now if the data folder has none yet, as the log itself would at its first checkpoint).
 */
export async function startLocalWitness(options: {
  dataDirectory: string;
  logOrigin: string;
  signingKeyFile: string;
}): Promise<LocalWitness> {
  const signer = localSigner(options.logOrigin, options.signingKeyFile);
  const logKey = await formatVerifierKey(signer.keyName, await signer.publicKey());
  const server = await startWitnessServer({
    dataDir: join(options.dataDirectory, 'witness'),
    logs: [logKey],
    name: LOCAL_WITNESS_NAME,
  });
  const policyFile = join(options.dataDirectory, 'witness-policy.txt');
  writeFileSync(
    policyFile,
    [
      '# Written by npm start -- --witness: the log and the local witness, which must cosign.',
      `log ${logKey}`,
      `witness ${POLICY_WITNESS_NAME} ${server.verifierKey} ${server.url}`,
      `quorum ${POLICY_WITNESS_NAME}`,
      '',
    ].join('\n'),
  );
  return { server, policyFile };
}
