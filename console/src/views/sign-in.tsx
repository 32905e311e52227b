/**
 * Sign-in: the key (a password field, never put in a URL) and whether to keep it for this tab.
 * The key says the rest (`GET /v2/me`): its company or App and what it may do.
 */
import { useState } from 'preact/hooks';
import { signInWith } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import type { Session } from '../session';
import { useAction } from '../use-action';

export function SignIn({
  apiBaseUrl,
  onSignIn,
}: {
  apiBaseUrl: string;
  onSignIn: (session: Session, remember: boolean) => void;
}) {
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const signIn = useAction(async () => {
    onSignIn(await signInWith(apiBaseUrl, apiKey.trim()), remember);
  });
  return (
    <main id="main">
      <h1>Sign in</h1>
      <p>
        Use a company's API key to browse and verify its objects (a read-only key is enough), or an App's key
        to manage its wallets. The console shows what the key may do, and nothing more. The key stays in this
        page's memory (or this tab's session storage if you tick the box) and is sent only to the API.
      </p>
      <form onSubmit={signIn.onSubmit} class="stack">
        <label>
          API key
          <input
            type="password"
            name="apiKey"
            autocomplete="off"
            required
            value={apiKey}
            onInput={(event) => setApiKey(event.currentTarget.value)}
          />
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          Stay signed in in this tab (session storage; cleared when the tab closes)
        </label>
        <button type="submit" disabled={signIn.busy || apiKey.trim() === ''}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorNotice error={signIn.error} />
    </main>
  );
}
