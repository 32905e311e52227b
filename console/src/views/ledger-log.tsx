/**
 * The log: the latest checkpoint (size, root, signer key id, when fetched) verified with the
 * trusted key, the key entry (instead of the server's), and the pinned checkpoint.
 */
import { useState } from 'preact/hooks';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { latestCheckpoint } from '../ledger/ledger-client';
import { pinCheckpoint, pinnedCheckpoint, setTrustedVerifierKey, trustedVerifierKey } from '../ledger/trust';
import { useRequest } from '../use-request';
import { PinButton } from './pin-button';

export function LedgerLogView({ onTrustChange }: { onTrustChange: () => void }) {
  const client = useClient();
  const [enteredKey, setEnteredKey] = useState(trustedVerifierKey);
  const [draftKey, setDraftKey] = useState(enteredKey ?? '');
  const [pinned, setPinned] = useState(pinnedCheckpoint);
  const latest = useRequest(() => latestCheckpoint(client, enteredKey), [enteredKey]);
  const saveKey = (event: Event) => {
    event.preventDefault();
    setTrustedVerifierKey(draftKey);
    setEnteredKey(trustedVerifierKey());
    onTrustChange();
  };
  const verdict = latest.data?.verdict;
  return (
    <main id="main">
      <h1>The log</h1>
      <section aria-labelledby="checkpoint-title">
        <h2 id="checkpoint-title">Latest checkpoint</h2>
        <ErrorNotice error={latest.error} />
        {latest.data && verdict && (
          <>
            <p class={verdict.ok ? 'notice ok' : 'notice error'} role={verdict.ok ? 'status' : 'alert'}>
              {verdict.ok
                ? '✔ Signature verified in this browser'
                : `✘ The checkpoint does not verify with this key: ${verdict.reason}`}
            </p>
            <dl class="fields">
              <div>
                <dt>Origin</dt>
                <dd>{verdict.origin ?? '?'}</dd>
              </div>
              <div>
                <dt>Tree size</dt>
                <dd>{verdict.treeSize ?? '?'}</dd>
              </div>
              <div>
                <dt>Root hash</dt>
                <dd class="mono">{verdict.rootHash ?? '?'}</dd>
              </div>
              <div>
                <dt>Signer key id</dt>
                <dd class="mono">{verdict.keyId ?? '?'}</dd>
              </div>
              <div>
                <dt>Fetched at</dt>
                <dd>{latest.data.fetchedAt}</dd>
              </div>
              <div>
                <dt>Verifier key used</dt>
                <dd class="mono">
                  {latest.data.verifierKey} (
                  {latest.data.keySource === 'entered' ? 'the key you entered' : 'published by the server'})
                </dd>
              </div>
            </dl>
            <pre class="json">{latest.data.checkpoint}</pre>
            {verdict.ok && <PinButton checkpoint={latest.data.checkpoint} verdict={verdict} />}
          </>
        )}
      </section>
      <section aria-labelledby="trust-title">
        <h2 id="trust-title">Verifier key to trust</h2>
        <p>
          Paste the key you got from a source you trust (for example your auditor), as one line{' '}
          <code>&lt;name&gt;+&lt;key id&gt;+&lt;key&gt;</code>. Without one, the page uses the key the server
          publishes, which only shows that the server signed what it shows. Leave it empty to go back to the
          server's key.
        </p>
        <form class="stack" onSubmit={saveKey}>
          <label>
            Trusted verifier key
            <input
              name="verifierKey"
              class="mono"
              value={draftKey}
              onInput={(e) => setDraftKey(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Use this key</button>
        </form>
      </section>
      <section aria-labelledby="pin-title">
        <h2 id="pin-title">Pinned checkpoint</h2>
        {pinned ? (
          <>
            <p>
              Size {pinned.treeSize}, root <span class="mono">{pinned.rootHash}</span>, pinned{' '}
              {pinned.pinnedAt}. Every visit checks that the log still extends it.
            </p>
            <button
              type="button"
              onClick={() => {
                pinCheckpoint(undefined);
                setPinned(undefined);
                onTrustChange();
              }}
            >
              Forget the pinned checkpoint
            </button>
          </>
        ) : (
          <p>No checkpoint is pinned in this browser.</p>
        )}
      </section>
    </main>
  );
}
