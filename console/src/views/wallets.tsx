/** An App's wallets (spec 4.11-4.15): list with filters, create, and a link to each detail. */
import { useState } from 'preact/hooks';
import { dataOf, type Schemas } from '../api-client';
import { useClient } from '../components/client-context';
import { ErrorNotice } from '../components/error-notice';
import { FilterForm } from '../components/filter-form';
import { PagedList } from '../components/paged-list';
import type { Route } from '../router';
import { navigate, routeHref, setFlash, takeFlash } from '../router';
import { useAction } from '../use-action';
import { useRoutedList } from './list-route';

export function WalletsView({ route }: { route: Route }) {
  const { list, page: wallets } = useRoutedList(route, '/v2/wallets', {
    status: 'active',
    username: '',
    sort: 'createdAt:desc',
  });
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
        list={list}
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
      <PagedList
        label="Wallets"
        request={wallets}
        empty="No wallet matches."
        pages={list}
        rowKey={(wallet) => wallet.id}
        columns={[
          {
            header: 'Username',
            cell: (wallet) => (
              <a href={routeHref(['wallets', wallet.id])}>{wallet.fullUsername ?? wallet.username}</a>
            ),
          },
          { header: 'Status', cell: (wallet) => wallet.status },
          { header: 'Created', cell: (wallet) => wallet.createdAt },
          { header: 'Last login', cell: (wallet) => wallet.lastLoginAt ?? 'never' },
        ]}
      />
    </main>
  );
}

function CreateWallet({ onCreated }: { onCreated: (wallet: Schemas['Wallet']) => void }) {
  const client = useClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const create = useAction(async () => {
    const created = await dataOf(client.api.POST('/v2/wallets', { body: { username, password } }));
    setFlash(`Wallet ${created.username} is created.`);
    onCreated(created);
  });
  return (
    <form class="stack narrow" onSubmit={create.onSubmit} aria-labelledby="create-wallet-title">
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
      <button type="submit" disabled={create.busy}>
        Create wallet
      </button>
      <ErrorNotice error={create.error} />
    </form>
  );
}
