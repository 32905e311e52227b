/**
 * The log: the latest checkpoint (size, root, signer key id, when fetched) verified with the
 * trusted key and, when a witness policy is entered, its cosignatures; the key entry (instead
 * of the server's), the witness policy entry, and the pinned checkpoint.
 */
import { useState } from 'preact/hooks';
import { verifyWitnessedCheckpoint } from '../../../verifier/index';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { latestCheckpoint } from '../ledger/ledger-client';
import {
  pinCheckpoint,
  pinnedCheckpoint,
  setTrustedVerifierKey,
  setWitnessPolicyText,
  trustedVerifierKey,
  witnessPolicy,
  witnessPolicyText,
} from '../ledger/trust';
import { useRequest } from '../use-request';
import { PinButton } from './pin-button';

export function LedgerLogView({ onTrustChange }: { onTrustChange: () => void }) {
  const client = useClient();
  const [enteredKey, setEnteredKey] = useState(trustedVerifierKey);
  const [draftKey, setDraftKey] = useState(enteredKey ?? '');
  const [enteredPolicy, setEnteredPolicy] = useState(witnessPolicyText);
  const [draftPolicy, setDraftPolicy] = useState(enteredPolicy ?? '');
  const [policyError, setPolicyError] = useState<string>();
  const [pinned, setPinned] = useState(pinnedCheckpoint);
  const latest = useRequest(async () => {
    const current = await latestCheckpoint(client, enteredKey);
    const policy = await witnessPolicy();
    const witnesses =
      policy && current.verdict.ok
        ? await verifyWitnessedCheckpoint(current.checkpoint, policy, current.verifierKey)
        : undefined;
    return { ...current, witnesses };
  }, [enteredKey, enteredPolicy]);
  const saveKey = (event: Event) => {
    event.preventDefault();
    setTrustedVerifierKey(draftKey);
    setEnteredKey(trustedVerifierKey());
    onTrustChange();
  };
  const savePolicy = async (event: Event) => {
    event.preventDefault();
    try {
      await setWitnessPolicyText(draftPolicy);
      setPolicyError(undefined);
      setEnteredPolicy(witnessPolicyText());
    } catch (error) {
      setPolicyError((error as Error).message);
    }
  };
  const verdict = latest.data?.verdict;
  const witnesses = latest.data?.witnesses;
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
            {witnesses && (
              <p
                class={witnesses.ok ? 'notice ok' : 'notice error'}
                role={witnesses.ok ? 'status' : 'alert'}
                data-witnesses={witnesses.ok ? 'met' : 'not-met'}
              >
                {witnesses.ok
                  ? `✔ Cosigned to your witness quorum, by ${witnesses.cosigned.join(', ') || 'no witness'}`
                  : `✘ Not cosigned to your witness quorum: ${witnesses.reason}`}
              </p>
            )}
            <pre class="json">{latest.data.checkpoint}</pre>
            {verdict.ok && witnesses?.ok !== false && (
              <PinButton checkpoint={latest.data.checkpoint} verdict={verdict} />
            )}
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
      <section aria-labelledby="witness-title">
        <h2 id="witness-title">Witnesses to require</h2>
        <p>
          Witnesses are independent parties (an auditor, an insurer) that cosign each checkpoint only when it
          extends the last one they saw, so that this service cannot show you a log other than everyone
          else's. Paste the witness policy you trust, in the{' '}
          <a href="https://c2sp.org/tlog-policy">tlog-policy</a> format:{' '}
          <code>witness &lt;name&gt; &lt;verifier key&gt;</code> lines, optional{' '}
          <code>log &lt;verifier key&gt;</code> and{' '}
          <code>group &lt;name&gt; &lt;k|all|any&gt; &lt;names…&gt;</code> lines, and one{' '}
          <code>quorum &lt;name&gt;</code> line. Verify then refuses a checkpoint whose cosignatures do not
          meet the quorum. Leave it empty to require no witness.
        </p>
        <form class="stack" onSubmit={savePolicy}>
          <label>
            Witness policy
            <textarea
              name="witnessPolicy"
              class="mono"
              rows={6}
              spellcheck={false}
              value={draftPolicy}
              onInput={(e) => setDraftPolicy(e.currentTarget.value)}
            />
          </label>
          {policyError && (
            <p class="notice error" role="alert">
              The policy was not saved: {policyError}
            </p>
          )}
          <p role="status">
            {enteredPolicy
              ? 'A witness policy is in use in this browser.'
              : 'No witness policy: cosignatures are not checked.'}
          </p>
          <button type="submit">Use this policy</button>
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
