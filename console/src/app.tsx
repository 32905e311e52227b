/** The app shell: sign-in, navigation by key kind, and the view of the current route. */
import { useMemo, useState } from 'preact/hooks';
import { createApiClient } from './api-client';
import { ClientContext } from './components/client-context';
import { PinCheck } from './components/pin-check';
import { type Route, routeHref, useRoute } from './router';
import { restoreSession, type Session, storeSession } from './session';
import { CategoriesView } from './views/categories';
import { LedgerLogView } from './views/ledger-log';
import { ObjectDetailView } from './views/object-detail';
import { ObjectsView } from './views/objects';
import { SignIn } from './views/sign-in';
import { VerifyView } from './views/verify';
import { WalletDetailView } from './views/wallet-detail';
import { WalletsView } from './views/wallets';

const NAVIGATION: Record<Session['kind'], { label: string; segment: string }[]> = {
  company: [
    { label: 'Categories', segment: 'categories' },
    { label: 'Objects', segment: 'objects' },
    { label: 'Log', segment: 'log' },
  ],
  app: [{ label: 'Wallets', segment: 'wallets' }],
};

export function App({ apiBaseUrl }: { apiBaseUrl: string }) {
  const [session, setSession] = useState<Session | undefined>(restoreSession);
  const route = useRoute();
  // Bumped when the trusted key or the pin changes, so that the pin check runs again.
  const [trustGeneration, setTrustGeneration] = useState(0);
  const client = useMemo(
    () => (session ? createApiClient(apiBaseUrl, session) : undefined),
    [apiBaseUrl, session],
  );
  const signIn = (next: Session, remember: boolean) => {
    storeSession(next, remember);
    setSession(next);
    location.hash = routeHref([NAVIGATION[next.kind][0]?.segment ?? '']);
  };
  const signOut = () => {
    storeSession(undefined, false);
    setSession(undefined);
  };
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Asset Registry console</span>
        {session && (
          <nav aria-label="Main">
            {NAVIGATION[session.kind].map((item) => (
              <a
                key={item.segment}
                href={routeHref([item.segment])}
                aria-current={route.segments[0] === item.segment ? 'page' : undefined}
              >
                {item.label}
              </a>
            ))}
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      {client && session ? (
        <ClientContext.Provider value={client}>
          {session.kind === 'company' && <PinCheck generation={trustGeneration} />}
          <CurrentView
            route={route}
            kind={session.kind}
            onTrustChange={() => setTrustGeneration((n) => n + 1)}
          />
        </ClientContext.Provider>
      ) : (
        <SignIn apiBaseUrl={apiBaseUrl} onSignIn={signIn} />
      )}
    </>
  );
}

function CurrentView({
  route,
  kind,
  onTrustChange,
}: {
  route: Route;
  kind: Session['kind'];
  onTrustChange: () => void;
}) {
  const [section, id, action] = route.segments;
  if (kind === 'app') return id ? <WalletDetailView walletId={id} /> : <WalletsView route={route} />;
  if (section === 'objects' && id && action === 'verify') return <VerifyView objectId={id} />;
  if (section === 'log') return <LedgerLogView onTrustChange={onTrustChange} />;
  if (section === 'objects' && id) return <ObjectDetailView objectId={id} />;
  if (section === 'objects') return <ObjectsView route={route} />;
  return <CategoriesView route={route} />;
}
