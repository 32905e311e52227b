/**
 * "Verify" on an object, in place (the object's page, and the `#/objects/<id>/verify` deep
 * link): fetches its bundle in one request (its events, their proofs against one checkpoint,
 * the checkpoint and the key: `GET /v2/objects/{objectId}/bundle`, as of the instant shown when
 * there is one), then checks everything in this browser with the shared verifier module
 * (`verifier/`, the offline auditor's code), showing its progress. Each event shows verified or
 * failed with the reason; with a witness policy entered (on the log page), the checkpoint must
 * also be cosigned to its quorum, and the verdict names the witnesses that cosigned and those
 * missing. The bundle can be downloaded for the offline verifier, beside Verify (without
 * checking it) or after it (the bundle checked).
 */
import { useState } from 'preact/hooks';
import { type BundleVerdict, type LedgerBundle, verifyBundle } from '../../../verifier/index';
import type { Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { fetchBundle } from '../ledger/ledger-client';
import { trustedVerifierKey, witnessPolicy } from '../ledger/trust';
import { routeHref } from '../router';
import { useAction } from '../use-action';
import { EventTimeline } from './event-timeline';
import { PinButton } from './pin-button';

/** Where a verification is: the bundle arriving (bytes so far), then its events checked. */
type Progress =
  | { step: 'fetching'; receivedBytes: number }
  | { step: 'checking'; checked: number; total: number };

/** How often the checking progress is shown: every event would cost a render each (1,000 for a long history). */
const CHECKING_PROGRESS_EVERY = 50;

/** Offers a bundle as a JSON file download. */
function saveBundle(bundle: LedgerBundle, objectId: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
  link.download = `ledger-bundle-${objectId}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

interface Outcome {
  bundle: LedgerBundle;
  verdict: BundleVerdict;
  /** Whose log key was trusted: the visitor's, the policy's `log` lines, or the server's. */
  keySource: 'entered' | 'policy' | 'server';
  milliseconds: number;
}

const KEY_SOURCES: Record<Outcome['keySource'], string> = {
  entered: 'the key you entered',
  policy: 'a log key of your witness policy',
  server: 'published by the server',
};

const progressText = (progress: Progress): string =>
  progress.step === 'fetching'
    ? `Fetching the bundle: ${Math.round(progress.receivedBytes / 1024)} KB received`
    : `Checked ${progress.checked} of ${progress.total} events`;

/**
 * Verify and Download bundle for one object, the progress line and the verdict. `titleLevel`
 * is the heading level of its title (1 on a page of its own, 2 on the object's page); the
 * verdict sits one level below. Key it by object and `asOf`, so that a new state starts afresh.
 *
 * @example
 * <ObjectVerification key={`${objectId}:${asOf}`} objectId={objectId} asOf={asOf} titleLevel={2} />
 */
export function ObjectVerification({
  objectId,
  asOf,
  titleLevel,
}: {
  objectId: string;
  /** The instant (ISO 8601) whose state is shown; the bundle then holds the events up to it. */
  asOf?: string;
  titleLevel: 1 | 2;
}) {
  const client = useClient();
  const [progress, setProgress] = useState<Progress>();
  const [outcome, setOutcome] = useState<Outcome>();
  const verification = useAction(async () => {
    setOutcome(undefined);
    setProgress(undefined);
    const started = performance.now();
    const bundle = await fetchBundle(client, objectId, {
      asOf,
      onProgress: (receivedBytes) => setProgress({ step: 'fetching', receivedBytes }),
    });
    const entered = trustedVerifierKey();
    const policy = await witnessPolicy();
    // A policy that names its logs replaces the server's key; a key entered by hand comes first.
    const keySource = entered ? 'entered' : policy?.logs.length ? 'policy' : 'server';
    const verdict = await verifyBundle(
      bundle,
      { verifierKey: entered ?? (keySource === 'server' ? bundle.verifierKey : undefined), policy },
      (checked, total) => {
        if (checked % CHECKING_PROGRESS_EVERY === 0 || checked === total)
          setProgress({ step: 'checking', checked, total });
      },
    );
    setOutcome({ bundle, verdict, keySource, milliseconds: performance.now() - started });
  });
  const download = useAction(async () => saveBundle(await fetchBundle(client, objectId, { asOf }), objectId));
  const running = verification.busy;
  const Title = titleLevel === 1 ? 'h1' : 'h2';
  return (
    // Before a verdict there is nothing to print: the section is controls only.
    <section aria-labelledby="verify-title" class={outcome ? 'verification' : 'verification no-print'}>
      <Title id="verify-title">Verify in this browser</Title>
      <p>
        Fetches the object's bundle ({asOf ? `its events up to ${asOf}` : 'every event'}, each event's
        inclusion proof and the signed checkpoint, in one request) and checks it here: each event's hash and
        link to the one before, each proof against the checkpoint's root, the checkpoint's signature and, when
        you entered a witness policy, the witnesses' cosignatures. It does not take the server's word for any
        of it.
      </p>
      <div class="actions">
        <button type="button" onClick={verification.run} disabled={running}>
          {running ? 'Verifying…' : outcome ? 'Verify again' : 'Verify'}
        </button>
        <button type="button" onClick={download.run} disabled={download.busy}>
          {download.busy ? 'Downloading…' : 'Download bundle'}
        </button>
      </div>
      {/* Always in the page, so that screen readers announce each change of its text; its last
          line ("Checked 5 of 5 events") stays beside the verdict. */}
      <p role="status" class="progress">
        {progress ? progressText(progress) : ''}
      </p>
      <ErrorNotice error={verification.error ?? download.error} />
      {outcome && <VerifyOutcome outcome={outcome} objectId={objectId} level={titleLevel === 1 ? 2 : 3} />}
    </section>
  );
}

function VerifyOutcome({ outcome, objectId, level }: { outcome: Outcome; objectId: string; level: 2 | 3 }) {
  const { verdict, bundle } = outcome;
  const { witnesses } = verdict;
  const Heading = level === 2 ? 'h2' : 'h3';
  const failed = verdict.events.filter((event) => !event.ok);
  const failures = [
    ...(failed.length > 0 ? [`${failed.length} of ${verdict.events.length} events`] : []),
    ...(verdict.checkpoint.ok ? [] : ['the checkpoint']),
    ...(witnesses?.ok === false ? ['the witness policy'] : []),
  ];
  const marks = new Map(
    verdict.events.map((event) => [event.sequence, { ok: event.ok, reason: event.reason }]),
  );
  return (
    <div>
      <Heading class={verdict.ok ? 'verdict ok' : 'verdict bad'} data-verdict={verdict.ok ? 'ok' : 'failed'}>
        {verdict.ok
          ? `✔ All ${verdict.events.length} events verified`
          : `✘ Verification failed: ${failures.join(' and ')}`}
      </Heading>
      <div role={verdict.ok ? 'status' : 'alert'} class={verdict.ok ? 'notice ok' : 'notice error'}>
        {failed.map((event) => (
          <p key={event.sequence}>
            Event #{event.sequence} failed: {event.reason}
          </p>
        ))}
        {!verdict.checkpoint.ok && <p>The checkpoint failed: {verdict.checkpoint.reason}</p>}
        {witnesses?.ok === false && <p>The witness policy is not met: {witnesses.reason}</p>}
        {verdict.ok && <p>Checked in {Math.round(outcome.milliseconds)} ms, in this browser.</p>}
      </div>
      <dl class="fields">
        <div>
          <dt>Verifier key used</dt>
          <dd class="mono">
            {verdict.verifierKey || '?'} ({KEY_SOURCES[outcome.keySource]})
          </dd>
        </div>
        <div>
          <dt>Witnesses</dt>
          <dd data-witnesses={witnesses ? (witnesses.ok ? 'met' : 'not-met') : 'no-policy'}>
            {witnesses
              ? `Cosigned by ${witnesses.cosigned.join(', ') || 'none of your witnesses'}; missing ${witnesses.missing.join(', ') || 'none'}. ${witnesses.ok ? 'Your quorum is met.' : 'Your quorum is not met.'}`
              : verdict.checkpoint.ok
                ? 'No witness policy entered: cosignatures are not checked.'
                : 'Not checked: the checkpoint does not verify.'}
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
        <button type="button" onClick={() => saveBundle(bundle, objectId)}>
          Download verification bundle
        </button>
        {verdict.checkpoint.ok && witnesses?.ok !== false && (
          <PinButton checkpoint={bundle.checkpoint} verdict={verdict.checkpoint} />
        )}
        <a class="no-print" href={routeHref(['log'])}>
          Trusted key, witness policy and pinned checkpoint
        </a>
      </div>
      {/* Open when something failed, so that the red events are in sight; closed otherwise. */}
      <details open={!verdict.ok}>
        <summary>Each event as checked ({verdict.events.length})</summary>
        <EventTimeline events={bundle.events as unknown as Schemas['LedgerEvent'][]} marks={marks} />
      </details>
    </div>
  );
}
