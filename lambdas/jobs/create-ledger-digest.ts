/**
 * Scheduled (EventBridge rule → this function): writes a digest of the whole ledger to the
 * Object Lock digest bucket. Logs the digest's sequence and root so they can be quoted.
 */
import { createDigest } from '#domain/ledger/ledger-digest.js';

export const handler = async (): Promise<{
  sequence: number;
  rootHash: string;
  treeSize: number;
  key: string;
}> => {
  const { sequence, rootHash, treeSize, key } = await createDigest();
  console.log(
    JSON.stringify({ level: 'INFO', message: 'Ledger digest written', sequence, rootHash, treeSize, key }),
  );
  return { sequence, rootHash, treeSize, key };
};
