/** Pins a verified checkpoint in this browser, so that later visits check the log still extends it. */
import { useState } from 'preact/hooks';
import type { CheckpointVerdict } from '../../../verifier/index';
import { pinCheckpoint, pinnedCheckpoint } from '../ledger/trust';

export function PinButton({ checkpoint, verdict }: { checkpoint: string; verdict: CheckpointVerdict }) {
  const [pinned, setPinned] = useState(() => pinnedCheckpoint()?.checkpoint === checkpoint);
  const pin = () => {
    if (verdict.treeSize === undefined || !verdict.rootHash || !verdict.origin || !verdict.keyId) return;
    pinCheckpoint({
      checkpoint,
      origin: verdict.origin,
      treeSize: verdict.treeSize,
      rootHash: verdict.rootHash,
      keyId: verdict.keyId,
      pinnedAt: new Date().toISOString(),
    });
    setPinned(true);
  };
  return pinned ? (
    <span role="status">Pinned: checkpoint of size {verdict.treeSize}</span>
  ) : (
    <button type="button" onClick={pin}>
      Pin this checkpoint (size {verdict.treeSize})
    </button>
  );
}
