/**
 * The app shell: sign-in (a key, or a person through the company's identity provider), who is
 * signed in, navigation by what the caller may do (`GET /v2/me`'s permissions: a section the
 * caller may not read is neither shown nor asked for), and the view of the route. A person's
 * sign-in ends when the ID token expires or the API answers 401 to it: the page then says so.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { createApiClient } from './api-client';
import { ClientContext } from './components/client-context';
import { PinCheck } from './components/pin-check';
import type { SignInConfig } from './config';
import { endSessionUrl } from './person-sign-in';
import { type Route, routeHref, useRoute } from './router';
import { can, restoreSession, type Session, storeSession } from './session';
import { watchExpiry } from './sign-in-expiry';
import { ActivityView } from './views/activity';
import { CategoriesView } from './views/categories';
import { CategoryView } from './views/category';
import { LedgerLogView } from './views/ledger-log';
import { ObjectDetailView } from './views/object-detail';
import { ObjectsView } from './views/objects';
import { SignIn } from './views/sign-in';
import { VerifyView } from './views/verify';
import { WalletDetailView } from './views/wallet-detail';
import { WalletsView } from './views/wallets';

interface Section {
  label: string;
  segment: string;
  /** Whether the key may read what the section shows. */
  allowed: (session: Session) => boolean;
}

const SECTIONS: Record<Session['kind'], Section[]> = {
  company: [
    { label: 'Categories', segment: 'categories', allowed: (session) => can(session, 'categories:read') },
    { label: 'Objects', segment: 'objects', allowed: (session) => can(session, 'objects:read') },
    { label: 'Activity', segment: 'activity', allowed: (session) => can(session, 'objects:read') },
    // The log's reads are open to any key.
    { label: 'Log', segment: 'log', allowed: () => true },
  ],
  app: [{ label: 'Wallets', segment: 'wallets', allowed: (session) => can(session, 'wallets:read') }],
};

/** The sections the session's key may read, in the navigation's order. */
const sectionsOf = (session: Session): Section[] =>
  SECTIONS[session.kind].filter((section) => section.allowed(session));

/** Who is signed in, as the header says it: a person's name and role, or a key's label. */
function signedInAs(session: Session): string | undefined {
  const person = session.me.person;
  if (person) return `${person.name ?? person.principal} (${person.role})`;
  return session.me.label ?? undefined;
}

export function App({ apiBaseUrl, signInConfig }: { apiBaseUrl: string; signInConfig?: SignInConfig }) {
  const [session, setSession] = useState<Session | undefined>(restoreSession);
  // A person's sign-in has expired: the sign-in page says so.
  const [expired, setExpired] = useState(false);
  const route = useRoute();
  // Bumped when the trusted key or the pin changes, so that the pin check runs again.
  const [trustGeneration, setTrustGeneration] = useState(0);
  const expire = useCallback(() => {
    setSession(undefined);
    setExpired(true);
  }, []);
  const client = useMemo(
    () => (session ? createApiClient(apiBaseUrl, session, expire) : undefined),
    [apiBaseUrl, session, expire],
  );
  useEffect(() => (session ? watchExpiry(session.credential, expire) : undefined), [session, expire]);
  const signIn = (next: Session, remember: boolean) => {
    storeSession(next, remember);
    setExpired(false);
    setSession(next);
    location.hash = routeHref([sectionsOf(next)[0]?.segment ?? '']);
  };
  /** Forgets the credential; a person is also signed out at the provider when it offers that. */
  const signOut = async () => {
    const credential = session?.credential;
    storeSession(undefined, false);
    setSession(undefined);
    setExpired(false);
    if (credential?.kind !== 'idToken' || !signInConfig) return;
    const providerSignOut = await endSessionUrl(signInConfig, new URL(location.href)).catch(() => undefined);
    if (providerSignOut) location.assign(providerSignOut);
  };
  const who = session && signedInAs(session);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Asset Registry console</span>
        {session && (
          <nav aria-label="Main">
            {who && <span class="signed-in">Signed in as {who}</span>}
            {sectionsOf(session).map((item) => (
              <a
                key={item.segment}
                href={routeHref([item.segment])}
                aria-current={route.segments[0] === item.segment ? 'page' : undefined}
              >
                {item.label}
              </a>
            ))}
            <button type="button" onClick={() => void signOut()}>
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
            session={session}
            onTrustChange={() => setTrustGeneration((n) => n + 1)}
          />
        </ClientContext.Provider>
      ) : (
        <SignIn apiBaseUrl={apiBaseUrl} signInConfig={signInConfig} expired={expired} onSignIn={signIn} />
      )}
    </>
  );
}

function CurrentView({
  route,
  session,
  onTrustChange,
}: {
  route: Route;
  session: Session;
  onTrustChange: () => void;
}) {
  const [section = '', id, action] = route.segments;
  const sections = sectionsOf(session);
  // A route the key may not read (a bookmark, a link) shows the first section it may.
  const shown = sections.find((item) => item.segment === section)?.segment ?? sections[0]?.segment;
  if (shown === undefined)
    return (
      <main id="main">
        <h1>Nothing to show</h1>
        <p>
          This key or role has no permission that the console can use (
          {session.me.permissions.join(', ') || 'none'}).
        </p>
      </main>
    );
  if (shown === 'wallets') return id ? <WalletDetailView walletId={id} /> : <WalletsView route={route} />;
  if (shown === 'log') return <LedgerLogView onTrustChange={onTrustChange} />;
  if (shown === 'activity') return <ActivityView route={route} />;
  if (shown === 'objects' && id && action === 'verify') return <VerifyView objectId={id} />;
  if (shown === 'objects' && id) return <ObjectDetailView objectId={id} route={route} />;
  if (shown === 'objects') return <ObjectsView route={route} />;
  if (section === 'categories' && id) return <CategoryView categoryId={id} />;
  return <CategoriesView route={route} />;
}
