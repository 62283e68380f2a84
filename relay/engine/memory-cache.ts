/** The history/symbols cache of one process (see `redis-cache.ts`, which runs the same policy in Redis). */
import type { Cache, CacheEntry } from './types';

/** What an entry costs the byte bound: its key and body as UTF-8, plus a fixed overhead. */
export function entryBytes(key: string, entry: CacheEntry): number {
  return Buffer.byteLength(key) + Buffer.byteLength(entry.body) + ENTRY_OVERHEAD;
}
/** Bytes counted per entry beside its key and body (the Map slots and the entry object). */
const ENTRY_OVERHEAD = 100;
/** The default byte bound of the history/symbols cache. */
export const CACHE_BYTES = 32 * 1024 * 1024;
/** The share of the bytes kept for entries hit again after they were stored. */
export const PROTECTED_SHARE = 0.8;

/**
 * A segmented LRU bounded by bytes (DESIGN.md §7.1): an entry starts on probation; a hit there
 * moves it to the protected segment (at most `PROTECTED_SHARE` of the bytes, its least recently
 * used demoted back to probation). Eviction takes probation's least recently used first, so keys
 * asked for once (a botnet's spans) only churn probation and never evict what visitors hit again.
 * The Redis engine runs the same policy as a script (`lua/cache-*.lua`).
 */
export class MemoryCache implements Cache {
  // A Map keeps insertion order: re-inserting on a hit makes the first key the least recently used.
  readonly #probation = new Map<string, { entry: CacheEntry; bytes: number }>();
  readonly #kept = new Map<string, { entry: CacheEntry; bytes: number }>();
  #probationBytes = 0;
  #keptBytes = 0;

  readonly #maxBytes: number;

  constructor(maxBytes = CACHE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held (keys, bodies and overhead). */
  get bytes(): number {
    return this.#probationBytes + this.#keptBytes;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept.entry;
    }
    const held = this.#probation.get(key);
    if (!held) return undefined;
    this.#probation.delete(key);
    this.#probationBytes -= held.bytes;
    this.#kept.set(key, held);
    this.#keptBytes += held.bytes;
    this.#balance();
    return held.entry;
  }

  async peek(key: string): Promise<CacheEntry | undefined> {
    return (this.#kept.get(key) ?? this.#probation.get(key))?.entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const wasKept = this.#kept.has(key);
    this.#remove(key);
    const bytes = entryBytes(key, entry);
    // Larger than the whole cache: not held (it would evict everything and still not fit).
    if (bytes > this.#maxBytes) return;
    if (wasKept) {
      this.#kept.set(key, { entry, bytes });
      this.#keptBytes += bytes;
    } else {
      this.#probation.set(key, { entry, bytes });
      this.#probationBytes += bytes;
    }
    this.#balance();
  }

  #balance(): void {
    while (this.#keptBytes > this.#maxBytes * PROTECTED_SHARE && this.#kept.size > 0) {
      const [key, held] = this.#kept.entries().next().value!;
      this.#kept.delete(key);
      this.#keptBytes -= held.bytes;
      this.#probation.set(key, held);
      this.#probationBytes += held.bytes;
    }
    while (this.bytes > this.#maxBytes) {
      const from = this.#probation.size > 0 ? this.#probation : this.#kept;
      this.#remove(from.keys().next().value!);
    }
  }

  #remove(key: string): void {
    for (const [segment, isKept] of [
      [this.#probation, false],
      [this.#kept, true],
    ] as const) {
      const held = segment.get(key);
      if (!held) continue;
      segment.delete(key);
      if (isKept) this.#keptBytes -= held.bytes;
      else this.#probationBytes -= held.bytes;
    }
  }
}
