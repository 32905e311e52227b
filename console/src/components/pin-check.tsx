/**
 * On each visit: when a checkpoint is pinned in this browser, fetch the current one and the
 * consistency proof between them, and warn loudly, on every view, if the log was rewritten.
 */
import { checkAgainstPin, latestCheckpoint } from '../ledger/ledger-client';
import { pinnedCheckpoint, trustedVerifierKey } from '../ledger/trust';
import { useRequest } from '../use-request';
import { useClient } from './client-context';
import { describeError } from './error-notice';

export function PinCheck({ generation }: { generation: number }) {
  const client = useClient();
  const check = useRequest(async () => {
    const pinned = pinnedCheckpoint();
    if (!pinned) return undefined;
    const current = await latestCheckpoint(client, trustedVerifierKey());
    return { pinned, ...(await checkAgainstPin(client, pinned, current)) };
  }, [generation]);
  if (check.error)
    return (
      <p class="notice warning" role="alert">
        Could not check the log against your pinned checkpoint: {describeError(check.error).message}
      </p>
    );
  if (!check.data) return null;
  return check.data.consistent ? (
    <p class="notice ok pin-status" role="status">
      The log is consistent with the checkpoint you pinned (size {check.data.pinned.treeSize}).
    </p>
  ) : (
    <div class="notice warning rewritten" role="alert">
      <p>
        <strong>Warning: the log was rewritten.</strong> It no longer extends the checkpoint you pinned (size{' '}
        {check.data.pinned.treeSize}): {check.data.reason}. Do not trust what this service shows until this is
        explained.
      </p>
    </div>
  );
}
