/**
 * Runs what a button or a form does: busy while it runs (to disable the control), and its
 * failure kept to be shown (by `ErrorNotice`), never swallowed.
 */
import { useState } from 'preact/hooks';

interface ActionState {
  busy: boolean;
  error?: unknown;
  /** Runs the action; a failure is kept in `error`, not thrown. */
  run: () => Promise<void>;
  /** A form's `onSubmit`: runs the action instead of sending the form. */
  onSubmit: (event: Event) => void;
}

export function useAction(action: () => Promise<void>): ActionState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void run();
  };
  return { busy, error, run, onSubmit };
}
