/**
 * Sign-in: a person through the company's identity provider (when `config.json` names one), or
 * an API key for machines' operators (a password field, never put in a URL) and whether to keep
 * it for this tab. The credential says the rest (`GET /v2/me`): its company or App and what it
 * may do. When the provider sends the person back (`?code=&state=`), this page completes the
 * sign-in; when a person's sign-in has expired, it says so and offers to sign in again.
 */
import { useEffect, useState } from 'preact/hooks';
import { signInWith } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import type { SignInConfig } from '../config';
import {
  addressWithoutCallback,
  authorizationUrl,
  completePersonSignIn,
  isSignInCallback,
} from '../person-sign-in';
import type { Credential, Session } from '../session';
import { useAction } from '../use-action';

export function SignIn({
  apiBaseUrl,
  signInConfig,
  expired,
  onSignIn,
}: {
  apiBaseUrl: string;
  signInConfig?: SignInConfig;
  /** A person's sign-in has just expired. */
  expired: boolean;
  onSignIn: (session: Session, remember: boolean) => void;
}) {
  return (
    <main id="main">
      <h1>Sign in</h1>
      {signInConfig && (
        <PersonSignIn apiBaseUrl={apiBaseUrl} config={signInConfig} expired={expired} onSignIn={onSignIn} />
      )}
      <KeySignIn apiBaseUrl={apiBaseUrl} withPeople={signInConfig !== undefined} onSignIn={onSignIn} />
    </main>
  );
}

function PersonSignIn({
  apiBaseUrl,
  config,
  expired,
  onSignIn,
}: {
  apiBaseUrl: string;
  config: SignInConfig;
  expired: boolean;
  onSignIn: (session: Session, remember: boolean) => void;
}) {
  const start = useAction(async () =>
    location.assign(await authorizationUrl(config, new URL(location.href))),
  );
  const complete = useAction(async () => {
    const callbackUrl = new URL(location.href);
    let credential: Credential;
    try {
      credential = await completePersonSignIn(config, callbackUrl);
    } finally {
      // The code and state served once: they leave the address bar, whatever the outcome.
      history.replaceState(history.state, '', addressWithoutCallback(callbackUrl));
    }
    onSignIn(await signInWith(apiBaseUrl, credential), false);
  });
  // The provider's answer arrives as this page's address, once.
  useEffect(() => {
    if (isSignInCallback(new URL(location.href))) void complete.run();
  }, []);
  return (
    <section aria-labelledby="person-sign-in-title">
      <h2 id="person-sign-in-title">People: your company's account</h2>
      {expired && (
        <div class="notice warning" role="alert">
          <p>
            <strong>Your sign-in has expired.</strong> Sign in again to go on.
          </p>
        </div>
      )}
      <p>
        Sign in with your company's identity provider: the console shows what your role may do. Your sign-in
        lasts as long as the provider's token and is kept in this page's memory only, so a reload or a new tab
        asks you to sign in again.
      </p>
      <p>
        <button type="button" onClick={() => void start.run()} disabled={start.busy || complete.busy}>
          {complete.busy ? 'Signing in…' : expired ? 'Sign in again' : "Sign in with your company's account"}
        </button>
      </p>
      <ErrorNotice error={start.error ?? complete.error} />
    </section>
  );
}

function KeySignIn({
  apiBaseUrl,
  withPeople,
  onSignIn,
}: {
  apiBaseUrl: string;
  /** People may sign in too: this form is then for machines' operators. */
  withPeople: boolean;
  onSignIn: (session: Session, remember: boolean) => void;
}) {
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const signIn = useAction(async () => {
    onSignIn(await signInWith(apiBaseUrl, { kind: 'apiKey', apiKey: apiKey.trim() }), remember);
  });
  return (
    <section aria-labelledby={withPeople ? 'key-sign-in-title' : undefined}>
      {withPeople && <h2 id="key-sign-in-title">Machines' operators: sign in with a key</h2>}
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
    </section>
  );
}
