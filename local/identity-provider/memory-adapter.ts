/**
 * Where the local identity provider keeps its sessions, interactions, codes and grants: in this
 * process's memory, as `oidc-provider`'s own development adapter does (a restart signs people out
 * of the provider; the ID tokens already issued stay valid, their signing key being kept). Ours
 * only so that the library does not warn, at each start, that its development adapter is in use.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface StoredPayload {
  payload: AdapterPayload;
  /** Epoch milliseconds; undefined: kept until removed. */
  expiresAt?: number;
}

/** Every model's items, by `<model>:<id>`: a local provider holds a few dozen at most. */
type Store = Map<string, StoredPayload>;

function live(store: Store, key: string): AdapterPayload | undefined {
  const stored = store.get(key);
  if (stored?.expiresAt !== undefined && stored.expiresAt <= Date.now()) {
    store.delete(key);
    return undefined;
  }
  return stored?.payload;
}

function removeExpired(store: Store): void {
  for (const key of [...store.keys()]) live(store, key);
}

function firstWhere(store: Store, model: string, matches: (payload: AdapterPayload) => boolean) {
  for (const key of store.keys()) {
    const payload = key.startsWith(`${model}:`) ? live(store, key) : undefined;
    if (payload && matches(payload)) return payload;
  }
  return undefined;
}

class MemoryAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: Store,
  ) {}

  private key(id: string) {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    removeExpired(this.store);
    const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : undefined;
    this.store.set(this.key(id), { payload, expiresAt });
  }

  async find(id: string) {
    return live(this.store, this.key(id));
  }

  async findByUid(uid: string) {
    return firstWhere(this.store, this.model, (payload) => payload.uid === uid);
  }

  async findByUserCode(userCode: string) {
    return firstWhere(this.store, this.model, (payload) => payload.userCode === userCode);
  }

  async consume(id: string): Promise<void> {
    const payload = live(this.store, this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.key(id));
  }

  /** A grant revoked takes its codes and tokens with it, whatever their model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, stored] of [...this.store]) {
      if (stored.payload.grantId === grantId) this.store.delete(key);
    }
  }
}

/** The adapter factory of one provider (`adapter` in its configuration). */
export function memoryAdapter(): (model: string) => Adapter {
  const store: Store = new Map();
  return (model) => new MemoryAdapter(model, store);
}
