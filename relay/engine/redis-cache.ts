import { entryBytes, MemoryCache, PROTECTED_SHARE } from './memory-cache';
import type { RedisLink } from './redis-link';
import { CACHE_GET, CACHE_SET } from './redis-scripts';
import type { Cache, CacheEntry } from './types';

/** The memory copy of a process, served while Redis is away. */
const LOCAL_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * The history/symbols cache in Redis, with `MemoryCache`'s policy run as a script (bounded by
 * bytes, frequency-aware, least recently used first) and a TTL per entry; a small memory copy
 * serves while Redis is away.
 */
export class RedisCache implements Cache {
  readonly #local = new MemoryCache(LOCAL_CACHE_BYTES);

  readonly #link: RedisLink;
  readonly #ttlMs: number;
  readonly #maxBytes: number;

  constructor(link: RedisLink, ttlMs: number, maxBytes: number) {
    this.#link = link;
    this.#ttlMs = ttlMs;
    this.#maxBytes = maxBytes;
  }

  #script(script: string, key: string, more: (string | number)[]): Promise<unknown> {
    const { keys } = this.#link;
    const sets = [
      keys('cache-lru:probation'),
      keys('cache-lru:protected'),
      keys('cache-lru:sizes'),
      keys('cache-lru:stats'),
    ];
    return this.#link.run(script, sets, [keys('cache:'), key, this.#maxBytes, PROTECTED_SHARE, ...more]);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.#read(key, () => this.#script(CACHE_GET, key, []) as Promise<string | null>);
  }

  async peek(key: string): Promise<CacheEntry | undefined> {
    return this.#read(key, () => this.#link.cmd.get(this.#link.keys(`cache:${key}`)));
  }

  async #read(key: string, fetch: () => Promise<string | null>): Promise<CacheEntry | undefined> {
    try {
      const raw = await fetch();
      const entry = raw === null ? undefined : (JSON.parse(raw) as CacheEntry);
      if (entry) await this.#local.set(key, entry);
      return entry;
    } catch {
      return this.#local.peek(key);
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await this.#local.set(key, entry);
    const value = JSON.stringify(entry);
    const bytes = entryBytes(key, { body: value, storedAt: entry.storedAt });
    await this.#script(CACHE_SET, key, [value, bytes, this.#ttlMs]).catch(() => {});
  }
}
