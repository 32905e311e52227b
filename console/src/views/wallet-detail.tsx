/** One wallet with its stats; suspend and delete, each after a confirmation. */
import { useState } from 'preact/hooks';
import { dataOf } from '../api-client';
import { useClient } from '../components/client-context';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { navigate, routeHref, setFlash, takeFlash } from '../router';
import { useRequest } from '../use-request';

export function WalletDetailView({ walletId }: { walletId: string }) {
  const client = useClient();
  const path = { params: { path: { walletId } } };
  const wallet = useRequest(() => dataOf(client.api.GET('/v2/wallets/{walletId}', path)), [walletId]);
  const [notice, setNotice] = useState(takeFlash);
  const shown = wallet.data;
  return (
    <main id="main">
      <p>
        <a href={routeHref(['wallets'])}>← Wallets</a>
      </p>
      <ErrorNotice error={wallet.error} />
      {notice && (
        <p class="notice ok" role="status">
          {notice}
        </p>
      )}
      {shown && (
        <>
          <h1>{shown.fullUsername ?? shown.username}</h1>
          <dl class="fields">
            {(
              [
                ['Id', shown.id],
                ['Username', shown.username],
                ['Status', shown.status],
                ['Created', shown.createdAt],
                ['Updated', shown.updatedAt],
                ['Last login', shown.lastLoginAt ?? 'never'],
                ['Logins', String(shown.stats?.loginCount ?? 0)],
                ['API calls', String(shown.stats?.apiCallCount ?? 0)],
                ['Last API call', shown.stats?.lastApiCallAt ?? 'never'],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <h2>Metadata</h2>
          <pre class="json">{JSON.stringify(shown.metadata, null, 2)}</pre>
          <div class="actions">
            {shown.status !== 'suspended' && (
              <ConfirmButton
                label="Suspend wallet"
                question={`Suspend ${shown.username}? Its sessions end at once.`}
                confirmLabel="Yes, suspend"
                onConfirm={async () => {
                  await dataOf(
                    client.api.PUT('/v2/wallets/{walletId}', { ...path, body: { status: 'suspended' } }),
                  );
                  setNotice(`${shown.username} is suspended.`);
                  wallet.reload();
                }}
              />
            )}
            <ConfirmButton
              label="Delete wallet"
              question={`Delete ${shown.username}? It can no longer log in; this cannot be undone.`}
              confirmLabel="Yes, delete"
              onConfirm={async () => {
                await dataOf(client.api.DELETE('/v2/wallets/{walletId}', path));
                setFlash(`${shown.username} is deleted.`);
                navigate(['wallets']);
              }}
            />
          </div>
        </>
      )}
    </main>
  );
}
