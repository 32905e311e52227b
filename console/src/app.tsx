/** The app shell: sign-in, navigation by key kind, and the view of the current route. */
import { useMemo, useState } from 'preact/hooks';
import { ApiClient } from './api-client';
import { ClientContext } from './components/client-context';
import { type Route, routeHref, useRoute } from './router';
import { restoreSession, type Session, storeSession } from './session';
import { CategoriesView } from './views/categories';
import { ObjectDetailView } from './views/object-detail';
import { ObjectsView } from './views/objects';
import { SignIn } from './views/sign-in';
import { WalletDetailView } from './views/wallet-detail';
import { WalletsView } from './views/wallets';

const NAVIGATION: Record<Session['kind'], { label: string; segment: string }[]> = {
  company: [
    { label: 'Categories', segment: 'categories' },
    { label: 'Objects', segment: 'objects' },
  ],
  app: [{ label: 'Wallets', segment: 'wallets' }],
};

export function App({ apiBaseUrl }: { apiBaseUrl: string }) {
  const [session, setSession] = useState<Session | undefined>(restoreSession);
  const route = useRoute();
  const client = useMemo(
    () => (session ? new ApiClient(apiBaseUrl, session) : undefined),
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
          <CurrentView route={route} kind={session.kind} />
        </ClientContext.Provider>
      ) : (
        <SignIn apiBaseUrl={apiBaseUrl} onSignIn={signIn} />
      )}
    </>
  );
}

function CurrentView({ route, kind }: { route: Route; kind: Session['kind'] }) {
  const [section, id] = route.segments;
  if (kind === 'app') return id ? <WalletDetailView walletId={id} /> : <WalletsView route={route} />;
  if (section === 'objects' && id) return <ObjectDetailView objectId={id} />;
  if (section === 'objects') return <ObjectsView route={route} />;
  return <CategoriesView route={route} />;
}
