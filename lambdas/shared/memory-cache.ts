/**
 * A small time-bounded cache in the authorizer's memory (one per warm Lambda container). API
 * Gateway's own authorizer cache is off (it cannot key on "X-API-Key or Authorization"), so this
 * saves a table read per request for credentials seen in the last few seconds. Entries are
 * keyed by a SHA-256 of the credential, never the credential itself; only successful lookups
 * are kept, and the oldest entry goes first once `maxEntries` is reached.
 */
export interface MemoryCacheOptions {
  ttlMs: number;
  maxEntries: number;
}

export class MemoryCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly options: MemoryCacheOptions) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: now + this.options.ttlMs });
  }

  /** The cached value, else what `load` finds (kept when it finds one; a miss is not kept). */
  async getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const loaded = await load();
    if (loaded !== undefined) this.set(key, loaded);
    return loaded;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
