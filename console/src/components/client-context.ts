/** The signed-in API client, for every view below the app shell. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api-client';

export const ClientContext = createContext<ApiClient | undefined>(undefined);

export function useClient(): ApiClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('No signed-in client');
  return client;
}
