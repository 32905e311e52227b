/** An App's wallets (spec 4.11-4.15): list with filters, create, and a link to each detail. */
import { useState } from 'preact/hooks';
import type { Page } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { FilterForm } from '../components/filter-form';
import { CursorRefused, Pagination } from '../components/pagination';
import type { Route } from '../router';
import { navigate, routeHref, setFlash, takeFlash } from '../router';
import { useRequest } from '../use-request';
import { listRoute } from './list-route';

export interface Wallet {
  id: string;
  username: string;
  fullUsername?: string;
  status: string;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastLoginAt: string | null;
  stats?: { loginCount: number; apiCallCount: number; lastApiCallAt: string | null };
}

export function WalletsView({ route }: { route: Route }) {
  const client = useClient();
  const list = listRoute(route, { status: 'active', username: '', sort: 'createdAt:desc' });
  const query = list.key;
  const wallets = useRequest(() => client.get<Page<Wallet>>('v2/wallets', list.query(20)), [query]);
  const [flash] = useState(takeFlash);
  return (
    <main id="main">
      <h1>Wallets</h1>
      {flash && (
        <p class="notice ok" role="status">
          {flash}
        </p>
      )}
      <CreateWallet onCreated={(wallet) => navigate(['wallets', wallet.id])} />
      <h2>All wallets</h2>
      <FilterForm
        key={query}
        values={list.values}
        onApply={list.applyFilters}
        fields={[
          { name: 'username', label: 'Username contains', kind: 'text' },
          {
            name: 'status',
            label: 'Status',
            kind: 'select',
            options: ['active', 'inactive', 'suspended', 'all'],
          },
          {
            name: 'sort',
            label: 'Sort',
            kind: 'select',
            options: ['createdAt:desc', 'createdAt:asc', 'username:asc', 'username:desc'],
          },
        ]}
      />
      <ErrorNotice error={wallets.error} />
      <CursorRefused error={wallets.error} firstPageHref={list.firstPageHref} />
      {wallets.data && (
        <>
          <table>
            <caption class="visually-hidden">Wallets</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last login</th>
              </tr>
            </thead>
            <tbody>
              {wallets.data.data.map((wallet) => (
                <tr key={wallet.id}>
                  <td>
                    <a href={routeHref(['wallets', wallet.id])}>{wallet.fullUsername ?? wallet.username}</a>
                  </td>
                  <td>{wallet.status}</td>
                  <td>{wallet.createdAt}</td>
                  <td>{wallet.lastLoginAt ?? 'never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {wallets.data.data.length === 0 && <p>No wallet matches.</p>}
          <Pagination
            label="Wallets"
            page={wallets.data.pagination}
            onNext={list.goToNext}
            onPrevious={list.goToPrevious}
          />
        </>
      )}
    </main>
  );
}

function CreateWallet({ onCreated }: { onCreated: (wallet: Wallet) => void }) {
  const client = useClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await client.json<Wallet>('POST', 'v2/wallets', { body: { username, password } });
      setFlash(`Wallet ${created.username} is created.`);
      onCreated(created);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack narrow" onSubmit={submit} aria-labelledby="create-wallet-title">
      <h2 id="create-wallet-title">Create a wallet</h2>
      <label>
        Username
        <input
          name="username"
          autocomplete="off"
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
      </label>
      <label>
        Password (at least 8 characters)
        <input
          name="password"
          type="password"
          autocomplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Create wallet
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
