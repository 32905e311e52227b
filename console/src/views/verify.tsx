/**
 * "Verify" on an object: fetches its events, their proofs, the checkpoint and the key, then
 * checks everything in this browser with the shared verifier module (`verifier/`, the offline
 * auditor's code). Each event shows verified or failed with the reason; the bundle can be
 * downloaded for the offline verifier.
 */
import { useState } from 'preact/hooks';
import { type BundleVerdict, type LedgerBundle, verifyBundle } from '../../../verifier/index';
import type { Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { fetchBundle } from '../ledger/ledger-client';
import { trustedVerifierKey } from '../ledger/trust';
import { routeHref } from '../router';
import { useAction } from '../use-action';
import { EventTimeline } from './event-timeline';
import { PinButton } from './pin-button';

interface Outcome {
  bundle: LedgerBundle;
  verdict: BundleVerdict;
  keySource: 'entered' | 'server';
  milliseconds: number;
}

export function VerifyView({ objectId }: { objectId: string }) {
  const client = useClient();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [outcome, setOutcome] = useState<Outcome>();
  const verification = useAction(async () => {
    setOutcome(undefined);
    const started = performance.now();
    const bundle = await fetchBundle(client, objectId, (done, total) => setProgress({ done, total }));
    const entered = trustedVerifierKey();
    const verdict = await verifyBundle(bundle, entered ?? bundle.verifierKey);
    setOutcome({
      bundle,
      verdict,
      keySource: entered ? 'entered' : 'server',
      milliseconds: performance.now() - started,
    });
  });
  const running = verification.busy;
  return (
    <main id="main">
      <p>
        <a href={routeHref(['objects', objectId])}>← Object</a>
      </p>
      <h1>Verify in this browser</h1>
      <p>
        The page fetches every event of the object, each event's inclusion proof and the signed checkpoint,
        and checks them here: each event's hash and link to the one before, each proof against the
        checkpoint's root, and the checkpoint's signature. It does not take the server's word for any of it.
      </p>
      <button type="button" onClick={verification.run} disabled={running}>
        {running ? 'Verifying…' : outcome ? 'Verify again' : 'Verify'}
      </button>
      {running && progress && (
        <p role="status">
          Fetched {progress.done} of {progress.total} proofs
        </p>
      )}
      <ErrorNotice error={verification.error} />
      {outcome && <VerifyOutcome outcome={outcome} objectId={objectId} />}
    </main>
  );
}

function VerifyOutcome({ outcome, objectId }: { outcome: Outcome; objectId: string }) {
  const { verdict, bundle } = outcome;
  const failed = verdict.events.filter((event) => !event.ok);
  const marks = new Map(
    verdict.events.map((event) => [event.sequence, { ok: event.ok, reason: event.reason }]),
  );
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(
      new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }),
    );
    link.download = `ledger-bundle-${objectId}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  return (
    <section aria-labelledby="verdict-title">
      <h2
        id="verdict-title"
        class={verdict.ok ? 'verdict ok' : 'verdict bad'}
        data-verdict={verdict.ok ? 'ok' : 'failed'}
      >
        {verdict.ok
          ? `✔ All ${verdict.events.length} events verified`
          : `✘ Verification failed: ${failed.length} of ${verdict.events.length} events${verdict.checkpoint.ok ? '' : ' and the checkpoint'}`}
      </h2>
      <div role={verdict.ok ? 'status' : 'alert'} class={verdict.ok ? 'notice ok' : 'notice error'}>
        {failed.map((event) => (
          <p key={event.sequence}>
            Event #{event.sequence} failed: {event.reason}
          </p>
        ))}
        {!verdict.checkpoint.ok && <p>The checkpoint failed: {verdict.checkpoint.reason}</p>}
        {verdict.ok && <p>Checked in {Math.round(outcome.milliseconds)} ms, in this browser.</p>}
      </div>
      <dl class="fields">
        <div>
          <dt>Verifier key used</dt>
          <dd class="mono">
            {verdict.verifierKey} (
            {outcome.keySource === 'entered' ? 'the key you entered' : 'published by the server'})
          </dd>
        </div>
        <div>
          <dt>Checkpoint</dt>
          <dd>
            {verdict.checkpoint.origin}, size {verdict.checkpoint.treeSize ?? '?'}, root{' '}
            <span class="mono">{verdict.checkpoint.rootHash ?? '?'}</span>, signer key id{' '}
            <span class="mono">{verdict.checkpoint.keyId ?? '?'}</span>
          </dd>
        </div>
      </dl>
      <div class="actions">
        <button type="button" onClick={download}>
          Download verification bundle
        </button>
        {verdict.checkpoint.ok && <PinButton checkpoint={bundle.checkpoint} verdict={verdict.checkpoint} />}
        <a href={routeHref(['log'])}>Trusted key and pinned checkpoint</a>
      </div>
      <h2>Events</h2>
      <EventTimeline events={bundle.events as unknown as Schemas['LedgerEvent'][]} marks={marks} />
    </section>
  );
}
