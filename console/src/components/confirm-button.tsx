/**
 * A button whose action runs only after a second, explicit confirmation; focus moves to the
 * confirmation so that keyboard users land on it. Failures are shown, never swallowed.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useAction } from '../use-action';
import { ErrorNotice } from './error-notice';

export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // A layout effect moves the focus in the same commit that shows the confirmation: with a
  // plain effect there is a moment when the confirmation is shown but the focus is nowhere,
  // and a quick Enter is lost.
  useLayoutEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const confirm = useAction(async () => {
    await props.onConfirm();
    setAsking(false);
  });
  if (!asking)
    return (
      <span>
        <button type="button" onClick={() => setAsking(true)}>
          {props.label}
        </button>
        <ErrorNotice error={confirm.error} />
      </span>
    );
  return (
    <fieldset class="confirm">
      <legend>{props.question}</legend>
      <button type="button" class="danger" ref={confirmRef} disabled={confirm.busy} onClick={confirm.run}>
        {props.confirmLabel}
      </button>{' '}
      <button type="button" disabled={confirm.busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorNotice error={confirm.error} />
    </fieldset>
  );
}
