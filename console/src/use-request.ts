/**
 * Loads data for a view: the result, the error (shown by `ErrorNotice`) and a reload. A newer
 * request replaces an older one's response, so quick filter changes never show stale rows.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface RequestState<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  reload: () => void;
}

export function useRequest<T>(load: () => Promise<T>, dependencies: unknown[]): RequestState<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const latest = useRef(0);
  // The caller names what the load depends on (`dependencies`), as with useEffect.
  const run = useCallback(() => {
    const ticket = ++latest.current;
    setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => ticket === latest.current && setState({ data, loading: false }),
      (error: unknown) => ticket === latest.current && setState({ error, loading: false }),
    );
  }, dependencies);
  useEffect(run, [run]);
  return { ...state, reload: run };
}
